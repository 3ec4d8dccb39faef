"""The sandboxes' one periodic task: thin, the service decides."""

from __future__ import annotations

from celery import shared_task

from dipserver.sandbox.services import sandboxes_cleanup


@shared_task(name="dipserver.sandbox.cleanup_sweep")  # type: ignore[untyped-decorator]  # Celery ships no type hints
def cleanup_sweep() -> list[int]:
    """Periodic (beat, hourly): tell the owners of idle sandboxes; delete those idle after the notice."""
    noticed, deleted = sandboxes_cleanup()
    return [noticed, deleted]
