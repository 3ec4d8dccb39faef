"""Reachability of the services the site depends on, for /healthz and `manage.py check_services`.

/healthz runs a list of checks (``PROCESS_CHECKS``: what this web process reaches; ``SITE_CHECKS``: whether
the site as a whole keeps its deadlines). Each is a function returning a :class:`ServiceStatus`; a failing
one that is ``required`` makes the answer 503. A new check is one more function in a list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from dipserver.config.env import redact
from dipserver.core.read_only import database_read_only


@dataclass(frozen=True)
class ServiceStatus:
    name: str
    ok: bool
    detail: str
    # False: reported, but the site is healthy without it (no heartbeat yet on a site just started).
    required: bool = True

    def as_dict(self) -> dict[str, object]:
        return {k: v for k, v in asdict(self).items() if k != "required"}

    @property
    def failing(self) -> bool:
        return self.required and not self.ok

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
    """Whether beat and a worker have run the heartbeat task within ``max_age`` (none recorded yet: a site
    just started, reported but not required)."""
    from dipserver.core.models import WorkerHeartbeat

    try:
        beat = WorkerHeartbeat.objects.filter(name=name).first()
    except DatabaseError as exc:
        return ServiceStatus("worker", False, f"cannot read heartbeat: {_first_line(exc)}")
    if beat is None:
        return ServiceStatus("worker", False, "no heartbeat recorded yet", required=False)
    age = timezone.now() - beat.beat_at
    detail = f"last heartbeat {int(age.total_seconds())}s ago from {beat.hostname}"
    return ServiceStatus("worker", age <= max_age, detail)


def overdue_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "DIPSERVER_OVERDUE_SECONDS", 120))


def phases_overdue_status(now: datetime | None = None) -> ServiceStatus:
    """Whether every open phase of a game in play was processed in time: one past its deadline by more
    than ``DIPSERVER_OVERDUE_SECONDS`` means no worker or no beat is keeping the deadlines."""
    now = now or timezone.now()
    phase = apps.get_model("games", "Phase")
    try:
        overdue = phase.objects.filter(
            status="open", game__status="active", deadline__lt=now - overdue_after()
        ).order_by("deadline")
        count = overdue.count()
        oldest = overdue.values_list("deadline", flat=True).first() if count else None
    except DatabaseError as exc:
        return ServiceStatus("phases", False, f"cannot read phases: {_first_line(exc)}")
    if oldest is None:
        return ServiceStatus("phases", True, "no phase overdue")
    late = int((now - oldest).total_seconds())
    return ServiceStatus("phases", False, f"{count} phases overdue, the oldest by {late}s")


# Beat schedules the heartbeat every minute; allow a few misses before calling the worker stale.
HEARTBEAT_MAX_AGE = timedelta(minutes=3)

Check = Callable[[], ServiceStatus]
# What this web process reaches (a process whose connections work answers these with 200).
PROCESS_CHECKS: list[Check] = [database_status, broker_status]
# Whether the site keeps its deadlines: beat and a worker alive, no phase overdue.
SITE_CHECKS: list[Check] = [lambda: heartbeat_status(HEARTBEAT_MAX_AGE), phases_overdue_status]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
