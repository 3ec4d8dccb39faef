"""Positions set up for the bot's tests, and what its player would read of them from the API (the same
payloads engine games give, ``dipserver/games/engine_games.py``)."""

from __future__ import annotations

import random
from typing import Any

from dipserver.bot.strategy import choose
from dipserver.engine import (
    Dislodged,
    Phase,
    Position,
    Unit,
    UnitType,
    board_for,
    hooks_between,
    legal_options,
    load_variant,
    walk,
)
from dipserver.games.engine_games import Table, graph_of, seen_for


def position(
    phase: str, units: list[str], owners: dict[str, str], dislodged: tuple[tuple[str, str], ...] = ()
) -> Position:
    """``units``: "ENGLAND F NWG"; ``dislodged``: ("ENGLAND F NWG <attacker's province>", "NAO BAR"),
    the unit and where it may retreat."""
    placed = {}
    for text in units:
        power, kind, location = text.split()
        placed[location.split("/")[0]] = Unit(power, UnitType(kind), location)
    waiting = {}
    for text, retreats in dislodged:
        power, kind, location, attacker = text.split()
        unit = Unit(power, UnitType(kind), location)
        waiting[unit.province] = Dislodged(unit, attacker, tuple(retreats.split()))
    return Position(Phase.parse(phase), placed, owners, dislodged=waiting)


def orders(
    slug: str, start: Position, power: str, *, timeline: bool = True, seed: int = 0
) -> tuple[list[str], dict[str, Any]]:
    """The bot's orders for ``power`` in ``start`` (on the map of that phase in an exact-mode game) and
    its options. ``timeline=False``: as if the bot could not read the timeline."""
    variant = load_variant(slug)
    map_state = map_at(slug, str(start.phase))
    table = Table(variant, {}, "", 1920)
    seen = seen_for(table, map_state, start, power, graph_of(variant))
    if not timeline:
        seen["timeline"] = []
    options = legal_options(board_for(variant, map_state), start, power).to_data()
    return choose(seen, options, random.Random(seed)), options


def map_at(slug: str, phase: str) -> Any:
    """The map of ``phase`` in an exact-mode game: every change made before it."""
    variant = load_variant(slug)
    done = set(hooks_between(variant.start.phase, Phase.parse(phase)))
    state = variant.map_state
    for year, hook, step in walk(variant, {}):
        if (year, hook) in done:
            state = step.map_state
    return state
