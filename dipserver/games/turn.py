"""One phase of a game, from stored snapshot and order texts to the next snapshot: plain data only.

The engine adjudicates (``adjudicate``) and changes the map (``timeline.apply_hook``); this module strings
them together the way a running game needs, so services and the import/replay check share one path:

1. parse each power's stored order texts on the phase's own board (a text that no longer parses is
   recorded as an invalid result and the unit holds — it was valid when submitted);
2. adjudicate; units without orders hold, and the adjudicator applies civil-disorder defaults for
   retreats and adjustments;
3. run the timeline hooks between this phase and the next (E1, E30), re-deciding whether a Winter is
   played once the before-Winter hook has changed the centres;
4. judge the end: a solo at the variant's centre count, or the game's last year.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.adjustments import has_adjustments
from dipserver.engine.board import board_for
from dipserver.engine.orders import Order
from dipserver.engine.parse import OrderError, format_order, parse_order
from dipserver.engine.timeline import Hook, apply_hook, hooks_between
from dipserver.engine.types import Phase, PhaseType, Season
from dipserver.engine.variant import Variant
from dipserver.games.mappers import Snapshot, map_state_of, position_of, results_json, snapshot_from


@dataclass(frozen=True)
class Turn:
    orders: dict[str, list[str]]  # as adjudicated, short notation
    results: list[dict[str, Any]]
    events: list[dict[str, Any]]
    skipped: list[str]
    next_snapshot: Snapshot
    winners: list[str]  # a solo winner, or empty
    over: bool  # the game has ended (solo or last year reached)


def turn_play(
    *,
    variant: Variant,
    options: Mapping[str, Any],
    secret: str,
    snapshot: Snapshot,
    order_texts: Mapping[str, Sequence[str]],
    end_year: int | None = None,
) -> Turn:
    map_state = map_state_of(snapshot)
    position = position_of(snapshot)
    board = board_for(variant, map_state)
    orders: dict[str, list[Order]] = {}
    stored_orders: dict[str, list[str]] = {}
    unreadable: list[dict[str, Any]] = []
    for power, texts in order_texts.items():
        for text in texts:
            try:
                order = parse_order(text, board, position, power)
            except OrderError as err:
                unreadable.append(
                    {
                        "power": power,
                        "order": text,
                        "outcome": "invalid",
                        "reason": err.reason,
                        "dislodged": False,
                    }
                )
                stored_orders.setdefault(power, []).append(text)
                continue
            orders.setdefault(power, []).append(order)
            stored_orders.setdefault(power, []).append(format_order(order, position))
    result = adjudicate(board, position, orders)
    results = results_json(result.results, position) + unreadable

    done, nxt, new_position = position.phase, result.next_phase, result.position
    skipped = [str(p) for p in result.skipped]
    events: list[dict[str, Any]] = []
    for year, hook in hooks_between(done, nxt):
        winter = Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS)
        if hook is Hook.AFTER_WINTER_ADJUSTMENTS and str(winter) in skipped:
            # The before-Winter hook may have created centres that give someone a build (E30).
            board = board_for(variant, map_state)
            if has_adjustments(board, new_position.units, new_position.owners, variant.build_rule):
                skipped.remove(str(winter))
                nxt = winter
                break
        if hook is Hook.BEFORE_WINTER_ADJUSTMENTS and nxt == winter:
            step = apply_hook(variant, options, map_state, new_position, hook, year, secret=secret)
            map_state, new_position = step.map_state, step.position
            events.extend(dict(e) for e in step.events)
            board = board_for(variant, map_state)
            if not has_adjustments(board, new_position.units, new_position.owners, variant.build_rule):
                # The hook took away what made the Winter worth playing: skip it, run the rest.
                skipped.append(str(winter))
                nxt = Phase(year + 1, Season.SPRING, PhaseType.MOVEMENT)
                step = apply_hook(
                    variant,
                    options,
                    map_state,
                    new_position,
                    Hook.AFTER_WINTER_ADJUSTMENTS,
                    year,
                    secret=secret,
                )
                map_state, new_position = step.map_state, step.position
                events.extend(dict(e) for e in step.events)
            break
        step = apply_hook(variant, options, map_state, new_position, hook, year, secret=secret)
        map_state, new_position = step.map_state, step.position
        events.extend(dict(e) for e in step.events)
    new_position = replace(new_position, phase=nxt)
    next_snapshot = snapshot_from(map_state, new_position)

    winners = _solo(variant, next_snapshot, done)
    over = bool(winners) or (end_year is not None and done.year >= end_year and nxt.year > end_year)
    return Turn(stored_orders, results, events, skipped, next_snapshot, winners, over)


def powers_to_act(snapshot: Snapshot) -> set[str]:
    """Powers with a decision to make in the snapshot's phase; the others are ready by definition."""
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


def _solo(variant: Variant, snapshot: Snapshot, done: Phase) -> list[str]:
    """Centres are counted once the year's ownership has changed hands, i.e. after Fall."""
    if variant.victory_centres <= 0 or done.season is Season.SPRING:
        return []
    counts: dict[str, int] = {}
    for owner in snapshot["owners"].values():
        counts[owner] = counts.get(owner, 0) + 1
    return sorted(power for power, n in counts.items() if n >= variant.victory_centres)
