"""A remote-control command that Celery workers answer: can this worker reach the database?

``check_services --worker NODE`` (the worker's health check in docker-compose.yml) sends it through the
broker and waits for the answer. An answer proves the broker path both ways; its content is the
worker's own database check. Remote-control commands run in the worker's main process, beside the
consumer, so the answer comes even while every pool process is busy with a long task.
"""

from __future__ import annotations

from typing import Any

from celery.worker.control import inspect_command
from django.db import connection

from dipserver.core.health import DATABASE_CHECK, database_status


@inspect_command(name=DATABASE_CHECK)  # type: ignore[untyped-decorator]  # Celery ships no type hints
def database_check(state: Any = None) -> dict[str, object]:
    """Run a trivial query on a new connection, closed afterwards (no kept connection in this process)."""
    try:
        status = database_status()
    finally:
        connection.close()
    return {"ok": status.ok, "detail": status.detail}
