"""What the next map change does to one power's units and centres, read from the engine.

The selector runs the timeline's hooks of the coming year from the open phase, in turn, on
the position as it stands (units that do not move), and keeps the engine's events that concern the
power. Where Sahara's *stays fleet* order would change a fleet's fate, it runs the hook again with that
order given and reports both outcomes. Nothing here knows a rule: the engine decides every consequence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine import (
    Hook,
    OrderError,
    PhaseType,
    Position,
    Scheduled,
    Season,
    StayFleet,
    TimelineError,
    UnitType,
    Variant,
    apply_hook,
    check_conversion,
    conversion_text,
    hooks_between,
    province_of,
    schedule,
)
from dipserver.engine import Phase as EnginePhase
from dipserver.games.errors import GameError
from dipserver.games.mappers import board_of, map_state_of, position_of
from dipserver.games.models import Game
from dipserver.games.variants import game_timeline, timeline_options

_UNIT_KINDS = {"unit_removed": "removed", "unit_converted": "converted", "fleet_moved": "moved"}
_TERRAIN_CHANGES = frozenset({"land", "sea", "impassable"})


def coming_for(*, game: Game, power: str) -> list[dict[str, Any]]:
    """What the map changes of the coming year do to ``power``'s units and centres, soonest first: one
    row per unit or centre and change, with the order that changes the outcome where there is one. Empty
    when nothing of theirs is touched, before the start, after the end, and in a random game while a
    secret draw is still to come."""
    phase = game.current_phase
    if phase is None or game.status == Game.Status.FINISHED:
        return []
    variant, timeline = game_timeline(game)
    options = timeline_options(game)
    secret = game.secret or None
    try:
        slots = schedule(timeline, options, secret)
    except TimelineError as exc:
        raise GameError(str(exc)) from exc
    now = EnginePhase.parse(phase.name)
    if options.get("mode") == "random" and _draws_to_come(slots, variant.start.phase, now):
        return []  # where the rows stop would tell where the next secret draw falls
    points = hooks_between(now, EnginePhase(now.year + 1, now.season, now.type))
    snapshot = phase.snapshot
    flags = frozenset(snapshot.get("stay_flags", ()))
    stays = _stay_orders(variant, snapshot, power, now) if "stay_fleet" in timeline.orders else {}
    in_season = set(hooks_between(now, _season_end(now)))
    rows = []
    for point, events, before in _steps(variant, options, secret, snapshot, points, flags):
        changes = {c.province: str(c.change) for c in slots.get(point, ()) if c.province}
        for event in (e for e in events if _concerns(e, power)):
            row = _row(event, point, changes)
            order = stays.get(row["province"]) if point in in_season else None
            if row["kind"] == "converted" and order is not None:
                instead = _events(variant, options, secret, snapshot, points, flags | {row["province"]})
                then = _fate(instead.get(point, ()), row["unit"])
                if then is not None and then != "converted":
                    row["order"] = {"text": order, "then": then}
            rows.append(row)
        rows.extend(_standing(before, power, point, changes, {row["unit"] for row in rows}))
    return rows


def _standing(
    before: Position,
    power: str,
    point: tuple[int, Hook],
    changes: Mapping[str, str],
    told: set[str | None],
) -> list[dict[str, Any]]:
    """``power``'s units standing where the terrain changes at ``point`` that the engine leaves as they
    are (a fleet on a sea that dries beside water stays a fleet): the player still learns that the ground
    under them changes."""
    rows = []
    for unit in before.units_of(power):
        province = province_of(unit.location)
        text = f"{unit.type.value} {unit.location}"
        if changes.get(province) in _TERRAIN_CHANGES and text not in told:
            rows.append({**_row({"unit": text, "kind": "stands"}, point, changes), "kind": "stands"})
    return rows


def _draws_to_come(
    slots: Mapping[tuple[int, Hook], tuple[Scheduled, ...]], start: EnginePhase, now: EnginePhase
) -> bool:
    """Whether a random draw has still to happen: then every year may hold one (the count is public)."""
    happened = set(hooks_between(start, now))
    return any(c.entry for point, changes in slots.items() if point not in happened for c in changes)


def _steps(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str | None,
    snapshot: Mapping[str, Any],
    points: tuple[tuple[int, Hook], ...],
    flags: frozenset[str],
) -> list[tuple[tuple[int, Hook], tuple[Mapping[str, Any], ...], Position]]:
    """Each of ``points`` with the engine's events there and the position just before, the hooks
    applied in turn to the position as it stands."""
    map_state, position = map_state_of(snapshot), position_of(snapshot)
    found = []
    for year, hook in points:
        step = apply_hook(variant, options, map_state, position, hook, year, flags=flags, secret=secret)
        found.append(((year, hook), step.events, position))
        map_state, position = step.map_state, step.position
    return found


def _events(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str | None,
    snapshot: Mapping[str, Any],
    points: tuple[tuple[int, Hook], ...],
    flags: frozenset[str],
) -> dict[tuple[int, Hook], tuple[Mapping[str, Any], ...]]:
    """The engine's events at each of ``points`` that has any."""
    return {
        point: events
        for point, events, _ in _steps(variant, options, secret, snapshot, points, flags)
        if events
    }


