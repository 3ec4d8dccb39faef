"""Deliveries never hold anything else, on PostgreSQL, Redis and real Celery worker processes: a webhook
receiver that trickles its answer a byte a second keeps the deliveries worker busy, yet phases queued
meanwhile are processed at once by the phases' worker, the delivery's row is locked by nobody while it is
sent, and each try ends at its deadline."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from dipserver.config import celery_app
from dipserver.games.tasks import phase_process
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.tasks import webhook_deliver
from tests.webhooks import conftest as receivers
from tests.webhooks.conftest import Trickler

from .conftest import Workers, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
trickling_receiver = receivers.trickler  # the webhook tests' receiver that trickles its answer

DEADLINE = 4  # seconds a webhook try may take, in the workers started here
DELIVERY_TASKS = ("dipserver.webhooks.deliver", "dipserver.mail.send")


@pytest.fixture
def two_pools(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Workers, Workers]]:
    """A worker for phases and a worker for deliveries, each on a private queue of its own (as compose's
    worker and deliveries services are); producers here route to them."""
    phases, deliveries = (
        Workers(postgres_url, redis_url, tmp_path),
        Workers(postgres_url, redis_url, tmp_path),
    )
    deliveries.queue = f"dipserver-deliveries-{uuid.uuid4().hex[:8]}"
    for pool in (phases, deliveries):
        pool.env |= {
            "CELERY_TASK_DEFAULT_QUEUE": phases.queue,
            "CELERY_DELIVERIES_QUEUE": deliveries.queue,
            "DIPSERVER_WEBHOOK_DEADLINE": str(DEADLINE),
        }
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue, conf.task_routes)
    conf.task_always_eager, conf.task_default_queue = False, phases.queue
    conf.task_routes = {task: {"queue": deliveries.queue} for task in DELIVERY_TASKS}
    try:
        yield phases, deliveries
    finally:
        conf.task_always_eager, conf.task_default_queue, conf.task_routes = saved
        phases.stop()
        deliveries.stop()


def slow_deliveries(url: str, count: int) -> list[Delivery]:
    owner = get_user_model().objects.create(username=f"hook-{uuid.uuid4().hex[:6]}")
    hook = Webhook.objects.create(owner=owner, url=url, secret="whsec_slow")
    return [
        Delivery.objects.create(webhook=hook, key=f"slow:{hook.id}:{n}", kind="press", payload={"n": n})
        for n in range(count)
    ]


def row_free(delivery: Delivery) -> bool:
    """Whether the delivery's row can be locked within half a second (nobody holds it)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL lock_timeout = '500ms'")
        cursor.execute("SELECT id FROM webhooks_delivery WHERE id = %s FOR UPDATE", [delivery.id])
        return cursor.fetchone() is not None


def test_phases_are_processed_at_once_while_a_slow_receiver_holds_the_deliveries_worker(
    two_pools: tuple[Workers, Workers], trickling_receiver: Trickler, wait_for: Callable[..., object]
) -> None:
    phases, deliveries = two_pools
    trickler = trickling_receiver
    phases.start()
    deliveries.start()
    slow = slow_deliveries(trickler.url, 3)  # three tries of DEADLINE seconds each, one after another
    for delivery in slow:
        webhook_deliver.delay(delivery.id)
    assert trickler.got_request.wait(30)
    sending = time.monotonic()

    games = [due_game(f"beside-deliveries{n}") for n in range(3)]
    queued = time.monotonic()
    for game in games:
        phase_process.delay(game.current_phase_id)
    wait_for(lambda: all(processed_once(g) for g in games), timeout=10, what="the phases")
    processed_in = time.monotonic() - queued

    assert processed_in < DEADLINE, processed_in  # not behind even one slow try
    in_flight = Delivery.objects.get(id=slow[0].id)
    assert in_flight.lease and in_flight.status == "pending"
    assert row_free(in_flight)  # sent without holding its row

    wait_for(
        lambda: Delivery.objects.filter(id=slow[0].id, lease="", attempts=1).exists(),
        timeout=DEADLINE + 10,
        what="the first try to end at its deadline",
    )
    first = Delivery.objects.get(id=slow[0].id)
    assert "deadline" in first.last_error and first.next_attempt_at is not None
    assert time.monotonic() - sending < DEADLINE + 3
    assert sorted(phases.outcomes()) == ["processed"] * 3
    assert phases.errors() == [] and deliveries.errors() == []
