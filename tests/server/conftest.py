"""Fixtures for the game server: users, and a standard game that has started with seven players."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def users(db):
    user_model = get_user_model()
    return [
        user_model.objects.create(username=f"player{i}", email=f"player{i}@example.org") for i in range(8)
    ]


def started_game(users, **options) -> Game:
    game = game_create(name="Test game", variant=options.pop("variant", "standard"), **options)
    for user in users[:7]:
        game_join(game_id=game.id, user=user, now=START)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(users) -> Game:
    return started_game(users)


def seat(game: Game, name: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=name)
