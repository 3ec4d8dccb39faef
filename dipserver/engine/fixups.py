"""The ordered fix-up pipeline that runs after a timeline changes the map (rulings E2 to E12, E29).

``apply_changes`` runs, in this order, each step a small function over plain data:

1. ``change_terrain``          — the scheduled land / sea / impassable changes;
2. ``remove_on_impassable``    — units on impassable provinces are removed (E2, E8);
3. ``strand_fleets``           — fleets left without water become armies, or are disbanded when told to
                                 stay fleets, or stay where they are (variant setting, E3/E4/E16);
4. ``sink_armies``             — armies on land that sank become fleets, or drown (E7);
5. ``coasts.recompute_coasts`` and ``place_fleets`` — named coasts recomputed, fleets moved to theirs
                                 (E5);
6. ``change_centres``          — centres on land that is gone are lost (E10, E12), then the scheduled
                                 losses, then the gains with the variant's owner rule (E11).

Every step returns new values plus the events it caused, as plain dicts for the API's ``"events"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from dipserver.engine.board import FrozenMap, MapState
from dipserver.engine.coasts import recompute_coasts, shore_provinces
from dipserver.engine.definition import Variant
from dipserver.engine.position import Position
from dipserver.engine.timelinedata import Settings
from dipserver.engine.types import Terrain, Unit, UnitType, coast_of

Events = list[dict[str, Any]]
Units = dict[str, Unit]


# What the pipeline reads of the timeline (``timeline.py`` runs the pipeline; it does not import that
# module back): a scheduled change (``timeline.Scheduled``) and the timeline's maps (``timeline.Timeline``).


class Scheduled(Protocol):
    """One change to one province, as ``timeline.Scheduled`` gives it."""

    @property
    def change(self) -> str: ...  # a ``timeline.Change``: "land", "sea", "impassable", "sc_gain", ...

    @property
    def province(self) -> str | None: ...

    @property
    def keep(self) -> tuple[str, ...]: ...


class Timeline(Protocol):
    """The parts of ``timeline.Timeline`` the pipeline uses."""

    @property
    def territories(self) -> Mapping[str, str]: ...  # province -> power (original homes)

    @property
    def coast_names(self) -> Mapping[str, tuple[tuple[str, frozenset[str]], ...]]: ...


_TERRAIN_OF = {"land": Terrain.LAND, "sea": Terrain.SEA, "impassable": Terrain.IMPASSABLE}


def record_occupants(position: Position) -> Position:
    """Remember who stands where at the end of a Spring or Autumn (Deluge's ownership chain, step 2)."""
    last = dict(position.last_occupants)
    last.update({prov: unit.power for prov, unit in position.units.items()})
    return Position(position.phase, position.units, position.owners, position.dislodged, FrozenMap(last))


def change_terrain(
    terrain: Mapping[str, Terrain], changes: Iterable[Scheduled]
) -> tuple[dict[str, Terrain], Events]:
    new = dict(terrain)
    events: Events = []
    for change in changes:
        to = _TERRAIN_OF.get(change.change)
        if to is None or change.province is None or new[change.province] is to:
            continue  # a centre change, or a repeated row (E28)
        events.append(
            {"kind": "terrain", "province": change.province, "from": new[change.province], "to": to}
        )
        new[change.province] = to
    return new, events


def remove_on_impassable(terrain: Mapping[str, Terrain], units: Units) -> tuple[Units, Events]:
    kept, events = {}, []
    for prov, unit in units.items():
        if terrain[prov].passable:
            kept[prov] = unit
        else:
            events.append(_unit_event("unit_removed", unit, f"{prov} became {terrain[prov]}"))
    return kept, events


def touches_water(variant: Variant, terrain: Mapping[str, Terrain], province: str) -> bool:
    return any(terrain.get(n) is Terrain.SEA for n in variant.borders[province])


def strand_fleets(
    variant: Variant, terrain: Mapping[str, Terrain], units: Units, mode: str, stay: frozenset[str]
) -> tuple[Units, Events]:
    """Fleets on land that touches no open water (E3, E4, E16).

    ``mode`` "convert": the fleet becomes an army, unless its province is in ``stay`` (its owner ordered
    it to stay a fleet), then it is disbanded. ``mode`` "stay": nothing happens (Wall of Ice).
    """
    if mode == "stay":
        return units, []
    kept, events = dict(units), []
    for prov, unit in units.items():
        if unit.type is not UnitType.FLEET or terrain[prov] is not Terrain.LAND:
            continue
        if touches_water(variant, terrain, prov):
            continue
        if prov in stay:
            del kept[prov]
            events.append(_unit_event("unit_removed", unit, "stranded, and ordered to stay a fleet"))
        else:
            # A stranded A/F (the Abstraction rules on a drying map) also ends as one army: its own.
            kept[prov] = Unit(unit.power, UnitType.ARMY, prov)
            events.append(_unit_event("unit_converted", unit, "stranded inland", to=kept[prov]))
    return kept, events


def land_armies_aboard(terrain: Mapping[str, Terrain], units: Units) -> tuple[Units, Events]:
    """An A/F (the Abstraction rules) whose sea dried into land, still on the coast: its army lands there
    and the A/F ends as one army, its own, as a stranded A/F does (ruling 5.6; one unit a province)."""
    kept, events = dict(units), []
    for prov, unit in units.items():
        if unit.aboard and terrain[prov] is Terrain.LAND:
            kept[prov] = Unit(unit.power, UnitType.ARMY, prov)
            why = "its sea dried: the army aboard lands"
            events.append(_unit_event("unit_converted", unit, why, to=kept[prov]))
    return kept, events


def sink_armies(terrain: Mapping[str, Terrain], units: Units, mode: str) -> tuple[Units, Events]:
    """Units on provinces that are now sea: armies become fleets or drown (E7); fleets lose their coast."""
    kept, events = dict(units), []
    for prov, unit in units.items():
        if terrain[prov] is not Terrain.SEA or (unit.location == prov and unit.type is UnitType.FLEET):
            continue
        if unit.type is UnitType.FLEET:
            kept[prov] = Unit(unit.power, UnitType.FLEET, prov)  # a sea has no named coasts
        elif mode == "drown":
            del kept[prov]
            events.append(_unit_event("unit_removed", unit, f"{prov} sank and the army drowned"))
        else:
            kept[prov] = Unit(unit.power, UnitType.FLEET, prov)
            events.append(_unit_event("unit_converted", unit, f"{prov} sank", to=kept[prov]))
    return kept, events


def place_fleets(
    old_map: MapState,
    new_coasts: Mapping[str, Mapping[str, frozenset[str]]],
    frozen_seas: bool,
    variant: Variant,
    terrain: Mapping[str, Terrain],
    units: Units,
) -> tuple[Units, Events]:
    """Put every fleet on land onto a coast that exists on the new map (E5).

    It keeps its coast while that coast exists; otherwise it takes the coast whose water it touched
    before (unique when only water was added), else the first wet coast alphabetically (a dried coast,
    E5a). A province with no named coasts any more has its fleets at the bare province.
    """
    kept, events = dict(units), []
    old_coasts, old_shore = old_map.coasts, None
    for prov, unit in units.items():
        if unit.type is not UnitType.FLEET or terrain[prov] is not Terrain.LAND:
            continue
        named = new_coasts.get(prov, {})
        coast = coast_of(unit.location)
        if not named:
            target = prov
        elif coast in named:
            continue
        else:
            if coast is not None and coast in old_coasts.get(prov, {}):
                before = old_coasts[prov][coast]
            else:
                old_shore = old_shore or shore_provinces(variant, old_map.terrain, frozen_seas)
                before = frozenset(n for n in variant.borders[prov] if n in old_shore)
            same_side = [c for c in sorted(named) if named[c] & before]
            target = f"{prov}/{(same_side or sorted(named))[0]}"
        if target != unit.location:
            kept[prov] = Unit(unit.power, UnitType.FLEET, target, unit.aboard)  # an A/F keeps its army
            if coast_of(target) is None:
                why = "its province has a single coast now"
            elif coast is None:
                why = "its province now has named coasts"
            else:
                why = "its coast changed"
            events.append(_unit_event("fleet_moved", unit, why, to=kept[prov]))
    return kept, events


def change_centres(
    timeline: Timeline,
    settings: Settings,
    terrain: Mapping[str, Terrain],
    map_state: MapState,
    position: Position,
    units: Units,
    changes: Iterable[Scheduled],
) -> tuple[frozenset[str], dict[str, str], dict[str, str], Events]:
    """Centre losses, then gains, with the variant's owner rule (E10, E11, E12)."""
    centres = set(map_state.supply_centres)
    homes, owners = dict(map_state.homes), dict(position.owners)
    events: Events = []

    def lose(prov: str, reason: str) -> None:
        centres.discard(prov)
        homes.pop(prov, None)
        events.append(
            {"kind": "centre_lost", "province": prov, "owner": owners.pop(prov, None), "reason": reason}
        )

    for prov in sorted(centres):
        if terrain[prov] is not Terrain.LAND:
            lose(prov, "sank" if terrain[prov] is Terrain.SEA else f"became {terrain[prov]}")
    changes = list(changes)
    for change in changes:
        if change.change == "sc_loss" and change.province in centres:
            lose(change.province, "the timeline")
        elif change.change == "sc_loss_all":
            for prov in sorted(centres - set(change.keep)):
                lose(prov, "the timeline")
    for change in changes:
        if change.change != "sc_gain" or change.province is None:
            continue
        prov = change.province
        if prov in centres or terrain[prov] is not Terrain.LAND:
            continue  # already a centre, or no longer land: nothing to gain (E28)
        centres.add(prov)
        owner = _new_owner(settings.sc_owner, prov, units, position, timeline.territories)
        if owner is not None:
            owners[prov] = owner
        if settings.new_sc_home == "territory" and prov in timeline.territories:
            homes[prov] = timeline.territories[prov]
        events.append({"kind": "centre_gained", "province": prov, "owner": owner, "home": homes.get(prov)})
    return frozenset(centres), homes, owners, events


def _new_owner(
    rule: str, prov: str, units: Units, position: Position, territories: Mapping[str, str]
) -> str | None:
    """Occupant (Wall of Ice, Sahara); Deluge: occupant, last occupant, home territory, nobody."""
    if prov in units:
        return units[prov].power
    if rule == "deluge_chain":
        return position.last_occupants.get(prov) or territories.get(prov)
    return None


def apply_changes(
    variant: Variant,
    timeline: Timeline,
    settings: Settings,
    map_state: MapState,
    position: Position,
    changes: tuple[Scheduled, ...],
    stay: frozenset[str] = frozenset(),
) -> tuple[MapState, Position, tuple[dict[str, Any], ...]]:
    """One hook's changes and the whole fix-up pipeline, in the order of the module docstring."""
    terrain, events = change_terrain(map_state.terrain, changes)
    units: Units = dict(position.units)
    units, removed = remove_on_impassable(terrain, units)
    units, stranded = strand_fleets(variant, terrain, units, settings.stranded_fleets, stay)
    units, landed = land_armies_aboard(terrain, units)
    units, sunk = sink_armies(terrain, units, settings.sunk_armies)
    frozen = variant.impassable_seas == "shore"
    changed = [e["province"] for e in events]
    coasts = (
        recompute_coasts(variant, terrain, timeline.coast_names, frozen, map_state.coasts, changed)
        if changed
        else map_state.coasts
    )
    units, moved = place_fleets(map_state, coasts, frozen, variant, terrain, units)
    centres, homes, owners, centre_events = change_centres(
        timeline, settings, terrain, map_state, position, units, changes
    )
    coast_events = [
        {
            "kind": "coasts",
            "province": p,
            "coasts": {c: sorted(w) for c, w in sorted(coasts.get(p, {}).items())},
        }
        for p in sorted({n for c in changed for n in variant.borders[c]} | set(changed))
        if terrain[p] is Terrain.LAND and _coasts_differ(coasts.get(p, {}), map_state.coasts.get(p, {}))
    ]
    new_map = MapState(terrain=terrain, coasts=coasts, supply_centres=centres, homes=homes)
    new_position = Position(
        position.phase, FrozenMap(units), FrozenMap(owners), position.dislodged, position.last_occupants
    )
    everything = [*events, *removed, *stranded, *landed, *sunk, *coast_events, *moved, *centre_events]
    return new_map, new_position, tuple(everything)


def _coasts_differ(new: Mapping[str, frozenset[str]], old: Mapping[str, frozenset[str]]) -> bool:
    return set(new) != set(old) or any(frozenset(new[c]) != frozenset(old[c]) for c in new)


def _unit_event(kind: str, unit: Unit, reason: str, to: Unit | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"kind": kind, "power": unit.power, "unit": str(unit), "reason": reason}
    if to is not None:
        event["to"] = str(to)
    return event
