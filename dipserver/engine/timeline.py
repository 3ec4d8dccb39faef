"""A variant's timeline: the map changes it schedules at hooks between phases, read from data.

``variants/<slug>/timeline.toml`` lists events (format: ``variants/README.md``, "Timelines"). Each event
changes terrain (land, sea, impassable) or supply-centre status for some provinces, at a hook of a year,
or with cumulative chances over several years (Wall of Ice). A game's options pick exact or random mode
and the variant's own switches (Sahara ``errata``, Deluge ``swap_sil_swi`` ...). ``schedule`` resolves
all of it once into "which changes fire at which (year, hook)"; ``apply_hook`` applies one hook's changes
and runs the fix-up pipeline (``fixups.py``), returning a new map, a new position and the events as plain
data. Deluge's build rule is in ``builds.py``; the timeline in words (``describe``, ``event_text``) and the
map of a phase (``map_at``) in ``chronicle.py``.

This module is the timeline's whole face. Its parts load apart, so that a game whose variant has no
timeline file loads only what it asks for: the hooks (``hooks.py``), the ``Timeline`` value
(``timelinedata.py``) and each variant's, read once (``timelinecache.py``). The file's reader
(``timelinefile.py``), its rows (``timelinerows.py``) and this module's schedule and hooks applied load
with a timeline file's events only (``turn.py`` runs the hooks only then).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dipserver.engine import fixups
from dipserver.engine.board import MapState
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import _HOOK_POINT as _HOOK_POINT
from dipserver.engine.hooks import _PHASE_POINT as _PHASE_POINT
from dipserver.engine.hooks import Hook as Hook
from dipserver.engine.hooks import hooks_between as hooks_between
from dipserver.engine.position import Position
from dipserver.engine.timelinecache import load_timeline as load_timeline
from dipserver.engine.timelinedata import MODES as MODES
from dipserver.engine.timelinedata import Settings as Settings  # the pipeline's settings, read from here
from dipserver.engine.timelinedata import Timeline as Timeline
from dipserver.engine.timelinedata import TimelineError as TimelineError
from dipserver.engine.timelinefile import ORDER_KINDS as ORDER_KINDS
from dipserver.engine.timelinerows import TERRAIN_OF as TERRAIN_OF
from dipserver.engine.timelinerows import Change as Change
from dipserver.engine.timelinerows import Event as Event
from dipserver.engine.timelinerows import OptionSpec as OptionSpec
from dipserver.engine.timelinerows import Scheduled as Scheduled
from dipserver.engine.timelinerows import conditional

# --- resolving the schedule -------------------------------------------------------------------------


Schedule = Mapping[tuple[int, Hook], tuple[Scheduled, ...]]


def schedule(timeline: Timeline, options: Mapping[str, Any], secret: str | None = None) -> Schedule:
    """Every change of the game, keyed by (year, hook), in file order within a hook."""
    resolved = timeline.game_options(options)
    if resolved["mode"] == "random" and not secret and any(e.chance for e in timeline.events):
        raise TimelineError(f"{timeline.slug}: random mode needs the game's secret")
    key = tuple(sorted(resolved.items()))
    return _schedule_cached(timeline, key, secret if resolved["mode"] == "random" else None)


@functools.lru_cache(maxsize=256)
def _schedule_cached(
    timeline: Timeline, options: tuple[tuple[str, Any], ...], secret: str | None
) -> Schedule:
    opts = dict(options)
    slots: dict[tuple[int, Hook], list[Scheduled]] = {}
    for event in timeline.events:
        if event.when is not None or not event.applies(opts):
            continue  # a conditional event fires on the position, not on a date (``conditional``)
        if event.change is Change.SC_LOSS_ALL:
            assert event.year is not None  # the reader guarantees a year for non-chance events
            slots.setdefault((event.year, event.hook), []).append(
                Scheduled(event.year, event.hook, event.change, None, event.keep)
            )
            continue
        for province in event.provinces:
            entry, year = "", event.year
            if event.chance:
                # Only chances draw (hashlib, hmac and secrets are a start-up cost of their own).
                from dipserver.engine import randomness

                chance = dict(event.chance)
                entry = f"{timeline.slug}/{event.change}/{province}"
                year = (
                    randomness.exact_year(chance)
                    if secret is None
                    else randomness.year_for(randomness.draw(secret, entry), chance)
                )
            assert year is not None
            slots.setdefault((year, event.hook), []).append(
                Scheduled(year, event.hook, event.change, province, entry=entry)
            )
    return MappingProxyType({slot: tuple(changes) for slot, changes in slots.items()})


def last_year(timeline: Timeline, options: Mapping[str, Any], secret: str | None = None) -> int | None:
    """The year of the last change, or ``None`` for a map that never changes."""
    years = [year for year, _ in schedule(timeline, options, secret)]
    return max(years) if years else None


# --- applying a hook --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HookResult:
    """A hook applied: the map and position after it, and what changed."""

    map_state: MapState
    position: Position
    events: tuple[Mapping[str, Any], ...]  # what changed, as plain data for the answer's "events"


def apply_hook(
    variant: Variant,
    options: Mapping[str, Any],
    map_state: MapState,
    position: Position,
    hook: Hook,
    year: int,
    flags: frozenset[str] = frozenset(),
    secret: str | None = None,
) -> HookResult:
    """Apply the changes the timeline schedules at ``hook`` of ``year``, then the fix-up pipeline.

    ``flags`` are the provinces of fleets whose owners ordered them to *stay a fleet* this season (Sahara,
    E16), given where the fleets stand after the season's movement and retreats.
    """
    timeline = load_timeline(variant)
    if hook in (Hook.AFTER_SPRING_RETREATS, Hook.AFTER_FALL_RETREATS):
        position = fixups.record_occupants(position)
    changes = schedule(timeline, options, secret).get((year, hook), ())
    due = [event for event in timeline.events if event.when is not None and event.hook is hook]
    fired = conditional(due, timeline.game_options(options), map_state, position, year) if due else ()
    if not changes and not fired:
        return HookResult(map_state, position, ())
    changes = (*changes, *(change for _, due in fired for change in due))
    settings = timeline.settings_for(timeline.game_options(options))
    new_map, new_position, events = fixups.apply_changes(
        variant, timeline, settings, map_state, position, changes, flags
    )
    met = tuple(
        {"kind": "condition_met", "event": e.number, "when": e.when.text()} for e, _ in fired if e.when
    )
    return HookResult(new_map, new_position, met + events)


def walk(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str | None = None,
    position: Position | None = None,
) -> list[tuple[int, Hook, HookResult]]:
    """Every hook from the start to the last change, applied in turn with units that never move.

    The map it yields is the game's map whatever the players do; the units are the start position's
    (or ``position``'s) as the changes alone leave them. For ``check``, the CLI and tests.
    """
    timeline = load_timeline(variant)
    end = last_year(timeline, options, secret)
    map_state, pos = variant.map_state, position or variant.start
    steps = []
    for year in range(pos.phase.year, (end or pos.phase.year - 1) + 1):
        for hook in Hook:
            result = apply_hook(variant, options, map_state, pos, hook, year, secret=secret)
            map_state, pos = result.map_state, result.position
            steps.append((year, hook, result))
    return steps
