"""A retry whose task message was lost mid-back-off is queued again by the beat sweep once it is overdue,
and a delivery is never delivered twice however often it is queued."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from dipserver.webhooks.deliveries import LOST_AFTER, deliveries_lost
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.services import webhook_create
from dipserver.webhooks.tasks import webhook_deliver, webhooks_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(db, receiver):
    owner = get_user_model().objects.create(username="owner")
    return webhook_create(owner=owner, url=receiver.url)[0]


def retrying(hook, key: str, due: dt.datetime) -> Delivery:
    """A delivery tried once and failed, its next try due at ``due`` (its task message then lost)."""
    return Delivery.objects.create(
        webhook=hook, key=key, kind="press", payload={"content": key}, attempts=1, next_attempt_at=due
    )


def test_a_retry_overdue_after_its_message_was_lost_is_sent_by_the_sweep(hook, receiver):
    now = timezone.now()
    lost = retrying(hook, "lost", now - LOST_AFTER - dt.timedelta(minutes=1))
    waiting = retrying(hook, "waiting", now + dt.timedelta(minutes=5))  # its back-off is not over

    assert webhooks_sweep() == 1

    assert receiver.bodies() == [{"content": "lost"}]
    lost.refresh_from_db()
    assert (lost.status, lost.attempts) == ("delivered", 2)
    assert Delivery.objects.get(id=waiting.id).status == "pending"


def test_a_claimed_retry_is_not_queued_again_by_the_next_sweep(hook):
    now = timezone.now()
    retrying(hook, "lost", now - LOST_AFTER - dt.timedelta(minutes=1))

    assert len(deliveries_lost(now=now)) == 1
    assert deliveries_lost(now=now + dt.timedelta(minutes=1)) == []


def test_a_lost_retry_queued_again_and_its_late_message_deliver_once(hook, receiver):
    lost = retrying(hook, "lost", timezone.now() - LOST_AFTER - dt.timedelta(minutes=1))
    webhooks_sweep()

    webhook_deliver(lost.id)  # the original retry's message turns up after all

    assert len(receiver.received) == 1


def test_the_tries_of_a_retry_queued_again_count_on_from_the_row(hook, receiver, celery_conf):
    celery_conf(task_eager_propagates=False)  # eager retries then run at once, as a worker's would
    receiver.answers = [503] * 20
    lost = retrying(hook, "lost", timezone.now() - LOST_AFTER - dt.timedelta(minutes=1))
    Delivery.objects.filter(id=lost.id).update(attempts=6)

    webhooks_sweep()

    assert len(receiver.received) == 2  # tries 7 and 8 of 8, not 8 more
    assert Delivery.objects.get(id=lost.id).status == "failed"
