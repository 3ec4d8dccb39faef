"""A failed try that will be tried again waits: its next try is due at least a second after the outcome is
recorded, even when the back-off's full jitter draws no wait at all."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from dipserver.webhooks.deliveries import Outcome, Result, delivery_claim, delivery_record
from dipserver.webhooks.models import Delivery, Webhook
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_retry_drawn_with_no_wait_still_waits_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = Webhook.objects.create(owner=UserFactory(), url="https://hooks.example.org/x", secret="whsec_t")
    stored = Delivery.objects.create(webhook=hook, key="retry:1", kind="press", payload={"n": 1})
    now = timezone.now()
    claimed = delivery_claim(delivery_id=stored.id, now=now)
    assert isinstance(claimed, Delivery)
    monkeypatch.setattr(random, "randrange", lambda stop: 0)  # the jitter's lowest draw

    tried = delivery_record(delivery=claimed, result=Result(False, True, 503, "HTTP 503"), now=now)

    stored.refresh_from_db()
    assert tried.outcome == Outcome.RETRY and tried.wait == 1
    assert stored.next_attempt_at == now + dt.timedelta(seconds=1)
