"""One phase of a game, from stored snapshot and order texts to the next snapshot: a thin adapter.

The engine plays the phase (``dipserver.engine.turn.play_phase``: orders with conversions, adjudication,
timeline hooks, rule modules, victory); this module only turns the stored snapshot into engine values and
the engine's ``Turn`` back into what a Phase row stores, so services, the GM's dry run and the import
replay share one path. The game's own last year (``end_year``, a setting of the game) is passed to the
engine, which judges it with the variant's victory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dipserver.engine import (
    RECORD_FIELDS,
    ModuleState,
    PhaseType,
    ReadLine,
    Variant,
    board_for,
    play_phase,
    powers_in_play,
    winter_converters,
)
from dipserver.engine import read_orders as orders_read
from dipserver.games.mappers import Snapshot, map_state_of, modules_json, position_of, snapshot_from

__all__ = [
    "ReadLine",
    "Turn",
    "orders_read",
    "powers_in_play_at",
    "powers_to_act",
    "turn_play",
    "units_to_order",
]


@dataclass(frozen=True)
class Turn:
    orders: dict[str, list[str]]  # as adjudicated, short notation
    results: list[dict[str, Any]]
    events: list[dict[str, Any]]
    skipped: list[str]
    next_snapshot: Snapshot
    over: bool  # the game has ended
    result: str = ""  # "win", "draw" or "no_winner" when over
    winners: tuple[str, ...] = ()  # the winner, or the powers sharing a draw
    reason: str = ""  # why it ended, in words
    in_play: frozenset[str] = frozenset()  # the powers still in the game at the next phase (E17)


def turn_play(
    *,
    variant: Variant,
    options: Mapping[str, Any],
    secret: str,
    snapshot: Snapshot,
    order_texts: Mapping[str, Sequence[str]],
    end_year: int | None = None,
) -> Turn:
    modules = snapshot.get("modules")
    turn = play_phase(
        variant,
        map_state_of(snapshot),
        position_of(snapshot),
        order_texts,
        options=options,
        secret=secret,
        stay_flags=snapshot.get("stay_flags", ()),
        module_state=ModuleState.from_data(modules["state"]) if modules else None,
        end_year=end_year,
    )
    next_snapshot = snapshot_from(turn.map_state, turn.position)
    if turn.stay_flags:
        next_snapshot["stay_flags"] = sorted(turn.stay_flags)  # for the hook that runs after the retreats
    if turn.opened is not None:
        next_snapshot["modules"] = modules_json(turn.opened, turn.check, turn.module_data)
    results = [{k: r[k] for k in RECORD_FIELDS} for r in turn.results]  # the typed text is not kept
    if turn.outcome is not None:  # the variant's victory, or the game's last year (engine.victory)
        outcome = turn.outcome
        over, kind, winners, reason = True, outcome.result.value, outcome.powers, outcome.reason
    else:
        over, kind, winners, reason = False, "", (), ""
    in_play = frozenset(powers_in_play(variant, turn.map_state, turn.position))
    return Turn(
        turn.orders, results, turn.events, turn.skipped, next_snapshot, over, kind, winners, reason, in_play
    )


def powers_in_play_at(variant: Variant, snapshot: Snapshot) -> set[str]:
    """The powers still in the game at the snapshot (E17): a unit, a dislodged unit with somewhere to
    retreat, or an owned centre to build on. The others are eliminated."""
    return set(powers_in_play(variant, map_state_of(snapshot), position_of(snapshot)))


def powers_to_act(snapshot: Snapshot, variant: Variant | None = None) -> set[str]:
    """Powers with a decision to make in the snapshot's phase; the others are ready by definition.

    Without ``variant``, the decisions the rules require (orders, retreats, builds and removals): missed
    phases and grace periods count those. With it, also the optional ones the variant offers: in Wall of
    Ice's Winter, a fleet on a coast that may become an army (rule 4), which readiness waits for."""
    if variant is not None and snapshot["phase"].endswith(PhaseType.ADJUSTMENTS.value):
        board = board_for(variant, map_state_of(snapshot))
        return powers_to_act(snapshot) | winter_converters(board, position_of(snapshot).units)
    kind = PhaseType(snapshot["phase"][-1])
    if kind is PhaseType.MOVEMENT:
        return {u["power"] for u in snapshot["units"]}
    if kind is PhaseType.RETREATS:
        return {d["power"] for d in snapshot["dislodged"]}
    units: dict[str, int] = {}
    for unit in snapshot["units"]:
        units[unit["power"]] = units.get(unit["power"], 0) + 1
    centres: dict[str, int] = {}
    for owner in snapshot["owners"].values():
        centres[owner] = centres.get(owner, 0) + 1
    return {p for p in units.keys() | centres.keys() if units.get(p, 0) != centres.get(p, 0)}


def units_to_order(snapshot: Snapshot) -> dict[str, int]:
    """How many order lines each power with a decision to make owes in the snapshot's phase: one per
    unit in a movement phase, one per dislodged unit in a retreat phase. In an adjustment phase one
    (a power may build fewer than it could, or waive: any order there is a complete set)."""
    kind = PhaseType(snapshot["phase"][-1])
    if kind is PhaseType.ADJUSTMENTS:
        return dict.fromkeys(powers_to_act(snapshot), 1)
    counted: dict[str, int] = {}
    for unit in snapshot["units" if kind is PhaseType.MOVEMENT else "dislodged"]:
        counted[unit["power"]] = counted.get(unit["power"], 0) + 1
    return counted
