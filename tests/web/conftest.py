"""Fixtures for the HTML pages: players, and a Sahara game with every seat taken."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game, Power
from tests.factories import GameFactory, UserFactory


@pytest.fixture
def players(db):
    return [UserFactory(username=f"player{i}") for i in range(7)]


@pytest.fixture
def master(db):
    return UserFactory(username="master")


@pytest.fixture
def sahara(players, master) -> Game:
    return GameFactory(name="Dry times", variant="sahara", players=players, masters=[master])


def seat_of(game: Game, power: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=power)
