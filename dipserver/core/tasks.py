"""Site-operations tasks."""

import logging
import socket
from typing import Any

from celery import shared_task, signals
from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from dipserver.core import worker_control  # noqa: F401 - registers the health check workers answer
from dipserver.core.models import TaskFailure, WorkerHeartbeat

logger = logging.getLogger(__name__)

HEARTBEAT = "celery"


@shared_task(name="dipserver.core.heartbeat", trail=False)  # type: ignore[untyped-decorator]  # celery is untyped
def heartbeat(name: str = HEARTBEAT) -> str:
    """Record that a worker is alive; idempotent, so a redelivered message is harmless."""
    WorkerHeartbeat.objects.update_or_create(
        name=name, defaults={"beat_at": timezone.now(), "hostname": socket.gethostname()}
    )
    return name


def task_failure_count(task: str, error: BaseException | str, *, retry: bool = False) -> None:
    """Count a task's failure (it gave up) or retry for /metrics. Never raises: a worker whose database is
    the thing failing must go on with its own error handling, so this one is only logged."""
    field = "retries" if retry else "failures"
    detail = str(error).strip().splitlines()[0][:1000] if str(error).strip() else type(error).__name__
    now = timezone.now()
    try:
        with transaction.atomic():
            counted = TaskFailure.objects.filter(task=task).update(
                **{field: F(field) + 1}, last_at=now, last_error=detail
            )
            if not counted:
                TaskFailure.objects.create(task=task, last_at=now, last_error=detail, **{field: 1})
    except (DatabaseError, TransactionManagementError) as exc:  # (two first failures at once: one lost)
        logger.warning("cannot count the %s of %s: %s", field, task, exc)


@shared_task(name="dipserver.core.embedded_broker_tidy", trail=False)  # type: ignore[untyped-decorator]
def embedded_broker_tidy() -> int:
    """Periodic (beat, hourly): delete the embedded broker's messages taken long ago."""
    from dipserver.core.embedded_broker import embedded_broker_tidied

    return embedded_broker_tidied()


# Counted where the workers load their tasks (this module), so the Celery app imports nothing of ours.
@signals.task_failure.connect  # type: ignore[untyped-decorator]  # Celery ships no type hints
def _task_failure_counted(sender: Any = None, exception: BaseException | None = None, **kwargs: Any) -> None:
    """A task gave up: counted for /metrics (``dipserver_task_failures_total``)."""
    task_failure_count(getattr(sender, "name", str(sender)), exception or "failed")


@signals.task_retry.connect  # type: ignore[untyped-decorator]  # Celery ships no type hints
def _task_retry_counted(sender: Any = None, reason: Any = None, **kwargs: Any) -> None:
    """A task will be tried again (a dropped database connection, say): counted for /metrics."""
    task_failure_count(getattr(sender, "name", str(sender)), str(reason or "retry"), retry=True)
