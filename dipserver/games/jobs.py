"""Work that services hand to the Celery workers, by name: the services say what is to be done, the tasks
say how. ``tasks.jobs_register`` (called when the app is ready) fills the table, so nothing below the tasks
imports them and services, notifications and tasks form no import cycle.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db import transaction

_senders: dict[str, Callable[..., Any]] = {}


def job_register(name: str, send: Callable[..., Any]) -> None:
    """``send(*args)`` hands the job ``name`` to the broker (a task's ``delay``)."""
    _senders[name] = send


def job_send(name: str, *args: Any) -> None:
    """Hand the job to the broker now (the broker's errors reach the caller)."""
    try:
        send = _senders[name]
    except KeyError:
        raise RuntimeError(f"No job {name!r} registered: is dipserver.games in INSTALLED_APPS?") from None
    send(*args)


def job_later(name: str, *args: Any) -> None:
    """Hand the job to the broker once the current transaction commits (a rollback sends nothing)."""
    if name not in _senders:
        raise RuntimeError(f"No job {name!r} registered: is dipserver.games in INSTALLED_APPS?")
    transaction.on_commit(functools.partial(job_send, name, *args))
