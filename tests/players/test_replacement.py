"""Replacing a player: a power in civil disorder is an open seat in the lobby; a volunteer takes it (or
asks, where a master approves), inherits the power and the press it could read (all of it unread), and
has at least the game's grace period before the open phase's deadline."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games import selectors
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power, SeatRequest, Tenure
from dipserver.games.services.powers import power_civil_disorder_set
from dipserver.games.services.press import message_send, press_mark_read
from dipserver.games.services.seats import seat_request_approve, seat_request_decline, seat_take
from dipserver.notices.models import Notification
from tests.factories import UserFactory
from tests.players.conftest import play, seat, started_game

ALL = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name='t')[1]}")
    return client


def gone(game: Game, name: str = "FRANCE") -> Power:
    """``name`` falls into civil disorder by missing the game's limit of phases (two) in a row."""
    others = [p for p in ALL if p != name]
    play(game, others)
    play(game, others)
    return seat(game, name)


def test_a_power_that_missed_the_limit_is_an_open_seat_in_the_lobby(users):
    game = started_game(users, missed_limit=2)
    france = gone(game)

    assert france.status == Power.Status.CIVIL_DISORDER and france.seat_open
    assert [s.id for s in selectors.open_seats(exclude_user=users[8])] == [france.id]
    assert selectors.open_seats(exclude_user=users[0]) == []  # a player of that game
    assert APIClient().get("/api/v1/seats/open").json()[0]["power"] == "FRANCE"


def test_a_volunteer_takes_an_open_seat_and_holds_it_from_the_open_phase(users):
    game = started_game(users)
    france = gone(game)

    taken = seat_take(power_id=france.id, user=users[8])

    assert (taken.user, taken.status, taken.seat_open, taken.missed_phases) == (
        users[8], Power.Status.ACTIVE, False, 0
    )  # fmt: skip
    game.refresh_from_db()
    assert Tenure.objects.get(power=france, user=users[8]).from_index == game.current_phase.index


def test_the_newcomer_has_at_least_the_grace_period_before_the_deadline(users):
    game = started_game(users, replacement_grace_minutes=600)
    france = gone(game)
    game.refresh_from_db()
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() + dt.timedelta(minutes=5))
    now = timezone.now()

    seat_take(power_id=france.id, user=users[8], now=now)

    assert Phase.objects.get(id=game.current_phase_id).deadline == now + dt.timedelta(minutes=600)


def test_a_deadline_already_further_than_the_grace_period_stays(users):
    game = started_game(users, replacement_grace_minutes=10)
    france = gone(game)
    game.refresh_from_db()
    later = timezone.now() + dt.timedelta(days=3)
    Phase.objects.filter(id=game.current_phase_id).update(deadline=later)

    seat_take(power_id=france.id, user=users[8])

    assert Phase.objects.get(id=game.current_phase_id).deadline == later


def test_the_newcomer_reads_the_press_the_power_could_read_and_no_other(users):
    game = started_game(users)

    def send(name: str, body: str, to: tuple[str, ...] | list[str] = ()) -> None:
        message_send(game_id=game.id, user=seat(game, name).user, body=body, recipients=to)

    send("ENGLAND", "to France", ["FRANCE"])
    send("FRANCE", "from France", ["GERMANY"])
    send("ENGLAND", "to Germany only", ["GERMANY"])
    send("ITALY", "to everyone")
    press_mark_read(game_id=game.id, user=seat(game, "FRANCE").user, channel="ENGLAND")
    power_civil_disorder_set(power_id=seat(game, "FRANCE").id)

    seat_take(power_id=seat(game, "FRANCE").id, user=users[8])

    read = api(users[8]).get(f"/api/v1/games/{game.id}/messages").json()
    bodies = {m["body"] for m in read["results"]}
    assert bodies == {"to France", "from France", "to everyone"}
    channels = api(users[8]).get(f"/api/v1/games/{game.id}/channels").json()
    assert {c["id"]: c["unread"] for c in channels}["ENGLAND"] == 1  # none of it read by the newcomer