def _fate(events: tuple[Mapping[str, Any], ...], unit: str) -> str | None:
    """What ``events`` do to ``unit``: converted, removed, moved, or ``None``."""
    kinds = [_UNIT_KINDS[e["kind"]] for e in events if e["kind"] in _UNIT_KINDS and e.get("unit") == unit]
    return kinds[0] if kinds else None


def _concerns(event: Mapping[str, Any], power: str) -> bool:
    if event["kind"] in _UNIT_KINDS:
        return bool(event["power"] == power)
    if event["kind"] in ("centre_lost", "centre_gained"):
        return bool(event.get("owner") == power)
    return False


def _row(event: Mapping[str, Any], point: tuple[int, Hook], changes: Mapping[str, str]) -> dict[str, Any]:
    unit = event.get("unit")
    province = province_of(unit.split()[-1]) if unit else str(event["province"])
    kind = _UNIT_KINDS.get(str(event["kind"]), str(event["kind"]))
    change = changes.get(province)
    # A unit's row names the ground changing under it; a centre won or lost there is its own row.
    if unit and change not in _TERRAIN_CHANGES:
        change = None
    return {
        "year": point[0],
        "hook": str(point[1]),
        "province": province,
        "change": change,
        "kind": kind,
        "unit": unit,
        "to": event.get("to"),
        "order": None,
    }


def _stay_orders(
    variant: Variant, snapshot: Mapping[str, Any], power: str, now: EnginePhase
) -> dict[str, str]:
    """Sahara: the *stays fleet* order of each of ``power``'s fleets, by province. It holds for the
    hooks of the season it is given in."""
    if now.type is PhaseType.ADJUSTMENTS:
        return {}
    board, position = board_of(variant, snapshot), position_of(snapshot)
    found: dict[str, str] = {}
    for unit in _fleets(position, power):
        try:
            order = check_conversion(board, position, power, StayFleet(unit))
        except OrderError:
            continue
        found[province_of(unit)] = conversion_text(order, position)
    return found


def _fleets(position: Position, power: str) -> list[str]:
    dislodged = [d.unit for d in position.dislodged.values() if d.unit.power == power]
    units = [*position.units_of(power), *dislodged]
    return [u.location for u in units if u.type is UnitType.FLEET]


def _season_end(now: EnginePhase) -> EnginePhase:
    if now.season is Season.SPRING:
        return EnginePhase(now.year, Season.FALL, PhaseType.MOVEMENT)
    return EnginePhase(now.year + 1, Season.SPRING, PhaseType.MOVEMENT)
