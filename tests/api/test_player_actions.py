"""What a player does besides ordering, and what a spectator may read: vacation days (the deadline waits
for a player who is away), leaving before the start, and public press for anyone."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.phases import phase_process
from dipserver.games.services.powers import power_vacation_take
from dipserver.games.services.press import message_send
from tests.api.conftest import client_for, start_game, user_of

pytestmark = pytest.mark.django_db


def test_vacation_moves_the_deadline_and_spends_the_allowance(players, master):
    game = start_game(players, master, vacation_days=3)
    deadline = game.current_phase.deadline
    england = client_for(user_of(game, "ENGLAND"))
    answer = england.post(f"/api/v1/games/{game.id}/vacation", {"days": 2}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["days_left"] == 1
    assert dt.datetime.fromisoformat(body["deadline"]) == deadline + dt.timedelta(days=2)
    me = england.get(f"/api/v1/games/{game.id}").json()
    assert (me["vacation_days"], me["me"]["vacation_days_left"]) == (3, 1)
    assert me["me"]["away_until"] == body["away_until"]
    refused = england.post(f"/api/v1/games/{game.id}/vacation", {"days": 2}, format="json")
    assert refused.status_code == 422 and "1 vacation day" in refused.json()["error"]["message"]


def test_vacation_is_for_players_only(players, master, outsider):
    game = start_game(players, master, vacation_days=3)
    assert client_for().post(f"/api/v1/games/{game.id}/vacation", {"days": 1}).status_code == 401
    assert client_for(outsider).post(f"/api/v1/games/{game.id}/vacation", {"days": 1}).status_code == 403
    zero = client_for(user_of(game, "FRANCE")).post(f"/api/v1/games/{game.id}/vacation", {"days": 0})
    assert zero.status_code == 400


def test_a_phase_that_opens_during_a_vacation_is_due_no_earlier_than_the_return(players, master):
    game = start_game(players, master, vacation_days=10, phase_minutes={"M": 60, "R": 60, "A": 60})
    now = game.current_phase.deadline - dt.timedelta(minutes=30)
    power_vacation_take(game_id=game.id, user=user_of(game, "ITALY"), days=5, now=now)
    back = Power.objects.get(game=game, name="ITALY").away_until
    assert back == now + dt.timedelta(days=5)
    phase = Phase.objects.get(id=game.current_phase_id)
    phase_process(phase_id=phase.id, now=now + dt.timedelta(hours=1), force=True)  # all ordered early
    game.refresh_from_db()
    assert game.current_phase.index == 1 and game.current_phase.deadline == back


def test_leaving_before_the_start_frees_the_seat_and_is_refused_after(players, master):
    forming = game_create(name="Forming", variant="standard", masters=[master])
    game_join(game_id=forming.id, user=players[0])
    left = client_for(players[0]).post(f"/api/v1/games/{forming.id}/leave")
    assert left.status_code == 204 and not forming.powers.exists()
    game = start_game(players, master)
    late = client_for(user_of(game, "ENGLAND")).post(f"/api/v1/games/{game.id}/leave")
    assert late.status_code == 409 and late.json()["error"]["code"] == "already_started"


def test_anyone_reads_public_press_and_never_private_press(players, master):
    game = start_game(players, master)
    message_send(game_id=game.id, user=user_of(game, "ENGLAND"), body="Hello all", recipients=[])
    message_send(game_id=game.id, user=user_of(game, "ENGLAND"), body="Secret", recipients=["FRANCE"])
    answer = client_for().get(f"/api/v1/games/{game.id}/press/public")
    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert [(m["body"], m["sender"], m["channel"]) for m in rows] == [("Hello all", "ENGLAND", "public")]
    assert rows[0]["sent_at"]
    newer = client_for().get(f"/api/v1/games/{game.id}/press/public", {"since": rows[0]["id"]})
    assert newer.json()["results"] == []


def test_public_press_in_an_anonymous_game_names_no_sender(players, master):
    game = start_game(players, master, press=Game.Press.ANONYMOUS)
    message_send(game_id=game.id, user=user_of(game, "TURKEY"), body="Who am I", recipients=[])
    rows = client_for().get(f"/api/v1/games/{game.id}/press/public").json()["results"]
    assert [(m["body"], m["sender"]) for m in rows] == [("Who am I", None)]
    detail = client_for().get(f"/api/v1/games/{game.id}").json()
    assert {p["player"] for p in detail["powers"]} == {None}
