"""GET /api/v1/players/<username> and the page /players/<username>/."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from dipserver.games.models import Game
from tests.players.conftest import play, seat, started_game


def test_the_profile_api_gives_reliability_tallies_and_recent_games(users):
    game = started_game(users)
    play(game, ["ENGLAND"])
    name = seat(game, "ENGLAND").user.username

    body = APIClient().get(f"/api/v1/players/{name}").json()

    assert body["username"] == name
    assert body["reliability"] == {"phases_due": 1, "phases_ordered": 1, "percent": 100, "civil_disorders": 0}
    assert body["totals"]["played"] == 1 and body["totals"]["outcomes"]["playing"] == 1
    assert body["recent"] == [
        {"game": game.id, "name": game.name, "variant": "standard", "status": "active", "power": "ENGLAND",
         "outcome": "playing"}
    ]  # fmt: skip


def test_an_unknown_player_is_a_404_with_a_code(db):
    response = APIClient().get("/api/v1/players/nobody")

    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_visitor_does_not_see_who_plays_in_a_running_anonymous_game(users):
    started_game(users, press=Game.Press.ANONYMOUS)

    body = APIClient().get(f"/api/v1/players/{users[0].username}").json()

    assert body["recent"] == [] and body["totals"]["played"] == 1


def test_the_profile_page_shows_reliability_and_games(users):
    game = started_game(users)
    play(game, [])
    name = seat(game, "ITALY").user.username

    page = Client().get(f"/players/{name}/").content.decode()

    assert "0%</strong>: orders given in 0 of 1 phases due" in page
    assert f'href="/games/{game.id}/"' in page and "Italy, playing" in page
