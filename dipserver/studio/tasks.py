"""The studio's one task: thin, the service decides (``imports``)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from dipserver.studio.imports import sender_register, svg_import_run


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.studio.svg_import",
    trail=False,
    # A dropped connection before the claim changes nothing; after it, the job waits STALE_AFTER.
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    max_retries=5,
)
def svg_import(job_id: int) -> str:
    """Read an uploaded SVG map into its draft (the ``pictures`` queue: slow CPU work, apart from phases)."""
    return svg_import_run(job_id=job_id)


def jobs_register() -> None:
    """Tell ``imports`` how a job reaches a worker; looked up at each call, so a test may patch ``delay``."""
    sender_register(lambda job_id: svg_import.delay(job_id))
