"""Django's PostgreSQL backend, its health check (``CONN_HEALTH_CHECKS``) asked of the socket first.

Django checks a kept connection before the first query of each request (and each worker task,
``dipserver.config.celery``) with ``SELECT 1``: a round trip, one more statement for the server, and about
20 µs of the process's CPU. A connection the server has ended (a restart, a terminated backend, a crash)
has had its socket closed from the server's side, after a FATAL message when the server could send one,
so that socket is readable. A connection that libpq holds good, idle outside any transaction, whose socket
has nothing to read is therefore used as it is (one ``poll`` system call); any other goes through
Django's ``SELECT 1``, which closes it when it fails, as before. A server that stops between the check and
the first query fails that query under either check.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base

# libpq's CONNECTION_OK and PQTRANS_IDLE, as psycopg2 and psycopg (3) both give them: 0.
_OK = _IDLE = 0
_EVENTS = select.POLLIN | select.POLLPRI  # poll reports POLLHUP and POLLERR whatever is asked


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        if self.connection is not None and quiet(self.connection):
            return True
        return bool(super().is_usable())


def quiet(raw: Any) -> bool:
    """Whether the psycopg connection ``raw`` is open, good, idle, and has nothing on its socket."""
    try:
        if raw.closed or raw.info.status != _OK or raw.info.transaction_status != _IDLE:
            return False
        poller = select.poll()
        poller.register(raw.fileno(), _EVENTS)
        return not poller.poll(0)
    except Exception:  # any doubt (a closed descriptor, another driver): the real check decides
        return False
