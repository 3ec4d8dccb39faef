"""The one place where database rows and engine values meet.

A ``Phase`` row's ``snapshot`` is plain JSON, complete enough to draw and replay the phase without the
variant's timeline (a map that changed is stored as it stood):

.. code-block:: text

    {
      "phase": "F1902R",
      "map": {
        "terrain": {"NTH": "sea", "LON": "land", "BAR": "impassable", ...},   # every province
        "coasts": {"STP": {"NC": ["BAR"], "SC": ["BOT"]}, ...},              # named coasts -> waters
        "supply_centres": ["ANK", "BEL", ...],                               # sorted
        "homes": {"LON": "ENGLAND", ...}                                     # home centre -> power
      },
      "units": [{"power": "ENGLAND", "type": "F", "location": "NTH"}, ...],  # sorted by location
      # (an A/F, a fleet with an army aboard under the Abstraction rules, has "aboard": true)
      "owners": {"LON": "ENGLAND", ...},                                     # centre -> owner
      "dislodged": [{"power": "FRANCE", "type": "A", "location": "BUR",
                     "attacker_from": "MUN", "retreats": ["GAS", "PAR"]}, ...],  # and, for a Sahara
                                       # fleet told to stay a fleet, "stays_fleet": true (E16)
      "last_occupants": {"HOL": "GERMANY", ...},                            # Deluge bookkeeping
      "stay_flags": ["NAO"],           # only in a retreat phase: Sahara fleets told to stay fleets
      "modules": {                     # only in games with rule modules (blizzards, supply lines)
        "state": {...},                # ModuleState.to_data(): this phase's blizzards, storms, depots, marks
        "events": [{"kind": "blizzards", "phase": "S1902M", "provinces": ["BAR", "NWG"], ...}],
        "supply": {"phase": ..., "units": {"MOS": {"supplied": true, ..., "marks": 0}}, "depots": {}},
        "check": {...} | null,         # the supply check made after the previous phase, if one was due
        "refused": [{"power": ..., "order": ..., "reason": ...}]   # module orders of the previous phase
      }
    }

The processed phase also stores ``orders`` (power -> order texts in short notation, as adjudicated),
``results`` (one record per order, ``dipserver/engine/records.py``: ``power``, ``order``, ``outcome``,
``reason``, ``dislodged``, ``kind``, ``unit``, ``from``, ``to``, ``via``) and
``events`` (the timeline's map-change events, as the engine reports them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine import (
    Board,
    Dislodged,
    Drawing,
    MapState,
    Opened,
    Position,
    SupplyReport,
    Unit,
    UnitType,
    Variant,
    board_for,
)
from dipserver.engine import Phase as EnginePhase
from dipserver.engine import order_drawing as engine_order_drawing

Snapshot = dict[str, Any]


def snapshot_from(map_state: MapState, position: Position) -> Snapshot:
    """The JSON snapshot of ``position`` on ``map_state`` (schema in the module docstring)."""
    return {
        "phase": str(position.phase),
        "map": {
            "terrain": {prov: terrain.value for prov, terrain in sorted(map_state.terrain.items())},
            "coasts": {
                prov: {coast: sorted(waters) for coast, waters in sorted(named.items())}
                for prov, named in sorted(map_state.coasts.items())
            },
            "supply_centres": sorted(map_state.supply_centres),
            "homes": dict(sorted(map_state.homes.items())),
        },
        "units": [_unit_json(u) for u in sorted(position.units.values(), key=lambda u: u.location)],
        "owners": dict(sorted(position.owners.items())),
        "dislodged": [
            {
                **_unit_json(d.unit),
                "attacker_from": d.attacker_from,
                "retreats": list(d.retreats),
                **({"stays_fleet": True} if d.stays_fleet else {}),
            }
            for _, d in sorted(position.dislodged.items())
        ],
        "last_occupants": dict(sorted(position.last_occupants.items())),
    }


def modules_json(
    opened: Opened, check: SupplyReport | None = None, played: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``modules`` part of a snapshot: the phase as the rule modules opened it, plus what the previous
    phase's play reported (``Played.to_data()``)."""
    return {
        "state": opened.state.to_data(),
        "events": [dict(e) for e in opened.events],
        "supply": opened.supply.to_data(opened.state.supply) if opened.supply else None,
        "check": (played or {}).get("check") if check is not None else None,
        "refused": list((played or {}).get("refused", [])),
    }


def map_state_of(snapshot: Mapping[str, Any]) -> MapState:
    data = snapshot["map"]
    return MapState(
        terrain=data["terrain"],
        coasts={prov: {c: frozenset(w) for c, w in named.items()} for prov, named in data["coasts"].items()},
        supply_centres=frozenset(data["supply_centres"]),
        homes=data["homes"],
    )


def position_of(snapshot: Mapping[str, Any]) -> Position:
    units = [_unit_of(u) for u in snapshot["units"]]
    dislodged = {
        (unit := _unit_of(d)).province: Dislodged(
            unit, d["attacker_from"], tuple(d["retreats"]), bool(d.get("stays_fleet"))
        )
        for d in snapshot["dislodged"]
    }
    return Position(
        phase=EnginePhase.parse(snapshot["phase"]),
        units={u.province: u for u in units},
        owners=dict(snapshot["owners"]),
        dislodged=dislodged,
        last_occupants=dict(snapshot.get("last_occupants", {})),
    )


def board_of(variant: Variant, snapshot: Mapping[str, Any]) -> Board:
    """The phase's board: the variant's geometry seen through the snapshot's map (memoised by the engine)."""
    return board_for(variant, map_state_of(snapshot))


def centre_counts(snapshot: Mapping[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for owner in snapshot["owners"].values():
        counts[owner] = counts.get(owner, 0) + 1
    return counts


# An order drawn as a line in the list only, or one that no longer reads.
NOT_DRAWN = Drawing("none").to_data()


def order_drawing(
    power: str, order: object, position: Position, board: Board | None, text: str = ""
) -> dict[str, Any]:
    """How the map draws ``order`` (``power``'s, not yet adjudicated) in ``position``'s phase, as the
    page takes it: the engine's drawing of its record (``Drawing.to_data``), as the options carry it."""
    return engine_order_drawing(power, order, position, board, text).to_data()


def _unit_json(unit: Unit) -> dict[str, Any]:
    data: dict[str, Any] = {"power": unit.power, "type": unit.type.value, "location": unit.location}
    if unit.aboard:  # an A/F: a fleet with an army of its power aboard (Abstraction, Deluge)
        data["aboard"] = True
    return data


def _unit_of(data: Mapping[str, Any]) -> Unit:
    return Unit(data["power"], UnitType(data["type"]), data["location"], bool(data.get("aboard")))
