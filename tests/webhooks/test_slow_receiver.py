"""A receiver that trickles its answer a byte a second (a real one, on loopback) is cut off at the
delivery's deadline, a total and not a time between bytes; and while its delivery is in flight nothing
else waits for it: the game, the webhook list and the delivery log answer at once, on SQLite too (the
try holds no transaction and no lock while it sends)."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from dipserver.webhooks.addresses import address_checked, target_of
from dipserver.webhooks.deliveries import LEASE_MARGIN, Outcome, delivery_send
from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery, Webhook
from tests.api.conftest import client_for, start_game, user_of

DEADLINE = 2  # seconds; the trickler would take a minute
PROMPT = 1.0  # seconds: what "at once" means on a busy two-core machine


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user(username="outsider", password="a long passphrase 1")


@pytest.fixture
def game(db):
    users = get_user_model().objects
    players = [users.create_user(username=f"player{i}", password="a long passphrase 1") for i in range(7)]
    return start_game(players, users.create_user(username="master"))


@pytest.fixture
def short_deadline(settings):
    settings.DIPSERVER_WEBHOOK_DEADLINE = DEADLINE


def slow_delivery(owner, trickler, game=None) -> Delivery:
    hook = Webhook.objects.create(owner=owner, url=trickler.url, secret="whsec_t", game=game)
    return Delivery.objects.create(webhook=hook, key=f"slow:{hook.id}", kind="press", payload={"n": 1})


@pytest.mark.django_db
def test_a_trickling_answer_is_cut_off_at_the_deadline_and_tried_again_later(
    short_deadline, trickler, outsider
):
    delivery = slow_delivery(outsider, trickler)

    started = time.monotonic()
    tried = delivery_send(delivery_id=delivery.id)
    took = time.monotonic() - started

    assert DEADLINE <= took < DEADLINE + 1.5, took
    assert trickler.bytes_sent < 5  # the status line had not even arrived
    assert tried.outcome == Outcome.RETRY
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.lease, delivery.lease_until) == (
        "pending",
        1,
        "",
        None,
    )
    assert "deadline" in delivery.last_error
    assert delivery.next_attempt_at > timezone.now()  # the back-off


@pytest.mark.django_db(transaction=True)
def test_while_a_delivery_is_in_flight_the_game_and_the_webhooks_answer_at_once(
    short_deadline, trickler, game
):
    england = user_of(game, "ENGLAND")
    delivery = slow_delivery(england, trickler, game=game)
    outcome: list[Outcome] = []

    def deliver() -> None:
        try:
            outcome.append(delivery_send(delivery_id=delivery.id).outcome)
        finally:
            connection.close()  # this thread's own connection

    sender = threading.Thread(target=deliver)
    sender.start()
    assert trickler.got_request.wait(10)
    in_flight = Delivery.objects.get(id=delivery.id)
    assert in_flight.lease and in_flight.lease_until > timezone.now()

    client = client_for(england)
    asked = [
        lambda: client.put(
            f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["F LON - NTH"]}, format="json"
        ),
        lambda: client.put(
            f"/api/v1/games/{game.id}/ready", {"phase": "S1901M", "ready": True}, format="json"
        ),
        lambda: client.get(f"/api/v1/games/{game.id}"),
        lambda: client.get("/api/v1/webhooks"),
        lambda: client.post("/api/v1/webhooks", {"url": "http://127.0.0.1:9/other"}, format="json"),
        lambda: client.get(f"/api/v1/webhooks/{delivery.webhook_id}/deliveries"),
    ]
    for ask in asked:
        started = time.monotonic()
        answer = ask()
        took = time.monotonic() - started
        assert answer.status_code < 300, answer.content
        assert took < PROMPT, (answer.request["PATH_INFO"], took)
    assert sender.is_alive()  # all of that while the receiver was still trickling

    sender.join(DEADLINE + 5)
    assert outcome == [Outcome.RETRY]
    assert Delivery.objects.get(id=delivery.id).lease == ""


@pytest.mark.django_db
def test_a_second_run_of_a_delivery_in_flight_sends_nothing_and_waits_for_its_lease(
    short_deadline, trickler, outsider
):
    delivery = slow_delivery(outsider, trickler)
    lease_until = timezone.now() + LEASE_MARGIN
    Delivery.objects.filter(id=delivery.id).update(lease="another-try", lease_until=lease_until, attempts=1)

    tried = delivery_send(delivery_id=delivery.id)

    assert tried.outcome == Outcome.IN_FLIGHT and 0 < tried.wait <= LEASE_MARGIN.total_seconds()
    assert trickler.requests == 0
    assert Delivery.objects.get(id=delivery.id).attempts == 1


@pytest.mark.django_db
def test_a_delivery_whose_try_died_is_tried_again_once_its_lease_ran_out(receiver, outsider):
    hook = Webhook.objects.create(owner=outsider, url=receiver.url, secret="whsec_r")
    delivery = Delivery.objects.create(webhook=hook, key="died", kind="press", payload={"n": 2})
    ran_out = timezone.now()  # the worker of the first try was killed; nothing was recorded
    Delivery.objects.filter(id=delivery.id).update(lease="dead-try", lease_until=ran_out, attempts=1)

    assert delivery_send(delivery_id=delivery.id).outcome == Outcome.DELIVERED

    assert receiver.bodies() == [{"n": 2}]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.lease) == ("delivered", 2, "")


@pytest.fixture
def slow_resolver(monkeypatch):
    """Names take three seconds to resolve (to loopback), as a resolver an attacker's domain stalls."""
    real = socket.getaddrinfo

    def slow(host, *args, **kwargs):
        time.sleep(3)
        return real("127.0.0.1", *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", slow)


@pytest.mark.django_db
def test_the_deadline_covers_a_slow_resolver_too(short_deadline, slow_resolver, receiver, outsider):
    hook = Webhook.objects.create(owner=outsider, url="http://hooks.example.org:9/x", secret="whsec_r")
    delivery = Delivery.objects.create(webhook=hook, key="dns", kind="press", payload={})

    started = time.monotonic()
    tried = delivery_send(delivery_id=delivery.id)

    assert time.monotonic() - started < DEADLINE + 0.5
    assert tried.outcome == Outcome.RETRY
    assert "deadline" in Delivery.objects.get(id=delivery.id).last_error


def test_making_a_hook_waits_for_a_slow_resolver_only_so_long(slow_resolver):
    started = time.monotonic()
    with pytest.raises(WebhookError) as refused:
        address_checked(target_of("http://hooks.example.org/x"), timeout=0.5)
    assert refused.value.code == "bad_url" and "did not resolve within" in str(refused.value)
    assert time.monotonic() - started < 1.0
