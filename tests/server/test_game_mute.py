"""Muting a game: a player (or game master) who mutes it gets no mail and nothing in the inbox from it,
whatever their mail switches say, until they unmute it; their other games and the other players are not
affected. Through the services (the API's and the page's are in tests/api and tests/web, webhooks' in
tests/webhooks)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.accounts.models import NotificationPreferences
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.press_digest import press_digests_send
from dipserver.games.services.mutes import game_mute
from dipserver.games.services.phases import Processed, phase_process
from dipserver.games.services.phases import phase_reminders_sweep as reminders_sweep
from dipserver.games.services.press import message_send
from dipserver.mail.models import Mail
from dipserver.notices.models import Notification
from tests.server.conftest import START, seat, started_game

pytestmark = pytest.mark.django_db
LATE = START + dt.timedelta(days=2)


@pytest.fixture
def game(users, django_capture_on_commit_callbacks) -> Game:
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(users)


def process(game: Game, capture) -> None:
    with capture(execute=True):
        phase_id = Game.objects.get(id=game.id).current_phase_id
        assert phase_process(phase_id=phase_id, now=LATE) == Processed.DONE


def mailed(kind: str) -> set[str]:
    return set(Mail.objects.filter(kind=kind).values_list("to", flat=True))


def noticed(kind: str) -> set[int]:
    return set(Notification.objects.filter(kind=kind).values_list("user_id", flat=True))


def test_a_muted_game_mails_its_results_to_everyone_but_the_player_who_muted_it(
    game, django_capture_on_commit_callbacks
):
    france = seat(game, "FRANCE").user
    assert game_mute(game_id=game.id, user=france, muted=True) is True
    process(game, django_capture_on_commit_callbacks)
    assert len(mailed("phase_processed")) == 6 and france.email not in mailed("phase_processed")


def test_a_muted_game_puts_nothing_in_the_players_inbox(game, django_capture_on_commit_callbacks):
    france = seat(game, "FRANCE").user
    game_mute(game_id=game.id, user=france, muted=True)
    process(game, django_capture_on_commit_callbacks)
    assert len(noticed("phase_processed")) == 6 and france.id not in noticed("phase_processed")


def test_muted_press_is_neither_mailed_nor_noticed(game, django_capture_on_commit_callbacks):
    france = seat(game, "FRANCE").user
    game_mute(game_id=game.id, user=france, muted=True)
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=seat(game, "ENGLAND").user, body="Hello", recipients=["FRANCE"])
    assert mailed("press") == set() and noticed("press") == set()


def test_a_muted_game_sends_no_deadline_reminder(game, django_capture_on_commit_callbacks):
    muted = [seat(game, name).user for name in ("FRANCE", "ITALY")]
    for user in muted:
        game_mute(game_id=game.id, user=user, muted=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_sweep(now=game.current_phase.deadline - dt.timedelta(hours=12)) == 1
    assert len(mailed("deadline_reminder")) == 5
    assert not {u.email for u in muted} & mailed("deadline_reminder")
    assert len(noticed("deadline_reminder")) == 5 and not {u.id for u in muted} & noticed("deadline_reminder")


def test_the_press_digest_leaves_out_a_muted_games_press(users, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        loud, quiet = started_game(users), started_game(users, name="Quiet game")
    france = seat(loud, "FRANCE").user
    NotificationPreferences.objects.create(user=france, press=NotificationPreferences.Press.DIGEST)
    game_mute(game_id=quiet.id, user=france, muted=True)
    with django_capture_on_commit_callbacks(execute=True):
        for game in (loud, quiet):
            germany = seat(game, "GERMANY").user
            message_send(game_id=game.id, user=germany, body=f"In {game.name}", recipients=[])
        assert press_digests_send(now=LATE) == 1
    body = Mail.objects.get(to=france.email, key__contains=":digest:").body
    assert "In Test game" in body and "Quiet game" not in body


def test_a_game_master_who_muted_the_game_gets_no_results(game, django_capture_on_commit_callbacks):
    master = get_user_model().objects.create(username="master", email="master@example.org")
    game.masters.add(master)
    game_mute(game_id=game.id, user=master, muted=True)
    process(game, django_capture_on_commit_callbacks)
    assert "master@example.org" not in mailed("phase_processed")


def test_muting_one_game_leaves_the_players_other_games_alone(users, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        loud, quiet = started_game(users), started_game(users, name="Quiet game")
    france = seat(loud, "FRANCE").user
    game_mute(game_id=quiet.id, user=france, muted=True)
    process(loud, django_capture_on_commit_callbacks)
    assert france.email in mailed("phase_processed") and france.id in noticed("phase_processed")


def test_an_unmuted_game_is_heard_again(game, django_capture_on_commit_callbacks):
    france = seat(game, "FRANCE").user
    game_mute(game_id=game.id, user=france, muted=True)
    assert game_mute(game_id=game.id, user=france, muted=False) is True
    assert Game.objects.get(id=game.id).muted_by == []
    process(game, django_capture_on_commit_callbacks)
    assert france.email in mailed("phase_processed") and france.id in noticed("phase_processed")


def test_muting_twice_changes_nothing(game):
    france, italy = seat(game, "FRANCE").user, seat(game, "ITALY").user
    assert game_mute(game_id=game.id, user=france, muted=True) is True
    assert game_mute(game_id=game.id, user=italy, muted=True) is True
    assert game_mute(game_id=game.id, user=france, muted=True) is False
    assert Game.objects.get(id=game.id).muted_by == sorted([france.id, italy.id])


def test_someone_who_neither_plays_nor_runs_the_game_cannot_mute_it(game, users):
    outsider = users[7]
    with pytest.raises(GameError) as refused:
        game_mute(game_id=game.id, user=outsider, muted=True)
    assert refused.value.code == "not_yours"
    assert Game.objects.get(id=game.id).muted_by == []
