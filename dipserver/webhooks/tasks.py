"""The delivery task: one try, then Celery's exponential back-off (30 s, 1, 2, 4 ... minutes, at most an
hour, with jitter) until the last try, both kept on the delivery's row (``deliveries``). Never raises, so
a failing receiver fails nothing else. Both tasks run on the deliveries queue (settings/celery.py), in a
worker pool of their own, so a slow receiver never stands in front of a phase."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from dipserver.webhooks.deliveries import TRIES, Outcome, deliveries_lost, deliveries_send, delivery_send

# A run that finds its delivery in flight (a duplicate message, or the first try's worker died) waits
# for the lease to run out; such waits come on top of the tries.
IN_FLIGHT_WAITS = 3


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.webhooks.deliver",
    bind=True,
    trail=False,
    max_retries=TRIES - 1 + IN_FLIGHT_WAITS,
    ignore_result=True,
)
def webhook_deliver(self: Any, delivery_id: int) -> str:
    # The tries are counted on the row (at most TRIES), so a try the sweep queued again goes on counting.
    tried = delivery_send(delivery_id=delivery_id)
    if tried.outcome == Outcome.RETRY:
        raise self.retry(countdown=tried.wait)
    if tried.outcome == Outcome.IN_FLIGHT and not self.request.is_eager:
        raise self.retry(countdown=tried.wait + 1)  # then it is delivered, or the lease ran out
    return str(tried.outcome)


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.webhooks.deliver_many", bind=True, trail=False, ignore_result=True
)
def webhooks_deliver(self: Any, delivery_ids: list[int]) -> int:
    """One event's deliveries, side by side (``deliveries_send``: a slow receiver holds none of the
    others): one task message for all of them (publishing one costs the announcing worker more than the
    delivery's row). A delivery to try again goes on as ``webhook_deliver``'s first retry; a worker that
    dies part way leaves the rest to the sweep. Never raises. Returns how many were delivered."""
    delivered = 0
    for delivery_id, tried in deliveries_send(delivery_ids=delivery_ids):
        if tried.outcome == Outcome.RETRY:
            webhook_deliver.apply_async((delivery_id,), countdown=tried.wait, retries=1)
        elif tried.outcome == Outcome.IN_FLIGHT and not self.request.is_eager:
            webhook_deliver.apply_async((delivery_id,), countdown=tried.wait + 1, retries=1)
        delivered += tried.outcome == Outcome.DELIVERED
    return delivered


@shared_task(name="dipserver.webhooks.sweep", trail=False)  # type: ignore[untyped-decorator]
def webhooks_sweep() -> int:
    """Periodic (beat): queue again the deliveries whose task message was lost."""
    lost = deliveries_lost()
    for delivery_id in lost:
        webhook_deliver.delay(delivery_id)
    return len(lost)
