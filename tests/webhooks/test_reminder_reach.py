"""The deadline reminder reaches every player who still has to order, through each channel they have:
the sweep chooses by who must act, not by who has an address, and announces once per player and phase."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_reminders_sweep
from dipserver.mail.models import Mail
from dipserver.notices.models import Notification
from dipserver.webhooks.models import Delivery
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import START, seat, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db, django_capture_on_commit_callbacks) -> Game:
    players = [get_user_model().objects.create(username=f"player{i}") for i in range(7)]  # no addresses
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(players)


def sweep(game: Game, capture, hours_before: float) -> int:
    with capture(execute=True):
        return phase_reminders_sweep(now=game.current_phase.deadline - dt.timedelta(hours=hours_before))


def reminders_in_inbox(user) -> int:
    return Notification.objects.filter(user=user, kind=Mail.Kind.DEADLINE_REMINDER).count()


def test_a_player_without_an_address_gets_the_inbox_notice_and_the_webhook(
    game, receiver, django_capture_on_commit_callbacks
):
    france = seat(game, "FRANCE").user
    webhook_create(owner=france, url=receiver.url)

    assert sweep(game, django_capture_on_commit_callbacks, 2) == 1

    assert reminders_in_inbox(france) == 1
    (body,) = receiver.bodies()
    assert body["event"] == "deadline_reminder" and body["facts"]["power"] == "FRANCE"
    assert not Mail.objects.filter(kind=Mail.Kind.DEADLINE_REMINDER).exists()  # no address, no mail


def test_a_second_sweep_reminds_nobody_again(game, receiver, django_capture_on_commit_callbacks):
    france = seat(game, "FRANCE").user
    webhook_create(owner=france, url=receiver.url)
    sweep(game, django_capture_on_commit_callbacks, 3)

    assert sweep(game, django_capture_on_commit_callbacks, 2) == 0
    assert sweep(game, django_capture_on_commit_callbacks, 1) == 0

    assert len(receiver.received) == 1 and Delivery.objects.count() == 1
    assert all(reminders_in_inbox(s.user) == 1 for s in game.powers.exclude(user=None))


def test_a_player_who_has_ordered_gets_no_reminder(game, receiver, django_capture_on_commit_callbacks):
    england = seat(game, "ENGLAND").user
    webhook_create(owner=england, url=receiver.url)
    orders_submit(game_id=game.id, user=england, text="F LON H\nF EDI H\nA LVP H", now=START)  # every unit

    sweep(game, django_capture_on_commit_callbacks, 2)

    assert reminders_in_inbox(england) == 0
    assert receiver.received == []
    assert reminders_in_inbox(seat(game, "FRANCE").user) == 1


def test_a_player_with_some_units_ordered_finds_how_many_in_the_inbox(
    game, django_capture_on_commit_callbacks
):
    england = seat(game, "ENGLAND").user
    orders_submit(game_id=game.id, user=england, text="F LON H\nA LVP H", now=START)

    sweep(game, django_capture_on_commit_callbacks, 2)

    (notice,) = Notification.objects.filter(user=england, kind=Mail.Kind.DEADLINE_REMINDER)
    assert notice.title.endswith("the deadline is near, 2 of 3 units have orders")
    france = Notification.objects.get(user=seat(game, "FRANCE").user, kind=Mail.Kind.DEADLINE_REMINDER)
    assert france.title.endswith("the deadline is near, no orders yet")


def test_a_player_who_switched_reminder_mails_off_still_finds_the_reminder_in_the_inbox(
    game, django_capture_on_commit_callbacks
):
    from dipserver.accounts.models import NotificationPreferences

    italy = seat(game, "ITALY").user
    italy.email = "italy@example.org"
    italy.save(update_fields=["email"])
    NotificationPreferences.objects.create(user=italy, deadline_reminder=False)

    sweep(game, django_capture_on_commit_callbacks, 2)

    assert reminders_in_inbox(italy) == 1
    assert not Mail.objects.filter(user=italy, kind=Mail.Kind.DEADLINE_REMINDER).exists()
