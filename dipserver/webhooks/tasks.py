"""The delivery task: one try, then Celery's exponential back-off (30 s, 1, 2, 4 ... minutes, at most an
hour, with jitter) until the last try, both kept on the delivery's row (``deliveries``). Never raises, so
a failing receiver fails nothing else."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from dipserver.webhooks.deliveries import TRIES, Outcome, deliveries_lost, delivery_send


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.webhooks.deliver", bind=True, trail=False, max_retries=TRIES - 1, ignore_result=True
)
def webhook_deliver(self: Any, delivery_id: int) -> str:
    # The tries are counted on the row (at most TRIES), so a try the sweep queued again goes on counting.
    tried = delivery_send(delivery_id=delivery_id)
    if tried.outcome == Outcome.RETRY:
        raise self.retry(countdown=tried.wait)
    return str(tried.outcome)


@shared_task(name="dipserver.webhooks.sweep", trail=False)  # type: ignore[untyped-decorator]
def webhooks_sweep() -> int:
    """Periodic (beat): queue again the deliveries whose task message was lost."""
    lost = deliveries_lost()
    for delivery_id in lost:
        webhook_deliver.delay(delivery_id)
    return len(lost)
