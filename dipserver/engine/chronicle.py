"""The timeline as the command line shows it: hooks and events in words, the map of a phase as data.

``describe`` tells a variant's timeline season by season (the ``timeline`` command), ``map_at`` gives the
map of a phase as plain data (``map --at``). One event of a hook's result in words (``event_text``) and a
map as plain data (``map_data``) are every answer's, and ``hooks.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine.board import MapState
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import _HOOK_POINT, _PHASE_POINT, HOOK_WORDS, event_text, map_data
from dipserver.engine.position import Position
from dipserver.engine.timeline import Change, Event, load_timeline, walk
from dipserver.engine.timelinerows import already_made
from dipserver.engine.types import Phase


def describe(variant: Variant, options: Mapping[str, Any], secret: str | None = None) -> list[str]:
    """The timeline season by season, in words, as the map changes with the start units standing still."""
    lines = []
    for year, hook, step in walk(variant, options, secret):
        if step.events:
            lines.append(f"{year} {HOOK_WORDS[hook]}:")
            lines.extend(f"  {event_text(e)}" for e in step.events)
    timeline = load_timeline(variant)
    resolved = timeline.game_options(options)
    lines.extend(conditional_text(e) for e in timeline.events if e.when is not None and e.applies(resolved))
    return lines


_CHANGE_WORDS = {
    Change.LAND: "becomes land",
    Change.SEA: "becomes sea",
    Change.IMPASSABLE: "becomes impassable",
    Change.SC_GAIN: "becomes a supply centre",
    Change.SC_LOSS: "stops being a supply centre",
}


def conditional_text(event: Event) -> str:
    """A conditional event in words: ``"From 1903, after the Autumn retreats of any year when GERMANY
    controls MOS: MOS becomes impassable"``."""
    assert event.when is not None
    years = (
        f"From {event.year} to {event.until}"
        if event.year and event.until
        else f"From {event.year}"
        if event.year
        else f"Until {event.until}"
        if event.until
        else "Any year"
    )
    if event.change is Change.SC_LOSS_ALL:
        change = "every supply centre but " + (", ".join(event.keep) or "none") + " stops being one"
    else:
        change = f"{', '.join(event.provinces)} {_CHANGE_WORDS[event.change]}"
    return f"{years}, {HOOK_WORDS[event.hook]}, when {event.when.text()}: {change}"


def conditions_data(
    variant: Variant, options: Mapping[str, Any], map_state: MapState, position: Position
) -> list[dict[str, Any]]:
    """Each conditional event a game with ``options`` plays, as plain data: its number, hook, change and
    provinces (for sc_loss_all, those kept), its years, its condition (kind, power, provinces, centres)
    in data and in words, whether the condition holds on ``position`` now, and whether its changes are
    on ``map_state`` already (then it fires no more)."""
    timeline = load_timeline(variant)
    resolved = timeline.game_options(options)
    rows = []
    for event in timeline.events:
        if event.when is None or not event.applies(resolved):
            continue
        when = event.when
        rows.append(
            {
                "event": event.number,
                "hook": str(event.hook),
                "change": str(event.change),
                "provinces": list(event.keep if event.change is Change.SC_LOSS_ALL else event.provinces),
                "from_year": event.year,
                "until_year": event.until,
                "condition": {
                    "kind": when.kind,
                    "power": when.power,
                    "provinces": list(when.provinces),
                    "centres": when.count or None,
                },
                "words": conditional_text(event),
                "holds": when.holds(position, map_state.supply_centres),
                "made": already_made(event, map_state),
            }
        )
    return rows


def map_at(
    variant: Variant, phase: Phase | str, options: Mapping[str, Any], secret: str | None = None
) -> dict[str, Any]:
    """The map of ``phase`` as plain data: every province's terrain, coasts, centre, owner and home.

    Owners are those the timeline alone gives (the start owners, changed by the map, units standing still).
    """
    target = Phase.parse(phase) if isinstance(phase, str) else phase
    point = (target.year, _PHASE_POINT[target.season.value + target.type.value])
    map_state, position = variant.map_state, variant.start
    for year, hook, step in walk(variant, options, secret):
        if (year, _HOOK_POINT[hook]) > point:
            break
        map_state, position = step.map_state, step.position
    return {**map_data(map_state, position), "phase": str(target)}
