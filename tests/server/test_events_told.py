"""A game's start, its end and press reach every channel (mail outbox, inbox, webhooks) even when their
task is lost between the commit and the broker: the event writes an ``Announcement`` row in its own
transaction, the task deletes it once every channel has its rows, and the sweep queues what is still
there once its time has passed. Telling twice tells nobody twice."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dipserver.games.models import Announcement, Game
from dipserver.games.notifications import notifications_muted
from dipserver.games.services.announcements import PUBLISH_WINDOW, REQUEUE_AFTER, announcements_due_sweep
from dipserver.games.services.games import game_create, game_draw_vote, game_join
from dipserver.games.services.press import message_send
from dipserver.games.tasks import notification_send
from dipserver.mail.models import Mail
from dipserver.notices.models import Notification
from dipserver.webhooks.models import Delivery, Webhook
from tests.server.conftest import START, seat

ENDED = START + dt.timedelta(days=3)
SENT = START + dt.timedelta(days=1)


@dataclass
class Event:
    name: str  # the sender that tells it
    ids: dict[str, int]
    game: Game
    at: dt.datetime  # when it happened
    kind: str  # of its mails, notices and deliveries
    readers: int  # the players it is told to (each one mail; the inbox and webhooks add the game's view)
    lost: list  # the on-commit callbacks that never reached the broker


@pytest.fixture
def players(db):
    return [get_user_model().objects.create(username=f"p{i}", email=f"p{i}@example.org") for i in range(8)]


def _hooks(players, game: Game) -> None:
    """Every player's hook, and the game master's (the game's public view)."""
    for player in players[:7]:
        Webhook.objects.create(owner=player, url="http://127.0.0.1:9/", secret="whsec_test")
    Webhook.objects.create(
        owner=players[7], game=game, view=Webhook.View.GAME, url="http://127.0.0.1:9/", secret="whsec_test"
    )


def _started(players, capture) -> tuple[Game, list]:
    game = game_create(name="Told game", variant="standard")
    for player in players[:6]:
        game_join(game_id=game.id, user=player, now=START)
    _hooks(players, game)
    with capture() as lost:
        game_join(game_id=game.id, user=players[6], now=START)  # the seventh starts the game
    game.refresh_from_db()
    return game, lost


def _tell(callbacks: list) -> None:
    """Run the tasks the callbacks queue (what they queue in turn, the deliveries, is never posted)."""
    for callback in callbacks:
        callback()


@pytest.fixture(params=["game_started", "game_ended", "press"])
def event(request, players, django_capture_on_commit_callbacks) -> Event:
    """The event, its task lost; each event before it was told."""
    game, lost = _started(players, django_capture_on_commit_callbacks)
    if request.param == "game_started":
        return Event("game_started_send", {"game_id": game.id}, game, START, "game_started", 7, lost)
    _tell(lost)
    if request.param == "game_ended":
        with django_capture_on_commit_callbacks() as lost:
            for player in players[:7]:
                game_draw_vote(game_id=game.id, user=player, vote=True, now=ENDED)
        return Event("game_ended_send", {"game_id": game.id}, game, ENDED, "game_ended", 7, lost)
    england = seat(game, "ENGLAND").user
    with django_capture_on_commit_callbacks() as lost:
        message = message_send(game_id=game.id, user=england, body="Hello all", now=SENT)
    return Event("press_send", {"message_id": message.id}, game, SENT, "press", 6, lost)


def _rows(event: Event) -> tuple[int, int, int]:
    """(mails, notices, webhook deliveries) of the event."""
    return (
        Mail.objects.filter(kind=event.kind).count(),
        Notification.objects.filter(kind=event.kind, game=event.game).count(),
        Delivery.objects.filter(kind=event.kind).count(),
    )


def _told_once(event: Event) -> tuple[int, int, int]:
    """What telling the event once stores: a mail and a notice per reader, a delivery per reader's hook and
    one for the game master's (the game's public view)."""
    return (event.readers, event.readers, event.readers + 1)


def test_a_lost_event_is_queued_again_once_its_publish_window_has_passed_and_told_once(
    event, django_capture_on_commit_callbacks
):
    """Its task never reached the broker (the process died after the commit): seconds, not minutes."""
    assert announcements_due_sweep(now=event.at + PUBLISH_WINDOW - dt.timedelta(seconds=1)) == []
    assert _rows(event) == (0, 0, 0)
    with django_capture_on_commit_callbacks() as again:
        assert announcements_due_sweep(now=event.at + PUBLISH_WINDOW) == [(event.name, event.ids)]
    _tell(again)
    assert _rows(event) == _told_once(event)
    assert not Announcement.objects.exists()
    assert announcements_due_sweep(now=event.at + 10 * REQUEUE_AFTER) == []


def test_an_event_whose_task_the_broker_has_is_queued_again_only_after_the_requeue_time(event):
    with mock.patch("dipserver.games.services.announcements.job_send"):  # the broker takes it, nobody runs it
        _tell(event.lost)
    published = timezone.now()
    assert announcements_due_sweep(now=published + REQUEUE_AFTER - dt.timedelta(seconds=2)) == []
    assert announcements_due_sweep(now=published + REQUEUE_AFTER + dt.timedelta(seconds=2)) == [
        (event.name, event.ids)
    ]


def test_a_told_event_is_not_queued_again(event):
    _tell(event.lost)
    assert _rows(event) == _told_once(event)
    assert not Announcement.objects.exists()
    assert announcements_due_sweep(now=event.at + 10 * REQUEUE_AFTER) == []


def test_an_event_told_twice_stores_no_row_twice(event):
    _tell(event.lost)
    notification_send(event.name, event.ids)  # a redelivered or requeued task
    assert _rows(event) == _told_once(event)


def test_an_event_queued_again_while_its_first_task_is_still_coming_is_told_once(
    event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as again:
        assert announcements_due_sweep(now=event.at + REQUEUE_AFTER) == [(event.name, event.ids)]
    _tell([*event.lost, *again])  # the first message was only slow: both arrive
    assert _rows(event) == _told_once(event)


def test_an_untold_event_queued_again_waits_its_time_before_the_next_try(event):
    assert announcements_due_sweep(now=event.at + REQUEUE_AFTER) == [(event.name, event.ids)]  # lost again
    assert announcements_due_sweep(now=event.at + 2 * REQUEUE_AFTER - dt.timedelta(seconds=1)) == []
    assert announcements_due_sweep(now=event.at + 2 * REQUEUE_AFTER) == [(event.name, event.ids)]


def test_an_untold_event_goes_with_its_game(event):
    event.game.delete()
    assert announcements_due_sweep(now=event.at + REQUEUE_AFTER) == []


def _sweep_queries(now: dt.datetime) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert announcements_due_sweep(now=now) == []
    return len(queries)


def test_a_sweep_with_nothing_untold_is_one_query(event):
    _tell(event.lost)
    assert _sweep_queries(event.at + 10 * REQUEUE_AFTER) == 1


def test_a_sweep_with_untold_events_not_yet_due_is_one_query(event):
    assert _sweep_queries(event.at) == 1


def test_an_event_while_notifications_are_muted_leaves_nothing_to_tell(players):
    game = game_create(name="Seeded game", variant="standard")
    with notifications_muted():
        for player in players[:7]:
            game_join(game_id=game.id, user=player, now=START)
    assert Game.objects.get(id=game.id).status == Game.Status.ACTIVE
    assert not Announcement.objects.exists()
