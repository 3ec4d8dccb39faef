"""A game may ask a minimum reliability of those who take a seat in it, at the start or as a replacement;
a refusal has its own code and says the player's own figure."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from dipserver.accounts.tokens import token_create
from dipserver.games.errors import GameError
from dipserver.games.models import Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.powers import power_seat_take
from tests.factories import GameFactory
from tests.players.conftest import play, seat, started_game

OTHERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"]


def unreliable(users):
    """users[0] holds Turkey and never orders: 0% after one phase."""
    game = started_game(users, assignment="preference")
    play(game, [p for p in [*OTHERS, "TURKEY"] if seat(game, p).user != users[0]])
    return users[0]


def test_a_player_below_the_minimum_is_refused_with_their_figure(users):
    player = unreliable(users)
    game = game_create(name="Strict", variant="standard", min_reliability=80)

    with pytest.raises(GameError) as refused:
        game_join(game_id=game.id, user=player)

    assert refused.value.code == "reliability_too_low"
    assert "at least 80%; yours is 0% (orders given in 0 of 1 phases due)" in str(refused.value)
    assert not Power.objects.filter(game=game).exists()


def test_a_player_at_the_minimum_joins(users):
    game = started_game(users)
    play(game, [*OTHERS, "TURKEY"])
    strict = game_create(name="Strict", variant="standard", min_reliability=100)

    assert game_join(game_id=strict.id, user=users[0]).user == users[0]


def test_a_newcomer_joins_a_game_with_a_minimum(users):
    strict = game_create(name="Strict", variant="standard", min_reliability=90)

    assert game_join(game_id=strict.id, user=users[8]).user == users[8]


def test_an_open_seat_asks_the_same_minimum_of_a_replacement(users):
    player = unreliable(users)
    strict = GameFactory(players=users[1:8], min_reliability=50)
    gone = Power.objects.filter(game=strict).first()
    Power.objects.filter(id=gone.id).update(seat_open=True, status=Power.Status.CIVIL_DISORDER)

    with pytest.raises(GameError) as refused:
        power_seat_take(power_id=gone.id, user=player)

    assert refused.value.code == "reliability_too_low"


def test_a_minimum_above_a_hundred_is_refused_when_the_game_is_made(db):
    with pytest.raises(GameError, match="percentage from 0 to 100"):
        game_create(name="Odd", variant="standard", min_reliability=101)


def test_the_api_refuses_a_join_below_the_minimum_with_403_and_its_code(users):
    player = unreliable(users)
    game = game_create(name="Strict", variant="standard", min_reliability=80)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=player, name='t')[1]}")

    response = client.post(f"/api/v1/games/{game.id}/join", {}, format="json")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "reliability_too_low"
    assert client.get(f"/api/v1/games/{game.id}").json()["min_reliability"] == 80
