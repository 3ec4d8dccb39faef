"""One event's deliveries go out as one task (``webhooks.deliver_many``), and a slow receiver among them
holds none of the others: each is claimed as it starts and sent beside the rest, at most
``BATCH_IN_FLIGHT`` at once, with real receivers on loopback (one trickling its answer a byte a second)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from dipserver.webhooks import deliveries, tasks
from dipserver.webhooks.deliveries import Outcome, deliveries_send
from dipserver.webhooks.models import Delivery, Webhook

DEADLINE = 2  # seconds; the trickler would take a minute
PROMPT = 1.0  # seconds: what "at once" means on a busy two-core machine

pytestmark = pytest.mark.django_db(transaction=True)  # the batch runs in a thread of its own


@pytest.fixture
def short_deadline(settings):
    settings.DIPSERVER_WEBHOOK_DEADLINE = DEADLINE


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user(username="owner", password="a long passphrase 1")


def delivery_to(owner, url: str, n: int) -> int:
    hook = Webhook.objects.create(owner=owner, url=url, secret=f"whsec_{n}")
    return Delivery.objects.create(webhook=hook, key=f"batch:{n}", kind="press", payload={"n": n}).id


def in_a_thread(call) -> tuple[threading.Thread, list]:
    out: list = []

    def run() -> None:
        try:
            out.append(call())
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def waited_for(check, seconds: float) -> bool:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if check():
            return True
        time.sleep(0.02)
    return check()


def test_a_slow_receiver_first_in_a_batch_holds_none_of_the_others(
    short_deadline, owner, trickler, receiver, monkeypatch
):
    retries: list[tuple] = []
    monkeypatch.setattr(tasks.webhook_deliver, "apply_async", lambda *a, **k: retries.append(a))
    ids = [delivery_to(owner, trickler.url, 1), delivery_to(owner, receiver.url, 2)]
    sender, delivered = in_a_thread(lambda: tasks.webhooks_deliver.run(ids))

    assert trickler.got_request.wait(10)
    assert waited_for(lambda: receiver.bodies() == [{"n": 2}], PROMPT)  # while the first still trickles
    assert sender.is_alive()
    sender.join(DEADLINE + 5)
    assert delivered == [1] and retries == [((ids[0],),)]  # the slow one goes on as a retry
    assert dict(Delivery.objects.values_list("key", "status")) == {
        "batch:1": "pending",
        "batch:2": "delivered",
    }


def test_no_more_than_the_bound_are_in_flight_at_once(short_deadline, owner, trickler, monkeypatch):
    monkeypatch.setattr(deliveries, "BATCH_IN_FLIGHT", 2)
    ids = [delivery_to(owner, trickler.url, n) for n in range(3)]
    started = time.monotonic()
    sender, tried = in_a_thread(lambda: deliveries_send(delivery_ids=ids))

    assert waited_for(lambda: trickler.requests == 2, PROMPT)
    time.sleep(DEADLINE / 2)
    assert trickler.requests == 2  # the third waits for a place
    sender.join(2 * DEADLINE + 5)
    assert trickler.requests == 3 and 2 * DEADLINE <= time.monotonic() - started < 2 * DEADLINE + 2
    assert [t.outcome for _, t in tried[0]] == [Outcome.RETRY] * 3


def test_each_is_claimed_as_it_starts_so_its_lease_covers_its_own_try(
    short_deadline, owner, trickler, monkeypatch
):
    monkeypatch.setattr(deliveries, "BATCH_IN_FLIGHT", 1)
    ids = [delivery_to(owner, trickler.url, n) for n in range(2)]
    sender, _ = in_a_thread(lambda: deliveries_send(delivery_ids=ids))

    assert trickler.got_request.wait(10)
    waiting = Delivery.objects.get(id=ids[1])
    assert (waiting.attempts, waiting.lease) == (0, "")  # not claimed while it waits its turn
    sender.join(2 * DEADLINE + 5)
    assert list(Delivery.objects.order_by("id").values_list("attempts", flat=True)) == [1, 1]
