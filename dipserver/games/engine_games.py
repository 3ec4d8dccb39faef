"""Whole games played in process on the engine alone (no database, no server), each power's orders
chosen from the payloads its player would get from the API: the options (``legal_options(...).to_data()``,
as ``GET /options``), the board (the phase's snapshot, as ``GET /phases/{index}``), the map's graph
(``graph_of``, as ``GET /graph``) and the timeline (the rows of ``GET /timeline``, exact mode).

For benchmarks and tests of bots (``scripts/bench_bot.py``): thousands of phases a minute where the API
would take seconds a phase. Pure Python: nothing here imports Django.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dipserver.engine import (
    Hook,
    InPlay,
    MapState,
    ModuleState,
    Phase,
    Position,
    Variant,
    board_for,
    hooks_between,
    legal_options,
    load_timeline,
    modules_for,
    open_modules,
    play_phase,
    schedule,
    split_options,
)
from dipserver.games.mappers import snapshot_from

# What a legal order may come to; anything else (invalid, unreadable, refused) is the bot's mistake.
_JUDGED = frozenset({"success", "bounce", "cut", "dislodged", "void", "no_convoy", None})

# A bot: (what its player sees, its options, a seeded rng) -> order texts.
Chooser = Callable[[Mapping[str, Any], Mapping[str, Any], random.Random], list[str]]


def graph_of(variant: Variant) -> dict[str, Any]:
    """The map's graph as drawn, whatever the terrain: province -> the provinces it borders, and each
    multi-coast province's coasts -> the waters they touch. The body of ``GET /games/{id}/graph``."""
    return {
        "borders": {p: sorted(ns) for p, ns in sorted(variant.borders.items())},
        "coasts": {
            p: {c: sorted(ws) for c, ws in sorted(coasts.items())}
            for p, coasts in sorted(variant.coast_waters.items())
        },
    }


def timeline_rows(
    variant: Variant, options: Mapping[str, Any], secret: str | None, now: str
) -> list[dict[str, Any]]:
    """The timeline's changes season by season with whether each has happened before phase ``now``:
    the ``entries`` of ``GET /timeline`` in an exact-mode game (every change listed)."""
    slots = schedule(load_timeline(variant), split_options(options)[1], secret)
    happened = set(hooks_between(variant.start.phase, Phase.parse(now)))
    hooks = list(Hook)
    rows: list[dict[str, Any]] = []
    for (year, hook), changes in sorted(slots.items(), key=lambda kv: (kv[0][0], hooks.index(kv[0][1]))):
        rows.extend(
            {
                "year": year,
                "hook": str(hook),
                "change": str(change.change),
                "province": change.province,
                "keep": list(change.keep),
                "happened": (year, hook) in happened,
            }
            for change in changes
        )
    return rows


@dataclass(frozen=True)
class Table:
    """A game's fixed settings."""

    variant: Variant
    options: Mapping[str, Any]  # the game's options (mode, the variant's switches, rule modules)
    secret: str
    end_year: int


@dataclass(frozen=True)
class Played:
    """How a game ended: its outcome (None if ``max_phases`` ran out first) and the last position."""

    result: str | None  # win, draw, no_winner
    winners: tuple[str, ...]
    last_year: int
    position: Position
    phases: int
    invalid: Mapping[str, int]  # power -> its orders the engine judged invalid or could not read

    def centres(self, power: str) -> int:
        return sum(1 for owner in self.position.owners.values() if owner == power)


def seen_for(
    table: Table, map_state: MapState, position: Position, power: str, graph: Mapping[str, Any]
) -> dict[str, Any]:
    """What ``power``'s player reads from the API in ``position``'s phase (``dipserver.bot.view``)."""
    return {
        "power": power,
        "phase": str(position.phase),
        "board": snapshot_from(map_state, position),
        "graph": graph,
        "timeline": timeline_rows(table.variant, table.options, table.secret or None, str(position.phase)),
    }


def options_for(
    table: Table, map_state: MapState, position: Position, power: str, state: ModuleState | None = None
) -> dict[str, Any]:
    """``power``'s legal orders, as ``GET /games/{id}/options`` answers them: with the game's rule modules
    and their ``state`` as the phase opened (``None``: as a game without modules, or before the start)."""
    modules = modules_for(table.variant, table.options)
    in_play = InPlay(modules, state or ModuleState()) if modules.any else None
    board = board_for(table.variant, map_state)
    return legal_options(board, position, power, modules=in_play).to_data()


def play_game(table: Table, bots: Mapping[str, Chooser], *, seed: str, max_phases: int = 400) -> Played:
    """Play from the start until the engine says the game is over; every power in ``bots`` orders
    through its chooser (a power without one gives no orders)."""
    variant = table.variant
    modules = modules_for(variant, table.options)
    map_state, position = variant.map_state, variant.start
    state = None
    if modules.any:
        state = open_modules(variant, map_state, position, modules, None, table.secret).state
    graph = graph_of(variant)
    flags: frozenset[str] = frozenset()
    invalid: dict[str, int] = {}
    for count in range(1, max_phases + 1):
        orders = {}
        for power, bot in bots.items():
            options = options_for(table, map_state, position, power, state)
            if not options["units"] and not options["builds"] and not options["conversions"]:
                continue
            rng = random.Random(f"{seed}/{power}/{position.phase}")
            orders[power] = bot(seen_for(table, map_state, position, power, graph), options, rng)
        turn = play_phase(
            variant,
            map_state,
            position,
            orders,
            options=table.options,
            secret=table.secret,
            stay_flags=flags,
            module_state=state,
            end_year=table.end_year,
        )
        for record in turn.results:
            if record["outcome"] not in _JUDGED:
                invalid[record["power"]] = invalid.get(record["power"], 0) + 1
        map_state, position, flags = turn.map_state, turn.position, turn.stay_flags
        state = turn.opened.state if turn.opened is not None else state
        if turn.outcome is not None:
            outcome = turn.outcome
            return Played(str(outcome.result), outcome.powers, turn.phase.year, position, count, invalid)
    return Played(None, (), position.phase.year, position, max_phases, invalid)
