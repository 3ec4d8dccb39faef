"""Site-operations tasks."""

import socket

from celery import shared_task
from django.utils import timezone

from dipserver.core import worker_control  # noqa: F401 - registers the health check workers answer
from dipserver.core.models import WorkerHeartbeat

HEARTBEAT = "celery"


@shared_task(name="dipserver.core.heartbeat", trail=False)  # type: ignore[untyped-decorator]  # celery is untyped
def heartbeat(name: str = HEARTBEAT) -> str:
    """Record that a worker is alive; idempotent, so a redelivered message is harmless."""
    WorkerHeartbeat.objects.update_or_create(
        name=name, defaults={"beat_at": timezone.now(), "hostname": socket.gethostname()}
    )
    return name
