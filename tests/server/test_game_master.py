"""Game-master controls and the social side: pause, revert, replace, draws, concessions, vacations, press."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message, Phase, Power
from dipserver.games.selectors import messages_for
from dipserver.games.services.games import game_concede, game_draw_vote, game_pause, game_resume
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_dry_run, phase_process, phase_revert
from dipserver.games.services.powers import (
    power_civil_disorder_set,
    power_replace,
    power_seat_take,
    power_vacation_take,
)
from dipserver.games.services.press import message_send
from tests.server.conftest import START, seat, started_game

SOON = START + dt.timedelta(hours=1)
LATE = START + dt.timedelta(days=2)


def test_resuming_shifts_the_deadline_by_the_length_of_the_pause(game):
    deadline = game.current_phase.deadline
    game_pause(game_id=game.id, now=SOON)
    game_resume(game_id=game.id, now=SOON + dt.timedelta(hours=5))

    assert Phase.objects.get(id=game.current_phase_id).deadline == deadline + dt.timedelta(hours=5)
    with pytest.raises(GameError, match="is not paused"):
        game_resume(game_id=game.id)


def test_a_dry_run_shows_results_and_saves_nothing(game):
    orders_submit(game_id=game.id, user=seat(game, "FRANCE").user, text="A PAR - BUR", now=SOON)

    turn = phase_dry_run(game_id=game.id)

    assert turn.next_snapshot["phase"] == "F1901M"
    assert Phase.objects.filter(game=game).count() == 1
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.OPEN


def test_reverting_reopens_a_phase_and_replays_to_the_same_position(users):
    game = started_game(users, variant="wall_of_ice", options={"mode": "random"})
    when = LATE
    for _ in range(10):
        phase_process(phase_id=game.current_phase_id, now=when)
        game.refresh_from_db()
        when += dt.timedelta(days=2)
    before = Phase.objects.get(game=game, index=10).snapshot
    assert any(p.events for p in Phase.objects.filter(game=game, index__gte=2))  # the map did change

    phase_revert(game_id=game.id, index=2, now=when)
    game.refresh_from_db()
    assert game.current_phase.index == 2 and Phase.objects.filter(game=game).count() == 3
    for _ in range(8):
        when += dt.timedelta(days=2)
        assert phase_process(phase_id=game.current_phase_id, now=when) is Processed.DONE
        game.refresh_from_db()

    assert Phase.objects.get(game=game, index=10).snapshot == before


def test_a_seat_in_civil_disorder_can_be_given_to_a_replacement(game, users):
    france = seat(game, "FRANCE")
    power_civil_disorder_set(power_id=france.id)
    france.refresh_from_db()
    assert (france.status, france.seat_open) == (Power.Status.CIVIL_DISORDER, True)

    power_replace(power_id=france.id, user=users[7])

    france.refresh_from_db()
    assert (france.user, france.status, france.seat_open) == (users[7], Power.Status.ACTIVE, False)
    with pytest.raises(GameError, match="already plays another power"):
        power_replace(power_id=seat(game, "ITALY").id, user=users[7])


def test_a_draw_needs_every_survivor_and_stays_secret_until_then(game):
    names = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    for name in names[:-1]:
        assert game_draw_vote(game_id=game.id, user=seat(game, name).user, vote=True) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.winners == []

    assert game_draw_vote(game_id=game.id, user=seat(game, "TURKEY").user, vote=True) is True

    game.refresh_from_db()
    assert (game.status, game.result, sorted(game.winners)) == (Game.Status.FINISHED, Game.Result.DRAW, names)
    assert game.secret_revealed == game.secret


def test_when_all_others_concede_the_power_wins(game):
    for name in ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"]:
        game_concede(game_id=game.id, user=seat(game, name).user, to="turkey")
    game.refresh_from_db()
    assert (game.result, game.winners) == (Game.Result.CONCESSION, ["TURKEY"])
    with pytest.raises(GameError, match="not in play"):
        game_concede(game_id=game.id, user=seat(game, "TURKEY").user, to="AUSTRIA")


def test_vacation_days_move_the_deadline_and_run_out(users):
    game = started_game(users, vacation_days=3)
    england = seat(game, "ENGLAND")
    deadline = game.current_phase.deadline

    phase = power_vacation_take(game_id=game.id, user=england.user, days=2)

    assert phase.deadline == deadline + dt.timedelta(days=2)
    with pytest.raises(GameError, match="1 vacation day"):
        power_vacation_take(game_id=game.id, user=england.user, days=2)


def test_press_follows_the_game_setting(users, django_capture_on_commit_callbacks):
    game = started_game(users, press="public")
    england = seat(game, "ENGLAND")
    with pytest.raises(GameError, match="public press only"):
        message_send(game_id=game.id, user=england.user, body="psst", recipients=["FRANCE"])
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england.user, body="Hello Europe")
    assert len(mail.outbox) == 6
    Game.objects.filter(id=game.id).update(press="gunboat")
    with pytest.raises(GameError, match="gunboat"):
        message_send(game_id=game.id, user=england.user, body="hi")


def test_private_press_reaches_only_its_recipients_and_anonymous_press_hides_the_sender(users):
    game = started_game(users, press="anonymous")
    message_send(game_id=game.id, user=seat(game, "ENGLAND").user, body="Ally?", recipients=["france"])

    assert messages_for(game=game, power=seat(game, "FRANCE")) == [
        {"phase": "S1901M", "from": "", "to": ["FRANCE"], "body": "Ally?"}
    ]
    assert messages_for(game=game, power=seat(game, "GERMANY")) == []
    assert Message.objects.get().sender == seat(game, "ENGLAND")


def test_a_volunteer_may_take_only_an_offered_seat(game, users):
    france = seat(game, "FRANCE")
    with pytest.raises(GameError, match="not looking for a new player"):
        power_seat_take(power_id=france.id, user=users[7])
    power_civil_disorder_set(power_id=france.id)

    power_seat_take(power_id=france.id, user=users[7])

    assert seat(game, "FRANCE").user == users[7]
