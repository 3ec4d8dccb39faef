"""The delivery task: one try, then Celery's exponential back-off (30 s, 1, 2, 4 ... minutes, at most an
hour, with jitter) until the last try. Never raises, so a failing receiver fails nothing else."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.utils.time import get_exponential_backoff_interval

from dipserver.webhooks.deliveries import Outcome, deliveries_lost, delivery_send

TRIES = 8  # about an hour of trying in all
BACKOFF_SECONDS, BACKOFF_MAX_SECONDS = 30, 3600


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.webhooks.deliver", bind=True, trail=False, max_retries=TRIES - 1, ignore_result=True
)
def webhook_deliver(self: Any, delivery_id: int) -> str:
    tries_left = self.request.retries < self.max_retries
    outcome = delivery_send(delivery_id=delivery_id, last_try=not tries_left)
    if outcome == Outcome.RETRY:
        wait = get_exponential_backoff_interval(
            BACKOFF_SECONDS, self.request.retries, BACKOFF_MAX_SECONDS, full_jitter=True
        )
        raise self.retry(countdown=wait)
    return str(outcome)


@shared_task(name="dipserver.webhooks.sweep", trail=False)  # type: ignore[untyped-decorator]
def webhooks_sweep() -> int:
    """Periodic (beat): queue again the deliveries whose task message was lost."""
    lost = deliveries_lost()
    for delivery_id in lost:
        webhook_deliver.delay(delivery_id)
    return len(lost)
