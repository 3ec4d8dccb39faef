"""Reachability of the services the site depends on, for /healthz and `manage.py check_services`."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from django.db import DatabaseError, connection
from django.utils import timezone

from dipserver.config.env import redact
from dipserver.core.read_only import database_read_only


@dataclass(frozen=True)
class ServiceStatus:
    name: str
    ok: bool
    detail: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def without_detail(self) -> dict[str, object]:
        """What anyone may know: whether the service is up, not where it is or why it failed."""
        return {"name": self.name, "ok": self.ok}


# The remote-control command a worker answers with its own database check (core/worker_control.py).
DATABASE_CHECK = "dipserver_database_check"


def database_status() -> ServiceStatus:
    """Run a trivial query on the default database, and ask whether it takes writes."""
    vendor = connection.vendor
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        read_only = database_read_only()
    except DatabaseError as exc:
        return ServiceStatus("database", False, f"{vendor}: {_first_line(exc)}")
    if read_only:
        return ServiceStatus("database", False, f"{vendor}: read-only, writes are refused")
    return ServiceStatus("database", True, vendor)


def broker_status(timeout: float = 3.0) -> ServiceStatus:
    """Open (and close) a connection to the Celery broker, without retrying."""
    from dipserver.config.celery import app

    url = redact(app.conf.broker_url)
    if app.conf.task_always_eager:
        return ServiceStatus("broker", True, f"{url} (tasks run in-process)")
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:  # kombu raises transport-specific errors; any of them means unreachable
        return ServiceStatus("broker", False, f"{url}: {_first_line(exc)}")
    return ServiceStatus("broker", True, url)


def worker_status(nodename: str, timeout: float = 5.0) -> ServiceStatus:
    """Ask the worker ``nodename`` (e.g. ``celery@host``), through the broker, to check the database.

    No answer means the worker is down, stuck, or cannot reach the broker; an answer carries the worker's
    own database check (``dipserver.core.worker_control``).
    """
    from dipserver.config.celery import app

    try:
        replies = app.control.broadcast(DATABASE_CHECK, destination=[nodename], reply=True, timeout=timeout)
    except Exception as exc:  # kombu raises transport-specific errors; any of them means unreachable
        return ServiceStatus(
            "worker", False, f"{nodename}: cannot ask it through the broker: {_first_line(exc)}"
        )
    answer = next((reply[nodename] for reply in replies or [] if nodename in reply), None)
    if not isinstance(answer, dict):
        return ServiceStatus("worker", False, f"{nodename}: no answer within {timeout:g}s")
    if "error" in answer:  # a worker that does not know the command (an older version of the code)
        return ServiceStatus("worker", False, f"{nodename}: {answer['error']}")
    if not answer.get("ok"):
        return ServiceStatus("worker", False, f"{nodename} cannot reach the database: {answer.get('detail')}")
    return ServiceStatus(
        "worker", True, f"{nodename} answers through the broker and reaches {answer['detail']}"
    )


def heartbeat_status(max_age: timedelta, name: str = "celery") -> ServiceStatus:
    """Whether beat and a worker have run the heartbeat task within ``max_age``."""
    from dipserver.core.models import WorkerHeartbeat

    try:
        beat = WorkerHeartbeat.objects.filter(name=name).first()
    except DatabaseError as exc:
        return ServiceStatus("worker", False, f"cannot read heartbeat: {_first_line(exc)}")
    if beat is None:
        return ServiceStatus("worker", False, "no heartbeat recorded yet")
    age = timezone.now() - beat.beat_at
    detail = f"last heartbeat {int(age.total_seconds())}s ago from {beat.hostname}"
    return ServiceStatus("worker", age <= max_age, detail)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
