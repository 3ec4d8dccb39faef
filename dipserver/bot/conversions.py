"""The variant's conversion orders (``options["conversions"]``), used where the unit will serve better as
the other kind on the map the timeline is making: a fleet whose waters are freezing or drying becomes an
army before it strands; an army on a coast that is sinking into the sea becomes a fleet; a fleet the
drying would turn into an army stays a fleet where it will still have water."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.bot.scoring import Worth
from dipserver.bot.view import View

MARGIN = 1.0  # the other kind must be worth this much more: a conversion costs the unit's order


def conversion_orders(
    view: View, worth: Worth, options: Mapping[str, Any], *, holding: set[str]
) -> list[str]:
    """The conversion orders worth giving. ``holding``: the units that stay put this phase (an army
    becoming a fleet holds meanwhile, so only those may convert in a movement phase)."""
    chosen: list[str] = []
    seen: set[str] = set()
    for option in options.get("conversions", []):
        unit = str(option.get("unit", ""))
        province = unit.split("/")[0]
        if province in seen:
            continue
        if _worth_it(view, worth, str(option.get("kind")), province, unit, holding):
            chosen.append(str(option["text"]))
            seen.add(province)
    return chosen


def replaced(option: Mapping[str, Any]) -> bool:
    """Whether the conversion stands instead of the unit's own order: an army becoming a fleet holds
    meanwhile, and the order reader refuses a second order for it."""
    return option.get("kind") == "convert_to_fleet"


def _worth_it(view: View, worth: Worth, kind: str, province: str, unit: str, holding: set[str]) -> bool:
    as_army, as_fleet = worth.usefulness(province, "A"), worth.usefulness(province, "F")
    if kind == "convert_to_army":
        stranding = worth.outlook.fate(province, "F", within=2) in ("stranded", "removed")
        return as_army > as_fleet + MARGIN or (stranding and as_army > 0)
    if kind == "convert_to_fleet":
        if view.phase_type == "M" and unit not in holding:
            return False
        return as_fleet > as_army + MARGIN
    if kind == "stay_fleet":
        return as_fleet > as_army + MARGIN
    return False
