"""Sending one delivery, at most once: its row stays locked while it is sent (the only lock taken), so
a second run of the same delivery waits, then finds it delivered."""

from __future__ import annotations

import datetime as dt
import enum
import json
from typing import NamedTuple

import requests
from celery.utils.time import get_exponential_backoff_interval
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.signature import SIGNATURE_HEADER, TIMESTAMP_HEADER, signature_of
from dipserver.webhooks.transport import post

# A delivery not tried this long after its try was due (stored, or its back-off over) lost its task
# message; the sweep queues it again.
LOST_AFTER = dt.timedelta(minutes=10)
TRIES = 8  # about an hour of trying in all
BACKOFF_SECONDS, BACKOFF_MAX_SECONDS = 30, 3600
DELIVERY_HEADER = "X-Dipserver-Delivery"  # the same on every try: a receiver may drop a repeat by it
EVENT_HEADER = "X-Dipserver-Event"


class Outcome(enum.StrEnum):
    DELIVERED = "delivered"
    ALREADY_DONE = "already delivered or given up"
    RETRY = "failed; to try again"
    GAVE_UP = "given up"
    MISSING = "no such delivery"


class Tried(NamedTuple):
    outcome: Outcome
    wait: float = 0.0  # seconds before the next try (RETRY only)


def _transient(status: int) -> bool:
    """Answers worth trying again: the receiver is busy or broken for now."""
    return status in (408, 425, 429) or status >= 500


def delivery_send(*, delivery_id: int, now: dt.datetime | None = None) -> Tried:
    """POST the delivery, signed, unless it is done. A network failure or a busy receiver leaves it
    pending to be tried again after a back-off (Celery's exponential one, 30 s to an hour, with jitter),
    its due time on the row; given up on the last of ``TRIES`` (counted on the row, so a try queued again
    by the sweep does not start over). A refusal (4xx) or an address webhooks may not reach gives up at
    once. Every try is logged on the row: status, answer code, attempts, error."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update().select_related("webhook").filter(id=delivery_id).first()
        )
        if delivery is None:
            return Tried(Outcome.MISSING)
        if delivery.status != Delivery.Status.PENDING:
            return Tried(Outcome.ALREADY_DONE)
        body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
        stamp = f"{now.timestamp():.0f}"
        headers = {
            SIGNATURE_HEADER: signature_of(delivery.webhook.secret, stamp, body),
            TIMESTAMP_HEADER: stamp,
            DELIVERY_HEADER: delivery.key,
            EVENT_HEADER: delivery.kind,
            "User-Agent": "dipserver-webhooks/1",
        }
        delivery.attempts += 1
        retry = False
        try:
            answer = post(delivery.webhook.url, body, headers)
        except WebhookError as exc:
            delivery.last_error, retry = str(exc), exc.code != "address_refused"
        except requests.RequestException as exc:
            delivery.last_error, retry = f"{type(exc).__name__}: {exc}"[:2000], True
        else:
            delivery.response_code = answer.status
            if 200 <= answer.status < 300:
                delivery.status, delivery.delivered_at, delivery.last_error = (
                    Delivery.Status.DELIVERED,
                    now,
                    "",
                )
            else:
                delivery.last_error, retry = (
                    f"HTTP {answer.status}: {answer.text}"[:2000],
                    _transient(answer.status),
                )
        wait = 0.0
        if delivery.status == Delivery.Status.PENDING and retry and delivery.attempts < TRIES:
            wait = get_exponential_backoff_interval(
                BACKOFF_SECONDS, delivery.attempts - 1, BACKOFF_MAX_SECONDS, full_jitter=True
            )
            delivery.next_attempt_at = now + dt.timedelta(seconds=wait)
        elif delivery.status == Delivery.Status.PENDING:
            delivery.status = Delivery.Status.FAILED
        fields = ["attempts", "status", "response_code", "last_error", "delivered_at", "next_attempt_at"]
        delivery.save(update_fields=fields)
    if delivery.status == Delivery.Status.DELIVERED:
        return Tried(Outcome.DELIVERED)
    return (
        Tried(Outcome.RETRY, wait) if delivery.status == Delivery.Status.PENDING else Tried(Outcome.GAVE_UP)
    )


def deliveries_lost(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending deliveries whose try was due longer ago than ``LOST_AFTER`` (never tried since they were
    stored, or a retry's back-off over): their task message was lost. Each claimed is due again from
    ``now``, so the next sweep leaves it to the task the caller queues; a row being sent (locked) is
    skipped. One merely waiting in a long queue may be queued twice; the row lock still sends it once."""
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
