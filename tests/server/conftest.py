"""Fixtures for the game server: users, and a standard game that has started with seven players."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pytest

from dipserver.engine.position import Position
from dipserver.engine.types import Phase as EnginePhase
from dipserver.engine.types import Unit, UnitType
from dipserver.games.mappers import snapshot_from
from dipserver.games.models import Game, Power
from dipserver.games.variants import game_variant
from tests.factories import GameFactory, UserFactory

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def users(db):
    return [UserFactory(username=f"player{i}", email=f"player{i}@example.org") for i in range(8)]


def started_game(users, **options) -> Game:
    """A game the first seven ``users`` joined at ``START``: started, powers assigned."""
    return GameFactory(players=users[:7], joined_at=START, **options)


@pytest.fixture
def game(users) -> Game:
    return started_game(users)


def seat(game: Game, name: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=name)


def set_up(game: Game, phase: str, *units: str, owners: Mapping[str, list[str]]) -> None:
    """The game's open phase becomes ``phase`` with exactly ``units`` (``"FRANCE A BRE"``) and ``owners``."""
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    owned = {prov: power for power, provs in owners.items() for prov in provs}
    variant = game_variant(game)
    current = game.current_phase
    assert current is not None
    position = Position(EnginePhase.parse(phase), placed, owned)
    current.name, current.snapshot = phase, snapshot_from(variant.map_state, position)
    current.save(update_fields=["name", "snapshot"])
