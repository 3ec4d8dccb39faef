"""The hooks of a variant's timeline: the moments between phases at which its map may change (ruling E1),
which of them run between two phases (``hooks_between``), and what a hook did as the answers give it: its
events in words (``event_text``) and the map after it as plain data (``map_data``). Every game asks this,
with a timeline file or without; the rows of a timeline file are ``timelinerows.py``'s, the timeline in
words ``chronicle.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dipserver.engine.types import Phase

if TYPE_CHECKING:
    from dipserver.engine.mapstate import MapState
    from dipserver.engine.position import Position


class Hook(StrEnum):
    """The moments between phases at which a map may change (ruling E1), in the order they occur."""

    AFTER_SPRING_RETREATS = "after_spring_retreats"
    AFTER_FALL_RETREATS = "after_fall_retreats"
    BEFORE_WINTER_ADJUSTMENTS = "before_winter_adjustments"
    AFTER_WINTER_ADJUSTMENTS = "after_winter_adjustments"


# Each phase and hook as a point on a year's clock: a hook runs between two phases iff its point lies
# between theirs. The two Autumn-to-Winter hooks share a moment; their order is the list order.
_PHASE_POINT = {"SM": 0, "SR": 10, "FM": 20, "FR": 30, "WA": 40}
_HOOK_POINT = {
    Hook.AFTER_SPRING_RETREATS: 15,
    Hook.AFTER_FALL_RETREATS: 35,
    Hook.BEFORE_WINTER_ADJUSTMENTS: 36,
    Hook.AFTER_WINTER_ADJUSTMENTS: 45,
}


def hooks_between(done: Phase, following: Phase) -> tuple[tuple[int, Hook], ...]:
    """The (year, hook) pairs to run after phase ``done`` when ``following`` is the next phase played.

    Hooks run even when a retreat or adjustment phase is skipped (E30). Run the before-Winter hook
    *before* deciding whether to skip a Winter: it may create the centres that give someone a build.
    """
    start = (done.year, _PHASE_POINT[done.season.value + done.type.value])
    end = (following.year, _PHASE_POINT[following.season.value + following.type.value])
    return tuple(
        (year, hook)
        for year in range(done.year, following.year + 1)
        for hook, point in _HOOK_POINT.items()
        if start < (year, point) < end
    )


# Hooks as players read them (command line, admin, pages).
HOOK_WORDS = {
    Hook.AFTER_SPRING_RETREATS: "after the Spring retreats",
    Hook.AFTER_FALL_RETREATS: "after the Autumn retreats",
    Hook.BEFORE_WINTER_ADJUSTMENTS: "before the Winter adjustments",
    Hook.AFTER_WINTER_ADJUSTMENTS: "after the Winter adjustments",
}


def event_text(event: Mapping[str, Any]) -> str:
    """One event in words, e.g. ``"BAR becomes impassable"`` or ``"F SYR (TURKEY) becomes A SYR"``."""
    kind = event["kind"]
    if kind == "terrain":
        return f"{event['province']} becomes {event['to']}"
    if kind == "unit_removed":
        return f"{event['unit']} ({event['power']}) is removed: {event['reason']}"
    if kind in ("unit_converted", "fleet_moved"):
        return f"{event['unit']} ({event['power']}) becomes {event['to']}: {event['reason']}"
    if kind == "coasts":
        coasts = event["coasts"]
        named = "; ".join(f"{c} on {', '.join(w)}" for c, w in coasts.items())
        return f"{event['province']} coasts: {named}" if coasts else f"{event['province']} has one coast"
    if kind == "centre_lost":
        return f"{event['province']} stops being a supply centre" + (
            f" (was {event['owner']})" * bool(event["owner"])
        )
    if kind == "condition_met":
        return f"{event['when']} (event {event['event']})"
    if kind == "centre_gained":
        owner = event["owner"] or "nobody"
        home = f", home of {event['home']}" if event.get("home") else ""
        return f"{event['province']} becomes a supply centre (owner {owner}{home})"
    return str(dict(event))


def map_data(state: MapState, position: Position) -> dict[str, Any]:
    """A map as plain data (the command line's ``map --at``): every province's terrain, coasts, centre,
    owner and home, with the position's phase."""
    return {
        "phase": str(position.phase),
        "provinces": {
            code: {
                "terrain": state.terrain[code].value,
                "coasts": sorted(state.coasts.get(code, {})),
                "sc": code in state.supply_centres,
                "owner": position.owners.get(code),
                "home": state.homes.get(code),
            }
            for code in sorted(state.terrain)
        },
    }
