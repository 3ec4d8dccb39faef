"""One phase of a game, from stored snapshot and order texts to the next snapshot: plain data only.

The engine adjudicates (``adjudicate``), changes the map (``timeline.apply_hook``), converts units
(``conversions``) and judges the end (``victory``); this module strings them together the way a running
game needs, so services, the GM's dry run and the import replay share one path:

1. read each power's order texts on the phase's own board, the variant's conversion orders included (a
   stored text that no longer reads is recorded as an invalid result and the unit holds);
2. adjudicate the standard orders; units without orders hold, and the adjudicator applies the
   civil-disorder defaults for retreats and adjustments;
3. apply the conversions: Deluge's armies becoming fleets after movement, Wall of Ice's fleets becoming
   armies after the Winter; Sahara's stay-a-fleet flags go to the timeline hooks;
4. run the timeline hooks between this phase and the next (E1, E30), re-deciding whether a Winter is
   played once the before-Winter hook has changed the centres;
5. judge the end with the variant's victory conditions, or the game's own last year.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dipserver.engine import conversions
from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.adjustments import has_adjustments
from dipserver.engine.board import Board, MapState, board_for
from dipserver.engine.orders import (
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Order,
    Outcome,
    StayFleet,
)
from dipserver.engine.parse import OrderError, format_order, order_unit, parse_orders
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, apply_hook, hooks_between
from dipserver.engine.types import Phase, PhaseType, Season, province_of
from dipserver.engine.variant import Variant
from dipserver.engine.victory import Result, game_outcome
from dipserver.games.mappers import Snapshot, map_state_of, position_of, results_json, snapshot_from

AnyOrder = Order | ConversionOrder


@dataclass(frozen=True)
class ReadLine:
    number: int  # 1-based line of the submitted text
    text: str  # as typed
    order: AnyOrder | None
    stored: str  # normalised notation to store ("" when rejected)
    error: str | None


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


def orders_read(lines: Iterable[str] | str, board: Board, position: Position, power: str) -> list[ReadLine]:
    """Every non-blank line read and checked: the variant's conversion orders first, then the standard
    notation (one order per unit, builds within the winter's allowance) through the engine's parser."""
    lines = lines.splitlines() if isinstance(lines, str) else list(lines)
    read: dict[int, ReadLine] = {}
    standard = list(lines)
    converted: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        try:
            conversion = conversions.parse_conversion(text, board, position, power) if text else None
        except OrderError as err:
            read[number], standard[number - 1] = ReadLine(number, text, None, "", err.reason), ""
            continue
        if conversion is None:
            continue
        standard[number - 1] = ""  # the engine parser reads the rest; blank lines keep the numbering
        prov = province_of(conversion.unit)
        if prov in converted:
            why = f"{board.province_name(prov)} already has a conversion order"
            read[number] = ReadLine(number, text, None, "", why)
            continue
        converted.add(prov)
        read[number] = ReadLine(number, text, conversion, conversion_text(conversion, position), None)
    for line in parse_orders(standard, board, position, power):
        if line.order is None:
            read[line.number] = ReadLine(line.number, line.text, None, "", line.error)
            continue
        unit = order_unit(line.order)
        if unit is not None and any(
            isinstance(r.order, ConvertToFleet) and province_of(r.order.unit) == unit for r in read.values()
        ):
            why = (
                f"The army in {board.province_name(unit)} is ordered to become a fleet (and holds meanwhile)"
            )
            read[line.number] = ReadLine(line.number, line.text, None, "", why)
            continue
        read[line.number] = ReadLine(
            line.number, line.text, line.order, format_order(line.order, position), None
        )
    return [read[n] for n in sorted(read)]


def conversion_text(order: ConversionOrder, position: Position) -> str:
    unit = position.units.get(province_of(order.unit))
    kind = unit.type.value if unit is not None else ("A" if isinstance(order, ConvertToFleet) else "F")
    if isinstance(order, ConvertToArmy):
        return f"{kind} {order.unit} becomes army"
    if isinstance(order, StayFleet):
        return f"{kind} {order.unit} stays fleet"
    return f"{kind} {order.unit} becomes fleet" + (f" {order.coast}" if order.coast else "")


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
    orders: dict[str, list[AnyOrder]] = {}
    stored: dict[str, list[str]] = {}
    unreadable: list[dict[str, Any]] = []
    for power, texts in order_texts.items():
        for line in orders_read(texts, board, position, power):
            stored.setdefault(power, []).append(line.stored or line.text)
            if line.order is None:
                unreadable.append(_result(power, line.text, Outcome.INVALID, line.error or ""))
            else:
                orders.setdefault(power, []).append(line.order)

    result = adjudicate(board, position, conversions.for_adjudication(orders))
    results = results_json(result.results, position)
    done, nxt, new_position = position.phase, result.next_phase, result.position
    flags = frozenset(snapshot.get("stay_flags", ()))
    if done.type is PhaseType.MOVEMENT:
        broken = {(r.power, r.order) for r in result.results if r.outcome is Outcome.NO_CONVOY}
        units, converted = conversions.fleet_conversions(
            position.units, new_position.units, orders, lambda power, move: (power, move) not in broken
        )
        new_position = replace(new_position, units=units)
        flags = conversions.stay_flags(position.units, units, orders)
        results += [
            _conversion_result(power, order, ok, why, position) for power, order, ok, why in converted
        ]
    elif done.type is PhaseType.ADJUSTMENTS:
        units, to_army = conversions.army_conversions(new_position.units, orders)
        new_position = replace(new_position, units=units)
        results += [_conversion_result(power, order, ok, why, position) for power, order, ok, why in to_army]
    results += [
        _conversion_result(p, o, True, "", position)
        for p, os in orders.items()
        for o in os
        if isinstance(o, StayFleet)
    ]
    results += unreadable

    map_state, new_position, nxt, events, skipped = _run_hooks(
        variant, options, secret, map_state, new_position, done, nxt, [str(p) for p in result.skipped], flags
    )
    new_position = replace(new_position, phase=nxt)
    next_snapshot = snapshot_from(map_state, new_position)
    if nxt.type is PhaseType.RETREATS and flags:
        next_snapshot["stay_flags"] = sorted(flags)  # for the hook that runs after the retreats

    outcome = game_outcome(variant, map_state, new_position, done)
    if outcome is not None:
        over, kind, winners, reason = True, outcome.result.value, outcome.powers, outcome.reason
    elif end_year is not None and nxt.year > end_year:
        over, kind, winners, reason = (
            True,
            Result.NO_WINNER.value,
            (),
            f"The game's last year, {end_year}, is over.",
        )
    else:
        over, kind, winners, reason = False, "", (), ""
    return Turn(stored, results, events, skipped, next_snapshot, over, kind, winners, reason)


def _run_hooks(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str,
    map_state: MapState,
    position: Position,
    done: Phase,
    nxt: Phase,
    skipped: list[str],
    flags: frozenset[str],
) -> tuple[MapState, Position, Phase, list[dict[str, Any]], list[str]]:
    events: list[dict[str, Any]] = []

    def run(hook: Hook, year: int) -> None:
        nonlocal map_state, position
        step = apply_hook(variant, options, map_state, position, hook, year, flags=flags, secret=secret)
        map_state, position = step.map_state, step.position
        events.extend(dict(e) for e in step.events)

    def winter_needed() -> bool:
        board = board_for(variant, map_state)
        return has_adjustments(board, position.units, position.owners, variant.build_rule)

    for year, hook in hooks_between(done, nxt):
        winter = Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS)
        if hook is Hook.AFTER_WINTER_ADJUSTMENTS and str(winter) in skipped and winter_needed():
            # The before-Winter hook created what makes the Winter worth playing (E30).
            skipped.remove(str(winter))
            return map_state, position, winter, events, skipped
        run(hook, year)
        if hook is Hook.BEFORE_WINTER_ADJUSTMENTS and nxt == winter and not winter_needed():
            # The hook took away what made the Winter worth playing: skip it, run the rest.
            skipped.append(str(winter))
            nxt = Phase(year + 1, Season.SPRING, PhaseType.MOVEMENT)
            run(Hook.AFTER_WINTER_ADJUSTMENTS, year)
            break
    return map_state, position, nxt, events, skipped


def _result(power: str, text: str, outcome: Outcome, reason: str) -> dict[str, Any]:
    return {"power": power, "order": text, "outcome": outcome.value, "reason": reason, "dislodged": False}


def _conversion_result(
    power: str, order: ConversionOrder, ok: bool, why: str, position: Position
) -> dict[str, Any]:
    return _result(power, conversion_text(order, position), Outcome.SUCCESS if ok else Outcome.VOID, why)


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
