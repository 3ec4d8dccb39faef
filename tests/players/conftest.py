"""Fixtures for players: logins, a standard game in play, and playing its phases through the services."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.games.models import Game, Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.factories import GameFactory, UserFactory

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def users(db):
    return [UserFactory(username=f"player{i}") for i in range(9)]


def started_game(users, **options) -> Game:
    """A standard game the first seven ``users`` joined at ``START``: started, powers assigned."""
    return GameFactory(players=users[:7], joined_at=START, **options)


def seat(game: Game, name: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=name)


def holds(game: Game, name: str) -> str:
    game.refresh_from_db()
    units = game.current_phase.snapshot["units"]
    return "\n".join(f"{u['type']} {u['location']} H" for u in units if u["power"] == name)


def play(game: Game, ordering: list[str]) -> Game:
    """The open phase, with orders (all holds) from the powers named, processed now."""
    game.refresh_from_db()
    for name in ordering:
        orders_submit(game_id=game.id, user=seat(game, name).user, text=holds(game, name), now=START)
    phase_process(phase_id=game.current_phase_id, force=True, now=START)
    game.refresh_from_db()
    return game
