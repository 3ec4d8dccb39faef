"""The health check of a kept PostgreSQL connection (``dipserver.core.postgresql``), on real PostgreSQL.

A live connection passes it without a query; one whose backend the server ended — what a restart does to
every connection — fails it, so the next request reconnects and is answered. The server ends only this
test's own connection here (``pg_terminate_backend``), so other users of the server are not disturbed.
"""

from __future__ import annotations

import io
import sys
import time
from typing import Any

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.db.backends.postgresql import base as django_postgresql

from dipserver.core.postgresql.base import quiet

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kept(postgres_url: str) -> Any:
    """The default connection, open and kept between requests as in production."""
    assert connection.settings_dict["ENGINE"] == "dipserver.core.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    connection.ensure_connection()
    return connection


def _backend_pid(wrapper: Any) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _terminated(wrapper: Any) -> None:
    """The server ends ``wrapper``'s backend, from another connection, and its socket shows it."""
    pid = _backend_pid(wrapper)
    other = wrapper.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    deadline = time.monotonic() + 10
    while quiet(wrapper.connection):
        assert time.monotonic() < deadline, "the ended connection's socket stayed quiet for 10 s"
        time.sleep(0.05)


def _get(path: str) -> int:
    """A request through the WSGI handler, as gunicorn sends it: with Django's checks of kept
    connections at its start (the test client leaves them out)."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_ACCEPT": "application/json",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    statuses: list[str] = []
    answer = get_wsgi_application()(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(answer)
    answer.close()
    return int(statuses[0].split()[0])


def test_a_live_connection_passes_the_check_without_a_query(kept: Any, monkeypatch: Any) -> None:
    def select_one(self: Any) -> bool:
        raise AssertionError("a live, idle connection was checked with a query")

    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", select_one)
    assert quiet(kept.connection)
    assert kept.is_usable()


def test_a_connection_the_server_ended_fails_the_check(kept: Any) -> None:
    _terminated(kept)
    assert not kept.is_usable()
    kept.close()  # as Django does with a connection that fails it


def test_the_first_request_after_the_server_ended_the_connection_is_answered(kept: Any) -> None:
    assert _get("/api/v1/variants") == 200
    before = _backend_pid(kept)
    _terminated(kept)
    assert _get("/api/v1/variants") == 200
    assert _backend_pid(kept) != before  # reconnected
    assert _get("/api/v1/games") == 200
