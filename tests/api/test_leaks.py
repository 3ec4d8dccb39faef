"""No leaks: other powers' orders before processing, press not addressed to you, players of anonymous
games, secret draw votes, and the random secret before the game ends."""

from __future__ import annotations

import pytest

from dipserver.games.services.games import game_finish
from tests.api.conftest import client_for, start_game, user_of

pytestmark = pytest.mark.django_db


def _order(game, power, *orders):
    answer = client_for(user_of(game, power)).put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": list(orders)}, format="json"
    )
    assert answer.status_code == 200, answer.json()


def test_an_open_phase_shows_each_power_only_its_own_orders(game, master, outsider):
    _order(game, "FRANCE", "A PAR - BUR")
    _order(game, "GERMANY", "A MUN - BUR")
    path = f"/api/v1/games/{game.id}/phases/0"
    assert client_for(user_of(game, "FRANCE")).get(path).json()["orders"] == {"FRANCE": ["A PAR - BUR"]}
    assert client_for(user_of(game, "GERMANY")).get(path).json()["orders"] == {"GERMANY": ["A MUN - BUR"]}
    for viewer in (None, outsider, master, user_of(game, "ENGLAND")):
        assert client_for(viewer).get(path).json()["orders"] == {}


def test_press_reaches_only_its_addressees(game):
    england = client_for(user_of(game, "ENGLAND"))
    sent = england.post(f"/api/v1/games/{game.id}/messages", {"body": "Channel?", "recipients": ["FRANCE"]})
    assert sent.status_code == 201
    england.post(f"/api/v1/games/{game.id}/messages", {"body": "Hello, Europe"})

    germany = client_for(user_of(game, "GERMANY")).get(f"/api/v1/games/{game.id}/messages").json()
    assert [m["body"] for m in germany["results"]] == ["Hello, Europe"]
    france = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/messages").json()
    assert [(m["body"], m["channel"]) for m in france["results"]] == [
        ("Channel?", "ENGLAND"),
        ("Hello, Europe", "public"),
    ]
    unread = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/channels").json()
    assert {c["id"]: c["unread"] for c in unread if c["unread"]} == {"ENGLAND": 1, "public": 1}
    last = france["results"][-1]["id"]
    later = (
        client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/channels", {"since": last}).json()
    )
    assert all(c["unread"] == 0 for c in later)


def test_anonymous_games_hide_players_and_senders_until_the_end(players, master, outsider):
    game = start_game(players, master, press="anonymous")
    detail = client_for(outsider).get(f"/api/v1/games/{game.id}").json()
    assert {p["player"] for p in detail["powers"]} == {None}
    mine = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}").json()
    assert [p["player"] for p in mine["powers"] if p["player"]] == [user_of(game, "FRANCE").username]
    assert all(p["player"] for p in client_for(master).get(f"/api/v1/games/{game.id}").json()["powers"])

    client_for(user_of(game, "ENGLAND")).post(
        f"/api/v1/games/{game.id}/messages", {"body": "Guess who", "recipients": ["FRANCE"]}
    )
    got = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}/messages").json()["results"]
    assert (got[0]["sender"], got[0]["body"]) == (None, "Guess who")

    game_finish(game=game, result="draw", winners=[])
    after = client_for(outsider).get(f"/api/v1/games/{game.id}").json()
    assert all(p["player"] for p in after["powers"])


def test_the_secret_is_revealed_only_when_the_game_ends(game, outsider):
    before = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}").json()
    assert before["secret"] is None
    assert len(before["commitment"]) == 64
    game_finish(game=game, result="draw", winners=[])
    after = client_for(outsider).get(f"/api/v1/games/{game.id}").json()
    assert after["secret"] == game.secret


def test_draw_votes_are_secret(game):
    client_for(user_of(game, "FRANCE")).put(
        f"/api/v1/games/{game.id}/draw-vote", {"phase": "S1901M", "vote": True}, format="json"
    )
    seen = client_for(user_of(game, "ENGLAND")).get(f"/api/v1/games/{game.id}").json()
    assert seen["me"]["draw_vote"] is False
    assert all("draw_vote" not in p for p in seen["powers"])
    own = client_for(user_of(game, "FRANCE")).get(f"/api/v1/games/{game.id}").json()
    assert own["me"]["draw_vote"] is True
