"""Sending one delivery, at most once: its row stays locked while it is sent (the only lock taken), so
a second run of the same delivery waits, then finds it delivered."""

from __future__ import annotations

import datetime as dt
import enum
import json

import requests
from django.db import transaction
from django.utils import timezone

from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.signature import SIGNATURE_HEADER, TIMESTAMP_HEADER, signature_of
from dipserver.webhooks.transport import post

# A delivery never tried this long after it was stored lost its task message; the sweep queues it again.
LOST_AFTER = dt.timedelta(minutes=10)
DELIVERY_HEADER = "X-Dipserver-Delivery"  # the same on every try: a receiver may drop a repeat by it
EVENT_HEADER = "X-Dipserver-Event"


class Outcome(enum.StrEnum):
    DELIVERED = "delivered"
    ALREADY_DONE = "already delivered or given up"
    RETRY = "failed; to try again"
    GAVE_UP = "given up"
    MISSING = "no such delivery"


def _transient(status: int) -> bool:
    """Answers worth trying again: the receiver is busy or broken for now."""
    return status in (408, 425, 429) or status >= 500


def delivery_send(*, delivery_id: int, last_try: bool, now: dt.datetime | None = None) -> Outcome:
    """POST the delivery, signed, unless it is done. A network failure or a busy receiver leaves it
    pending to be tried again (given up on the last try); a refusal (4xx) or an address webhooks may not
    reach gives up at once. Every try is logged on the row: status, answer code, attempts, error."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update().select_related("webhook").filter(id=delivery_id).first()
        )
        if delivery is None:
            return Outcome.MISSING
        if delivery.status != Delivery.Status.PENDING:
            return Outcome.ALREADY_DONE
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
        if delivery.status == Delivery.Status.PENDING and not (retry and not last_try):
            delivery.status = Delivery.Status.FAILED
        delivery.save(update_fields=["attempts", "status", "response_code", "last_error", "delivered_at"])
    if delivery.status == Delivery.Status.DELIVERED:
        return Outcome.DELIVERED
    return Outcome.RETRY if delivery.status == Delivery.Status.PENDING else Outcome.GAVE_UP


def deliveries_lost(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending deliveries never tried, stored longer ago than ``LOST_AFTER``: their task message was lost.
    (One merely waiting in a long queue may be queued twice; the row lock still sends it once.)"""
    since = (now or timezone.now()) - LOST_AFTER
    lost = Delivery.objects.filter(status=Delivery.Status.PENDING, attempts=0, created_at__lt=since)
    return list(lost.order_by("id").values_list("id", flat=True)[:limit])