def test_where_a_master_approves_a_volunteer_only_asks(users):
    master = UserFactory()
    game = started_game(users, masters=[master], replacement_approval=True)
    france = gone(game)

    asked = seat_take(power_id=france.id, user=users[8])

    assert isinstance(asked, SeatRequest) and seat(game, "FRANCE").user_id == france.user_id
    assert seat(game, "FRANCE").seat_open
    assert seat_request_approve(request_id=asked.id).user == users[8]
    assert not SeatRequest.objects.exists()


def test_a_declined_request_leaves_the_seat_open(users):
    game = started_game(users, replacement_approval=True)
    france = gone(game)
    asked = seat_take(power_id=france.id, user=users[8])

    seat_request_decline(request_id=asked.id)

    assert seat(game, "FRANCE").seat_open and not SeatRequest.objects.exists()


def test_a_master_takes_an_open_seat_of_their_game_without_asking(users):
    master = UserFactory()
    game = started_game(users, masters=[master], replacement_approval=True)
    france = gone(game)

    assert seat_take(power_id=france.id, user=master).user == master


def test_a_seat_not_offered_is_refused_with_its_code(users):
    game = started_game(users)

    with pytest.raises(GameError) as refused:
        seat_take(power_id=seat(game, "FRANCE").id, user=users[8])

    assert refused.value.code == "seat_not_open"


def test_the_api_takes_a_seat_or_files_a_request_for_the_master(users):
    master = UserFactory()
    game = started_game(users, masters=[master], replacement_approval=True)
    france = gone(game)

    asked = api(users[8]).post(f"/api/v1/games/{game.id}/seats/{france.id}/take")
    listed = api(master).get(f"/api/v1/games/{game.id}/seat-requests").json()
    refused = api(users[1]).post(f"/api/v1/games/{game.id}/seat-requests/{listed[0]['id']}/approve")
    approved = api(master).post(f"/api/v1/games/{game.id}/seat-requests/{listed[0]['id']}/approve")

    assert asked.status_code == 202 and listed[0]["username"] == users[8].username
    assert refused.status_code == 403
    assert approved.status_code == 200 and seat(game, "FRANCE").user == users[8]


def test_the_api_refuses_a_seat_that_is_not_open_with_409(users):
    game = started_game(users)

    answer = api(users[8]).post(f"/api/v1/games/{game.id}/seats/{seat(game, 'FRANCE').id}/take")

    assert answer.status_code == 409 and answer.json()["error"]["code"] == "seat_not_open"


def test_the_lobby_offers_open_seats_and_taking_one_leads_to_the_game(users):
    game = started_game(users)
    france = gone(game)
    client = Client()
    client.force_login(users[8])

    lobby = client.get("/games/").content.decode()
    answer = client.post(f"/games/{game.id}/seats/{france.id}/take/")

    assert f'data-seat="{france.id}"' in lobby and "Take this seat" in lobby
    assert answer["Location"] == f"/games/{game.id}/" and seat(game, "FRANCE").user == users[8]


def test_a_master_approves_from_the_lobby(users):
    master = UserFactory()
    game = started_game(users, masters=[master], replacement_approval=True)
    asked = seat_take(power_id=gone(game).id, user=users[8])
    client = Client()
    client.force_login(master)

    assert "asks for France" in client.get("/games/").content.decode()
    client.post(f"/seat-requests/{asked.id}/", {"approve": "1"})

    assert seat(game, "FRANCE").user == users[8]


def test_the_game_is_told_who_took_the_seat(users, django_capture_on_commit_callbacks):
    game = started_game(users)
    france = gone(game)

    with django_capture_on_commit_callbacks(execute=True):
        seat_take(power_id=france.id, user=users[8])

    told = {n.user_id: n.text for n in Notification.objects.filter(game=game, kind="seat_taken")}
    assert told[seat(game, "ENGLAND").user_id] == f"{users[8].username} has taken over France."
    assert told[users[8].id].startswith("You play France now")
    assert len(told) == 7


def test_an_anonymous_game_is_told_without_the_newcomers_name(users, django_capture_on_commit_callbacks):
    game = started_game(users, press=Game.Press.ANONYMOUS)
    france = gone(game)

    with django_capture_on_commit_callbacks(execute=True):
        seat_take(power_id=france.id, user=users[8])

    told = Notification.objects.get(game=game, kind="seat_taken", user=seat(game, "ENGLAND").user)
    assert told.text == "A new player has taken over France." and users[8].username not in told.title
