"""Absent values are ``null`` in every answer, never an empty string: a client tests one thing."""

from __future__ import annotations

from typing import Any

import pytest

from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.phases import phase_process
from tests.api.conftest import client_for, start_game, user_of

pytestmark = pytest.mark.django_db


def _empty_strings(value: Any, where: str = "") -> list[str]:
    if value == "":
        return [where]
    if isinstance(value, dict):
        return [path for key, item in value.items() for path in _empty_strings(item, f"{where}.{key}")]
    if isinstance(value, list):
        return [path for i, item in enumerate(value) for path in _empty_strings(item, f"{where}[{i}]")]
    return []


def test_a_forming_game_answers_null_for_its_unassigned_powers_and_result(players, master):
    game = game_create(name="Forming", variant="standard", masters=[master])
    game_join(game_id=game.id, user=players[0])
    detail = client_for(players[0]).get(f"/api/v1/games/{game.id}").json()
    assert _empty_strings(detail) == []
    assert detail["powers"][0]["power"] is None and detail["result"] is None
    assert detail["me"]["concede_to"] is None


def test_a_game_in_play_answers_null_where_nothing_is_there(game):
    detail = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}").json()
    assert _empty_strings(detail) == []
    assert detail["result"] is None and detail["me"]["concede_to"] is None


def test_order_results_answer_null_for_the_reason_of_a_valid_order_and_the_form_of_a_rejected_one(game):
    france = client_for(user_of(game, "FRANCE"))
    body = {"phase": "S1901M", "orders": ["A PAR H", "A BUR H"]}
    answer = france.put(f"/api/v1/games/{game.id}/orders", body, format="json").json()
    assert _empty_strings(answer) == []
    valid, rejected = answer["error"]["orders"]
    assert valid["reason"] is None and rejected["normalised"] is None and rejected["reason"]
    assert _empty_strings(france.get(f"/api/v1/games/{game.id}/orders").json()) == []


def test_a_processed_phase_answers_null_for_the_reason_of_an_order_that_succeeded(game):
    france = client_for(user_of(game, "FRANCE"))
    france.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR - BUR"]}, format="json"
    )
    phase_process(phase_id=game.current_phase_id, force=True)
    phase = client_for().get(f"/api/v1/games/{game.id}/phases/0").json()
    assert _empty_strings(phase) == []
    moved = next(r for r in phase["results"] if r["order"] == "A PAR - BUR")
    assert moved["outcome"] == "success" and moved["reason"] is None


def test_the_press_answers_null_for_a_sender_it_hides_never_an_empty_string(players, master):
    game = start_game(players, master, press="anonymous")
    client_for(user_of(game, "FRANCE")).post(
        f"/api/v1/games/{game.id}/messages", {"body": "Hello all"}, format="json"
    )
    england = client_for(user_of(game, "ENGLAND"))
    answers = [
        england.get(f"/api/v1/games/{game.id}/messages").json(),
        england.get(f"/api/v1/games/{game.id}/channels").json(),
        client_for().get(f"/api/v1/games/{game.id}/press/public").json(),
    ]
    assert [_empty_strings(answer) for answer in answers] == [[], [], []]
    assert answers[0]["results"][0]["sender"] is None


def test_an_account_without_an_address_answers_null_for_it(outsider):
    """The account's own answers: no confirmed or pending address is null, never ""."""
    me = client_for(outsider)
    answers = [me.get("/api/v1/accounts/me").json(), me.get("/api/v1/accounts/settings").json()]
    assert [_empty_strings(answer) for answer in answers] == [[], []]
    assert [(a["email"], a["email_pending"]) for a in answers] == [(None, None), (None, None)]
    signed_up = client_for().post(
        "/api/v1/accounts/register", {"username": "nomail", "password": "correct horse 9"}
    )
    assert signed_up.status_code == 201 and signed_up.json()["email_pending"] is None


def test_a_variant_with_its_drawing_answers_null_for_the_problem(db):
    shown = client_for().get("/api/v1/variants/standard").json()
    assert shown["geometry"] is not None and shown["geometry_problem"] is None
    assert _empty_strings(shown) == []


READS = [
    "/api/v1/accounts/tokens",
    "/api/v1/notifications",
    "/api/v1/notifications/unread",
    "/api/v1/webhooks",
    "/api/v1/variants",
    "/api/v1/games",
    "/api/v1/games/{g}/phases",
    "/api/v1/games/{g}/phases/0",
    "/api/v1/games/{g}/timeline",
    "/api/v1/games/{g}/options",
    "/api/v1/games/{g}/channels",
]


@pytest.mark.parametrize("path", READS)
def test_every_read_of_a_game_in_play_answers_null_never_an_empty_string(game, path):
    answer = client_for(user_of(game, "FRANCE")).get(path.format(g=game.id))
    assert answer.status_code == 200, answer.content[:300]
    assert _empty_strings(answer.json()) == []
