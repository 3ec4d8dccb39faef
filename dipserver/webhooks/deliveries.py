"""Sending one delivery: claimed in a short transaction, sent outside any transaction, recorded in another.

1. **Claim** (one conditional ``UPDATE``, which takes the row's lock on PostgreSQL and the write lock on
   SQLite for that statement only): a pending delivery that no try holds gets a lease, a token and the
   time it runs out (the deadline and ``LEASE_MARGIN``); its attempt is counted; committed.
2. **Send**, holding no lock and no transaction: ``transport.post``, within the total deadline
   ``DIPSERVER_WEBHOOK_DEADLINE``.
3. **Record** the outcome under the lease; the lease is given back.

One event's deliveries (``deliveries_send``) go out side by side, at most ``BATCH_IN_FLIGHT`` at once,
each claimed as it starts and recorded as it ends, the database in the calling thread only and the POSTs
in a thread pool: a slow receiver holds one place, never the deliveries behind it.

A second run of a delivery that is in flight sends nothing and waits until the lease runs out. A worker
that dies mid-try records nothing: its lease runs out and the delivery is tried again (its task message
comes back, ``acks_late``, or the sweep finds it), with the same ``X-Dipserver-Delivery`` so a receiver
that did get it can drop the repeat. Nothing is lost, and nothing is sent twice while a try is in flight.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import logging
import uuid
from collections import deque
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import NamedTuple

from celery.utils.time import get_exponential_backoff_interval
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.signature import SIGNATURE_HEADER, TIMESTAMP_HEADER, signature_of
from dipserver.webhooks.transport import Unreachable, post

logger = logging.getLogger(__name__)

# A delivery not tried this long after its try was due (stored, its back-off over, or its lease run out)
# lost its task message; the sweep queues it again.
LOST_AFTER = dt.timedelta(minutes=10)
# A try's lease: its deadline and this margin (for recording the outcome) before another may claim it.
LEASE_MARGIN = dt.timedelta(seconds=30)
TRIES = 8  # about an hour of trying in all
BACKOFF_SECONDS, BACKOFF_MAX_SECONDS = 30, 3600
DELIVERY_HEADER = "X-Dipserver-Delivery"  # the same on every try: a receiver may drop a repeat by it
EVENT_HEADER = "X-Dipserver-Event"
# One batch's deliveries in flight at once: a few slow receivers hold a place each, the rest go on; the
# bound keeps a batch to a few threads and connections in the worker.
BATCH_IN_FLIGHT = 8


class Outcome(enum.StrEnum):
    DELIVERED = "delivered"
    ALREADY_DONE = "already delivered or given up"
    IN_FLIGHT = "being sent by another try"
    RETRY = "failed; to try again"
    GAVE_UP = "given up"
    MISSING = "no such delivery"


class Tried(NamedTuple):
    outcome: Outcome
    wait: float = 0.0  # seconds before the next try (RETRY), or until the lease runs out (IN_FLIGHT)


class Result(NamedTuple):
    delivered: bool
    retry: bool
    response_code: int | None
    error: str


def deadline_seconds() -> float:
    return float(settings.DIPSERVER_WEBHOOK_DEADLINE)


def _transient(status: int) -> bool:
    """Answers worth trying again: the receiver is busy or broken for now."""
    return status in (408, 425, 429) or status >= 500


def delivery_send(*, delivery_id: int, now: dt.datetime | None = None) -> Tried:
    """Claim the delivery, POST it signed, record what happened. A network failure, the deadline passing
    or a busy receiver leaves it pending to be tried again after a back-off (Celery's exponential one,
    30 s to an hour, with jitter), its due time on the row; given up on the last of ``TRIES`` (counted on
    the row, so a try queued again by the sweep does not start over). A refusal (4xx) or an address
    webhooks may not reach gives up at once."""
    now = now or timezone.now()
    claimed = delivery_claim(delivery_id=delivery_id, now=now)
    if isinstance(claimed, Tried):
        return claimed
    result = _sent(claimed)
    return delivery_record(delivery=claimed, result=result, now=timezone.now())


def deliveries_send(*, delivery_ids: Iterable[int]) -> list[tuple[int, Tried]]:
    """Each delivery sent as ``delivery_send`` sends one, side by side (module docstring): claimed when
    a place is free, so its lease counts from its own start, and recorded when its POST ends. Answers
    each id with how its try went, in the order they ended."""
    waiting, tried = deque(delivery_ids), []
    in_flight: dict[Future[Result], Delivery] = {}
    with ThreadPoolExecutor(max_workers=BATCH_IN_FLIGHT, thread_name_prefix="webhook") as pool:
        while waiting or in_flight:
            while waiting and len(in_flight) < BATCH_IN_FLIGHT:
                delivery_id = waiting.popleft()
                claimed = delivery_claim(delivery_id=delivery_id, now=timezone.now())
                if isinstance(claimed, Tried):
                    tried.append((delivery_id, claimed))
                else:
                    in_flight[pool.submit(_sent, claimed)] = claimed
            ended, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in ended:
                delivery = in_flight.pop(future)
                outcome = delivery_record(delivery=delivery, result=future.result(), now=timezone.now())
                tried.append((delivery.id, outcome))
    return tried


def delivery_claim(*, delivery_id: int, now: dt.datetime) -> Delivery | Tried:
    """The delivery with a fresh lease on it, or why it is not to be sent now."""
    token = uuid.uuid4().hex
    lease_until = now + dt.timedelta(seconds=deadline_seconds()) + LEASE_MARGIN
    with transaction.atomic():
        free = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
        claimed = (
            Delivery.objects.filter(free, id=delivery_id, status=Delivery.Status.PENDING)
            # A try that records nothing (its worker died) is due again when its lease runs out.
            .update(
                attempts=F("attempts") + 1, lease=token, lease_until=lease_until, next_attempt_at=lease_until
            )
        )
        delivery = Delivery.objects.select_related("webhook").filter(id=delivery_id).first()
    if delivery is None:
        return Tried(Outcome.MISSING)
    if claimed:
        return delivery
    if delivery.status != Delivery.Status.PENDING:
        return Tried(Outcome.ALREADY_DONE)
    held = (delivery.lease_until - now).total_seconds() if delivery.lease_until else 0.0
    return Tried(Outcome.IN_FLIGHT, max(held, 0.0))


def _sent(delivery: Delivery) -> Result:
    """One POST, outside any transaction."""
    body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
    stamp = f"{timezone.now().timestamp():.0f}"
    headers = {
        SIGNATURE_HEADER: signature_of(delivery.webhook.secret, stamp, body),
        TIMESTAMP_HEADER: stamp,
        DELIVERY_HEADER: delivery.key,
        EVENT_HEADER: delivery.kind,
    }
    try:
        answer = post(delivery.webhook.url, body, headers, deadline=deadline_seconds())
    except WebhookError as exc:  # the address is refused: trying again will not help
        return Result(False, exc.code != "address_refused", None, str(exc))
    except Unreachable as exc:
        return Result(False, True, None, str(exc))
    if 200 <= answer.status < 300:
        return Result(True, False, answer.status, "")
    return Result(False, _transient(answer.status), answer.status, f"HTTP {answer.status}")


def delivery_record(*, delivery: Delivery, result: Result, now: dt.datetime) -> Tried:
    """Write the try's outcome, if the lease is still this try's (one that overran its lease and was
    claimed again leaves the outcome to the new try, unless it delivered: that is final)."""
    changes: dict[str, object] = {"lease": "", "lease_until": None, "response_code": result.response_code}
    tried = Tried(Outcome.GAVE_UP)
    if result.delivered:
        changes |= {"status": Delivery.Status.DELIVERED, "delivered_at": now, "last_error": ""}
        tried = Tried(Outcome.DELIVERED)
    elif result.retry and delivery.attempts < TRIES:
        # Full jitter draws a whole number of seconds from 0 up: at least one, so a receiver that failed is
        # never tried again at once (a draw of 0 made the next try due before the record was written).
        wait = max(
            1,
            get_exponential_backoff_interval(
                BACKOFF_SECONDS, delivery.attempts - 1, BACKOFF_MAX_SECONDS, full_jitter=True
            ),
        )
        changes |= {"last_error": result.error[:2000], "next_attempt_at": now + dt.timedelta(seconds=wait)}
        tried = Tried(Outcome.RETRY, wait)
    else:
        changes |= {"status": Delivery.Status.FAILED, "last_error": result.error[:2000]}
    rows = Delivery.objects.filter(id=delivery.id, status=Delivery.Status.PENDING)
    if not result.delivered:
        rows = rows.filter(lease=delivery.lease)
    with transaction.atomic():
        recorded = rows.update(**changes)
    if not recorded:
        logger.warning("Delivery %s: the outcome of a try that overran its lease was left out", delivery.id)
    return tried


def deliveries_lost(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending deliveries whose try was due longer ago than ``LOST_AFTER`` (never tried since they were
    stored, a retry's back-off over, or a try's lease run out with nothing recorded): their task message
    was lost. Each claimed is due again from ``now``, so the next sweep leaves it to the task the caller
    queues. One merely waiting in a long queue may be queued twice; the claim still sends it once."""
    now = now or timezone.now()
    with transaction.atomic():
        lost = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .annotate(due_at=Coalesce(F("next_attempt_at"), F("created_at")))
            .filter(status=Delivery.Status.PENDING, due_at__lt=now - LOST_AFTER)
            .order_by("due_at", "id")
            .values_list("id", flat=True)[:limit]
        )
        Delivery.objects.filter(id__in=lost).update(next_attempt_at=now)
    return lost
