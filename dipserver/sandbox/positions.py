"""Checking a sandbox's setup edits: a unit placed where it can stand on the step's map, a centre given to
a power of the variant. Pure checks on the step's board and snapshot; ``services.step_setup`` writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine import Board, UnitType
from dipserver.sandbox.errors import SandboxError


def unit_checked(board: Board, powers: Mapping[str, Any], unit: Mapping[str, Any]) -> dict[str, Any]:
    """The unit as a snapshot stores it, or why it cannot stand there now (the engine's board says)."""
    power = str(unit.get("power", "")).upper()
    kind = str(unit.get("type", "")).upper()
    location = str(unit.get("location", "")).upper()
    if power not in powers:
        raise SandboxError(f"There is no power {power!r} in this variant", code="refused")
    if kind not in ("A", "F"):
        raise SandboxError(f"A unit is an army (A) or a fleet (F), not {kind!r}", code="refused")
    province, _, coast = location.partition("/")
    if province not in board.map_state.terrain:
        raise SandboxError(f"There is no province {province!r} on this map", code="refused")
    if not board.can_occupy(UnitType(kind), location):
        coasts = board.coasts(province)
        if kind == "F" and coasts and not coast:
            where = " or ".join(f"{province}/{c}" for c in coasts)
            raise SandboxError(f"Say which coast of {province} the fleet is on: {where}", code="refused")
        what = "an army" if kind == "A" else "a fleet"
        raise SandboxError(f"{what.capitalize()} cannot stand in {location} on this map now", code="refused")
    return {"power": power, "type": kind, "location": location}


def owners_set(
    snapshot: Mapping[str, Any], powers: Mapping[str, Any], changes: Mapping[str, str | None]
) -> dict[str, str]:
    """The snapshot's centre owners with ``changes`` made (a power, or ``None``: nobody), each checked."""
    owners = dict(snapshot["owners"])
    centres = set(snapshot["map"]["supply_centres"])
    for province, power in changes.items():
        province = str(province).upper()
        if province not in centres:
            raise SandboxError(f"{province} is not a supply centre on this map now", code="refused")
        if power is None or power == "":
            owners.pop(province, None)
        elif str(power).upper() in powers:
            owners[province] = str(power).upper()
        else:
            raise SandboxError(f"There is no power {power!r} in this variant", code="refused")
    return dict(sorted(owners.items()))
