"""The rows of a timeline file (``timelinefile.py`` reads them): the changes they make, the variant's own
switches (``OptionSpec``), whether a row could ever change anything in a game (``never_applies``, for the
reader's checks), and which conditional rows fire at a hook (``conditional``). Only a variant with a
timeline file loads them: a game without one asks only for its hooks (``hooks.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dipserver.engine.board import MapState
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import Hook
from dipserver.engine.position import Position
from dipserver.engine.types import Terrain

if TYPE_CHECKING:
    from dipserver.engine.conditions import Condition


class Change(StrEnum):
    LAND = "land"  # sea, impassable or absent province becomes passable land
    SEA = "sea"  # land sinks
    IMPASSABLE = "impassable"  # icebergs, desert: nothing may stand there
    SC_GAIN = "sc_gain"
    SC_LOSS = "sc_loss"
    SC_LOSS_ALL = "sc_loss_all"  # every centre except those listed in `except`


TERRAIN_OF = {Change.LAND: Terrain.LAND, Change.SEA: Terrain.SEA, Change.IMPASSABLE: Terrain.IMPASSABLE}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One of the variant's own switches (``[options]``): its default, and the settings it overrides."""

    name: str
    default: bool
    description: str
    settings: Mapping[str, str] = field(default_factory=dict)  # settings it overrides when on


@dataclass(frozen=True, slots=True)
class Event:
    """One row of a timeline file."""

    number: int  # 1-based position among the file's [[events]], for messages
    change: Change
    hook: Hook
    provinces: tuple[str, ...] = ()
    year: int | None = None  # fixed year, or ...
    chance: tuple[tuple[int, int], ...] = ()  # ... (year, cumulative per cent) pairs
    only_with: str | None = None  # option that must be on
    only_without: str | None = None  # option that must be off
    keep: tuple[str, ...] = ()  # sc_loss_all: the centres that survive
    when: Condition | None = None  # fires at its hook of each year its condition holds (``year``: from)
    until: int | None = None  # a conditional event's last year

    def applies(self, options: Mapping[str, Any]) -> bool:
        if self.only_with is not None and not options[self.only_with]:
            return False
        return self.only_without is None or not options[self.only_without]


@dataclass(frozen=True, slots=True)
class Scheduled:
    """One change to one province, placed at its year and hook."""

    year: int
    hook: Hook
    change: Change
    province: str | None  # None for sc_loss_all
    keep: tuple[str, ...] = ()
    entry: str = ""  # the id its random draw used, empty when it was not drawn


def never_applies(variant: Variant, events: tuple[Event, ...], event: Event, province: str) -> str | None:
    """Why ``event`` can never change ``province`` (one of its provinces, or of an sc_loss_all's survivors),
    whatever the other events do first; None when some game could see it apply."""
    terrain = variant.map_state.terrain[province]
    centre = province in variant.map_state.supply_centres
    others = [e for e in events if e is not event and province in e.provinces]
    to = TERRAIN_OF.get(event.change)
    if to is not None:
        if terrain is to and not any(e.change in TERRAIN_OF for e in others):
            return f"it is {to.value} from the start and no event changes its terrain"
        return None
    can_be_land = terrain is Terrain.LAND or any(e.change is Change.LAND for e in others)
    can_be_centre = centre or any(e.change is Change.SC_GAIN for e in others)
    if event.change is Change.SC_GAIN:
        if not can_be_land:
            return f"it is {terrain.value} from the start and no event makes it land: a centre stands on land"
        can_lose = any(e.change in (Change.SC_LOSS, Change.SEA, Change.IMPASSABLE) for e in others) or any(
            e.change is Change.SC_LOSS_ALL and province not in e.keep for e in events
        )
        if centre and not can_lose:
            return "it is a supply centre from the start and no event takes its centre away"
        return None
    if not can_be_centre:  # sc_loss, or a survivor an sc_loss_all names
        return "it is not a supply centre at the start and no event makes it one"
    return None


def conditional(
    events: list[Event], options: Mapping[str, Any], map_state: MapState, position: Position, year: int
) -> tuple[tuple[Event, tuple[Scheduled, ...]], ...]:
    """Which of a hook's conditional ``events`` fire in ``year`` (``options``: the game's, resolved):
    those within their years whose condition holds on ``position`` and whose changes would change the map
    (so a condition that still holds fires no second time), each with those changes."""
    fired = []
    for event in events:
        if not event.applies(options) or not (event.year or year) <= year <= (event.until or year):
            continue
        if event.when is None or not event.when.holds(position, map_state.supply_centres):
            continue
        changes = tuple(c for c in _changes_of(event, year) if _changes_something(c, map_state))
        if changes:
            fired.append((event, changes))
    return tuple(fired)


def already_made(event: Event, map_state: MapState) -> bool:
    """Whether every change ``event`` makes is on the map already: a conditional event then fires no more
    (until the map is changed back)."""
    return not any(_changes_something(c, map_state) for c in _changes_of(event, event.year or 0))


def _changes_of(event: Event, year: int) -> tuple[Scheduled, ...]:
    if event.change is Change.SC_LOSS_ALL:
        return (Scheduled(year, event.hook, event.change, None, event.keep),)
    return tuple(Scheduled(year, event.hook, event.change, province) for province in event.provinces)


def _changes_something(change: Scheduled, map_state: MapState) -> bool:
    centres = map_state.supply_centres
    if change.change is Change.SC_LOSS_ALL:
        return bool(centres - set(change.keep))
    assert change.province is not None
    if change.change is Change.SC_GAIN:
        return change.province not in centres
    if change.change is Change.SC_LOSS:
        return change.province in centres
    return map_state.terrain[change.province] is not TERRAIN_OF[change.change]
