"""Deliveries never hold anything else, on PostgreSQL, Redis and real Celery worker processes: a webhook
receiver that trickles its answer a byte a second keeps the deliveries worker busy, yet phases queued
meanwhile are processed at once by the phases' worker, the delivery's row is locked by nobody while it is
sent, and each try ends at its deadline; a try whose worker died is sent again only once its lease runs
out; and a mail server that answers late gets its mail once."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from dipserver.config import celery_app
from dipserver.games.tasks import phase_process
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue
from dipserver.mail.tasks import mail_send, mails_send
from dipserver.webhooks.deliveries import LEASE_MARGIN
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.tasks import webhook_deliver
from tests.mail.conftest import free_port
from tests.mail.test_exactly_once import LateInbox
from tests.webhooks import conftest as receivers
from tests.webhooks.conftest import Receiver, Trickler

from .conftest import Workers, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
trickling_receiver = receivers.trickler  # the webhook tests' receiver that trickles its answer
fast_receiver = receivers.receiver  # and the one that answers at once

DEADLINE = 4  # seconds a webhook try may take, in the workers started here


@pytest.fixture
def two_pools(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Workers, Workers]]:
    """A worker for phases and a worker for deliveries, each on a private queue of its own (as compose's
    worker and deliveries services are). Phases queued here go to the first (the default queue); the
    tests name the deliveries queue when they queue a delivery."""
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
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager, conf.task_default_queue = False, phases.queue
    try:
        yield phases, deliveries
    finally:
        conf.task_always_eager, conf.task_default_queue = saved
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
        webhook_deliver.apply_async([delivery.id], queue=deliveries.queue)
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


def test_a_try_whose_worker_was_killed_is_sent_again_once_its_lease_runs_out_and_not_before(
    two_pools: tuple[Workers, Workers],
    trickling_receiver: Trickler,
    fast_receiver: Receiver,
    wait_for: Callable[..., object],
) -> None:
    _, deliveries = two_pools
    killed = deliveries.start()
    (delivery,) = slow_deliveries(trickling_receiver.url, 1)
    webhook_deliver.apply_async([delivery.id], queue=deliveries.queue)
    assert trickling_receiver.got_request.wait(30)
    os.kill(killed.pid, signal.SIGKILL)  # mid-try: nothing recorded, the lease stays
    killed.wait(10)
    lease_until = Delivery.objects.get(id=delivery.id).lease_until
    assert lease_until is not None
    Webhook.objects.filter(id=delivery.webhook_id).update(url=fast_receiver.url)  # answers at once now

    deliveries.start()
    webhook_deliver.apply_async([delivery.id], queue=deliveries.queue)  # a redelivered or duplicate message
    time.sleep(3)
    assert fast_receiver.received == []  # not sent again while the dead try's lease holds
    assert Delivery.objects.get(id=delivery.id).attempts == 1

    wait_for(
        lambda: Delivery.objects.filter(id=delivery.id, status="delivered").exists(),
        timeout=DEADLINE + LEASE_MARGIN.total_seconds() + 15,
        what="the delivery to be sent again once the lease ran out",
    )
    assert len(fast_receiver.received) == 1 and trickling_receiver.requests == 1
    assert Delivery.objects.get(id=delivery.id).attempts == 2


def test_a_mail_server_that_answers_after_the_timeout_gets_the_mail_once(
    postgres_url: str, redis_url: str, tmp_path: Path, wait_for: Callable[..., object]
) -> None:
    """A real worker, a real SMTP server on loopback that takes the message and answers 250 only after
    EMAIL_TIMEOUT: the mail counts as sent (unconfirmed) and the task run again sends no second copy."""
    inbox = LateInbox(port=free_port())
    inbox.answers, inbox.delay = [], 2.5
    inbox.start()
    deliveries = Workers(postgres_url, redis_url, tmp_path)
    deliveries.env |= {"EMAIL_URL": f"smtp://127.0.0.1:{inbox.port}", "EMAIL_TIMEOUT": "1"}
    deliveries.env["CELERY_DELIVERIES_QUEUE"] = deliveries.queue  # its retries come back to it
    eager, celery_app.conf.task_always_eager = celery_app.conf.task_always_eager, False
    try:
        deliveries.start()
        mail = Mail.objects.create(
            key=f"late:{uuid.uuid4().hex}", kind=Mail.Kind.GAME_STARTED, to="ann@example.org",
            subject="Started", body="Go.", next_attempt_at=timezone.now(),
        )  # fmt: skip
        mail_send.apply_async([mail.id], queue=deliveries.queue)
        wait_for(lambda: Mail.objects.filter(id=mail.id, sent_at__isnull=False).exists(), what="the attempt")
        row = Mail.objects.get(id=mail.id)
        assert row.unconfirmed and row.attempts == 1

        mail_send.apply_async([mail.id], queue=deliveries.queue)  # as a retry or the sweep would
        time.sleep(4)  # the server's late answers are in
        assert len(inbox.received) == 1
        assert Mail.objects.get(id=mail.id).attempts == 1
        assert deliveries.errors() == []
    finally:
        celery_app.conf.task_always_eager = eager
        deliveries.stop()
        inbox.stop()


def test_mails_queued_together_reach_a_real_worker_as_one_task_and_each_is_sent_once(
    postgres_url: str,
    redis_url: str,
    tmp_path: Path,
    wait_for: Callable[..., object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An announcement's mails go to the broker as one message (``mail.send_many``, here on the worker's
    private queue); the deliveries worker sends each of them, once."""
    inbox = LateInbox(port=free_port())
    inbox.answers, inbox.delay = [], 0.0
    inbox.start()
    deliveries = Workers(postgres_url, redis_url, tmp_path)
    deliveries.env |= {"EMAIL_URL": f"smtp://127.0.0.1:{inbox.port}"}
    deliveries.env["CELERY_DELIVERIES_QUEUE"] = deliveries.queue
    eager, celery_app.conf.task_always_eager = celery_app.conf.task_always_eager, False
    messages: list[list[int]] = []
    monkeypatch.setattr(mails_send, "delay_on_commit", messages.append)
    try:
        deliveries.start()
        tag = uuid.uuid4().hex
        ids = mail_queue(
            Outgoing(f"together:{tag}:{n}", Mail.Kind.GAME_STARTED, f"p{n}@example.org", "Started", "Go.")
            for n in range(3)
        )
        assert messages == [ids]
        mails_send.apply_async([ids], queue=deliveries.queue)
        sent = Mail.objects.filter(id__in=ids, sent_at__isnull=False)
        wait_for(lambda: sent.count() == 3, what="the mails")
        assert sorted(m["X-Envelope-To"] for m in inbox.received) == [f"p{n}@example.org" for n in range(3)]
        assert list(Mail.objects.filter(id__in=ids).values_list("attempts", flat=True)) == [1, 1, 1]
        assert deliveries.errors() == []
    finally:
        celery_app.conf.task_always_eager = eager
        deliveries.stop()
        inbox.stop()
