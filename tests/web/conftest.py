"""Fixtures for the HTML pages: players, and a Sahara game with every seat taken."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join

PASSWORD = "a long passphrase 1"


@pytest.fixture
def players(db):
    users = get_user_model().objects
    return [users.create_user(username=f"player{i}", password=PASSWORD) for i in range(7)]


@pytest.fixture
def master(db):
    return get_user_model().objects.create_user(username="master", password=PASSWORD)


@pytest.fixture
def sahara(players, master) -> Game:
    game = game_create(name="Dry times", variant="sahara", masters=[master])
    for user in players:
        game_join(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


def seat_of(game: Game, power: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=power)
