"""Webhooks hear the game's news as signed JSON, posted to a real receiver on loopback: once each, tried
again after a failure, and logged for their owner."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.games import notifications
from dipserver.games.models import Game
from dipserver.games.services.games import game_concede
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process, phase_reminders_sweep
from dipserver.games.services.press import message_send
from dipserver.games.tasks import notification_send
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.services import webhook_create
from dipserver.webhooks.signature import signature_valid
from dipserver.webhooks.tasks import webhook_deliver
from tests.server.conftest import START, seat, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db):
    return [get_user_model().objects.create(username=f"player{i}") for i in range(7)]


def start(players, capture, **options) -> Game:
    with capture(execute=True):
        return started_game(players, **options)


def test_a_players_hook_hears_the_game_start_signed_with_its_secret(
    players, receiver, django_capture_on_commit_callbacks
):
    _, secret = webhook_create(owner=players[0], url=receiver.url)

    start(players, django_capture_on_commit_callbacks)

    (request,) = receiver.received
    headers = request.headers
    assert signature_valid(
        secret, headers["X-Dipserver-Timestamp"], request.body, headers["X-Dipserver-Signature"]
    )
    assert not signature_valid(
        "whsec_other", headers["X-Dipserver-Timestamp"], request.body, headers["X-Dipserver-Signature"]
    )
    body = request.json
    assert body["event"] == "game_started" == headers["X-Dipserver-Event"]
    for message in (body["content"], body["text"]):  # Discord's, Slack's
        assert "The game has started" in message and "You play" in message
    assert body["game"]["name"] == "Test game"
    assert headers["X-Dipserver-Delivery"] == body["delivery"]


def test_a_delivery_answered_500_is_tried_again_and_logged(
    players, receiver, django_capture_on_commit_callbacks, celery_conf
):
    celery_conf(task_eager_propagates=False)  # eager retries then run at once, as a worker's would
    hook, _ = webhook_create(owner=players[0], url=receiver.url)
    receiver.answers = [500]

    start(players, django_capture_on_commit_callbacks)

    assert len(receiver.received) == 2
    assert receiver.received[0].body == receiver.received[1].body
    delivery = Delivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 2, 200)


def test_an_event_announced_twice_is_delivered_once(players, receiver, django_capture_on_commit_callbacks):
    webhook_create(owner=players[0], url=receiver.url)
    game = start(players, django_capture_on_commit_callbacks)

    notification_send("game_started_send", {"game_id": game.id})

    assert len(receiver.received) == 1


def test_a_delivered_delivery_run_again_sends_nothing(players, receiver, django_capture_on_commit_callbacks):
    hook, _ = webhook_create(owner=players[0], url=receiver.url)
    start(players, django_capture_on_commit_callbacks)

    webhook_deliver(Delivery.objects.get(webhook=hook).id)

    assert len(receiver.received) == 1


def test_a_receiver_that_keeps_failing_is_given_up_with_its_last_error(
    players, receiver, django_capture_on_commit_callbacks, celery_conf
):
    celery_conf(task_eager_propagates=False)  # eager retries then run at once, as a worker's would
    hook, _ = webhook_create(owner=players[0], url=receiver.url)
    receiver.answers = [503] * 20

    start(players, django_capture_on_commit_callbacks)

    delivery = Delivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("failed", 8, 503)
    assert delivery.last_error.startswith("HTTP 503")


def test_a_refusal_from_the_receiver_is_not_tried_again(
    players, receiver, django_capture_on_commit_callbacks
):
    hook, _ = webhook_create(owner=players[0], url=receiver.url)
    receiver.answers = [404]

    start(players, django_capture_on_commit_callbacks)

    assert len(receiver.received) == 1
    assert Delivery.objects.get(webhook=hook).status == "failed"


def test_a_hook_on_one_game_hears_nothing_of_another(players, receiver, django_capture_on_commit_callbacks):
    first = start(players, django_capture_on_commit_callbacks)
    webhook_create(owner=players[0], url=receiver.url, game_id=first.id)

    start(players, django_capture_on_commit_callbacks)

    assert receiver.received == []


def test_anonymous_press_reaches_a_hook_without_its_sender(
    players, receiver, django_capture_on_commit_callbacks
):
    game = start(players, django_capture_on_commit_callbacks, press="anonymous")
    england, france = seat(game, "ENGLAND"), seat(game, "FRANCE")
    webhook_create(owner=france.user, url=receiver.url, game_id=game.id)

    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england.user, body="Trust me", recipients=["FRANCE"])

    (body,) = receiver.bodies()
    assert body["event"] == "press"
    assert body["facts"]["sender"] is None
    assert "England" not in body["content"] and "ENGLAND" not in str(body)
    assert "Trust me" in body["content"]


def test_a_game_masters_hook_hears_public_press_but_not_private(
    players, receiver, django_capture_on_commit_callbacks
):
    master = get_user_model().objects.create(username="master")
    game = start(players, django_capture_on_commit_callbacks)
    game.masters.add(master)
    hook, _ = webhook_create(owner=master, url=receiver.url, game_id=game.id)
    assert hook.view == Webhook.View.GAME
    england = seat(game, "ENGLAND").user

    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england, body="Secret plan", recipients=["FRANCE"])
        message_send(game_id=game.id, user=england, body="Hello all")

    (body,) = receiver.bodies()
    assert "Hello all" in body["content"]


def test_a_hook_hears_the_end_of_its_game(players, receiver, django_capture_on_commit_callbacks):
    game = start(players, django_capture_on_commit_callbacks, variant="standard")
    webhook_create(owner=players[0], url=receiver.url, kinds=["game_ended"])

    winner = game.powers.get(user=players[0]).name
    with django_capture_on_commit_callbacks(execute=True):
        for user in players[1:]:
            game_concede(game_id=game.id, user=user, to=winner)

    (body,) = receiver.bodies()
    assert body["event"] == "game_ended"
    assert "is over" in body["content"]


def test_muted_events_reach_no_hook(players, receiver, django_capture_on_commit_callbacks):
    webhook_create(owner=players[0], url=receiver.url)

    with notifications.notifications_muted():
        start(players, django_capture_on_commit_callbacks)

    assert receiver.received == []


def test_a_hook_hears_the_phase_results_and_whether_its_owner_must_order(
    players, receiver, django_capture_on_commit_callbacks
):
    game = start(players, django_capture_on_commit_callbacks)
    england = seat(game, "ENGLAND")
    webhook_create(owner=england.user, url=receiver.url, kinds=["phase_processed"])
    orders_submit(game_id=game.id, user=england.user, text="F LON - NTH", now=START)

    with django_capture_on_commit_callbacks(execute=True):
        later = START + dt.timedelta(days=2)
        assert phase_process(phase_id=game.current_phase_id, now=later) == Processed.DONE

    (body,) = receiver.bodies()
    assert body["event"] == "phase_processed"
    assert body["facts"]["phase"] == "S1901M" and body["facts"]["next_phase"] == "F1901M"
    assert body["facts"]["to_order"] is True and "Your orders are due" in body["content"]


def test_a_hook_hears_the_deadline_reminder_of_a_power_that_has_not_ordered(
    players, receiver, django_capture_on_commit_callbacks
):
    game = start(players, django_capture_on_commit_callbacks)
    france = seat(game, "FRANCE")
    webhook_create(owner=france.user, url=receiver.url)

    with django_capture_on_commit_callbacks(execute=True):
        phase_reminders_sweep(now=game.current_phase.deadline - dt.timedelta(hours=2))

    (body,) = receiver.bodies()
    assert body["event"] == "deadline_reminder" and body["facts"]["power"] == "FRANCE"


def test_the_sweep_sends_a_delivery_whose_task_message_was_lost(players, receiver):
    from dipserver.webhooks.tasks import webhooks_sweep

    hook, _ = webhook_create(owner=players[0], url=receiver.url)
    lost = Delivery.objects.create(webhook=hook, key="lost", kind="press", payload={"content": "late"})
    fresh = Delivery.objects.create(webhook=hook, key="fresh", kind="press", payload={"content": "queued"})
    Delivery.objects.filter(id=lost.id).update(created_at=lost.created_at - dt.timedelta(minutes=11))

    assert webhooks_sweep() == 1

    assert receiver.bodies() == [{"content": "late"}]
    assert Delivery.objects.get(id=lost.id).status == "delivered"
    assert Delivery.objects.get(id=fresh.id).status == "pending"


def test_a_hooks_url_with_its_secret_token_stays_out_of_the_logs(players, receiver, caplog):
    secret_url = receiver.url + "/123456/the-secret-token"
    hook, _ = webhook_create(owner=players[0], url=secret_url)
    delivery = Delivery.objects.create(webhook=hook, key="logged", kind="press", payload={"n": 1})

    with caplog.at_level("DEBUG", logger="celery"):
        webhook_deliver(delivery.id)

    assert len(receiver.received) == 1
    assert "the-secret-token" not in caplog.text


def test_an_events_deliveries_go_to_the_broker_as_one_task(
    players, receiver, django_capture_on_commit_callbacks, monkeypatch
):
    from dipserver.webhooks import receivers, tasks

    queued: list[list[int]] = []
    monkeypatch.setattr(receivers.webhooks_deliver, "delay_on_commit", queued.append)
    hooks = [webhook_create(owner=player, url=receiver.url)[0] for player in players[:3]]

    start(players, django_capture_on_commit_callbacks)

    (ids,) = queued  # one message for the three deliveries
    assert sorted(Delivery.objects.get(id=i).webhook_id for i in ids) == [h.id for h in hooks]
    assert tasks.webhooks_deliver(ids) == 3
    assert len(receiver.received) == 3
