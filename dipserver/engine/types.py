"""The engine's shared vocabulary: plain, immutable values that cross module boundaries.

Everything here is pure data. Locations are upper-case strings: a province code (``"LON"``) or a
province code with a coast (``"STP/NC"``). Powers are upper-case names as the variant spells them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

# The variant's build rules (``Variant.build_rule``), named here so a module can test one without
# importing the adjustment phase (``adjustments.py``, which applies them).
HOME = "home"  # build only on owned home centres (the standard rule)
OWNED = "owned"  # build on any owned centre
BESIDE = "beside"  # build on an owned centre with a unit of one's own beside it (Ice Lords recruits so)


class Terrain(StrEnum):
    LAND = "land"
    SEA = "sea"
    IMPASSABLE = "impassable"  # closed: ice, desert; nothing may enter
    ABSENT = "absent"  # not (yet) on the board

    @property
    def passable(self) -> bool:
        return self is Terrain.LAND or self is Terrain.SEA


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(StrEnum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase id such as ``S1901M``, ``F1905R`` or ``W1907A``."""

    year: int
    season: Season
    type: PhaseType

    @classmethod
    def parse(cls, text: str) -> Phase:
        m = _PHASE_RE.match(text.strip().upper())
        if not m:
            raise ValueError(f"{text!r} is not a phase name like S1901M, F1905R or W1907A")
        season, year, kind = m.groups()
        phase = cls(int(year), Season(season), PhaseType(kind))
        if (phase.season is Season.WINTER) != (phase.type is PhaseType.ADJUSTMENTS):
            raise ValueError(f"{text!r}: adjustments happen in Winter and only in Winter")
        return phase

    def __str__(self) -> str:
        return self.season + str(self.year) + self.type  # StrEnum members: plain strings added

    def sort_key(self) -> tuple[int, int]:
        order = {"SM": 0, "SR": 1, "FM": 2, "FR": 3, "WA": 4}
        return (self.year, order[self.season + self.type])

    # Pickled (the variant cache keeps a start position) as a call of its constructor: compiled, a frozen
    # dataclass is not unpickled field by field, and the pickle is then the same compiled and not.
    def __reduce__(self) -> tuple[Any, ...]:
        return (Phase, (self.year, self.season, self.type))


def province_of(location: str) -> str:
    """``"STP/NC"`` -> ``"STP"``; ``"LON"`` -> ``"LON"``."""
    cut = location.find("/")  # compiled, no list made (``split``'s): the engine asks this everywhere
    return location if cut < 0 else location[:cut]


def coast_of(location: str) -> str | None:
    """``"STP/NC"`` -> ``"NC"``; ``"LON"`` -> ``None``."""
    _, _, coast = location.partition("/")
    return coast or None


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: whose, army or fleet, and where."""

    power: str
    type: UnitType
    location: str  # province, or province/coast for a fleet on a multi-coast province
    # Abstraction A/F (variant-rulings 5.6): a fleet at sea with an army of its power aboard. It moves,
    # supports and is supported as the fleet; the army may land again (``Disembark``).
    aboard: bool = False

    @property
    def province(self) -> str:
        return province_of(self.location)

    @property
    def letters(self) -> str:
        """``A``, ``F``, or ``A/F`` for a fleet with an army aboard."""
        return "A/F" if self.aboard else self.type  # the member is its string (``.value`` is a slow property)

    def __str__(self) -> str:
        return ("A/F" if self.aboard else self.type) + " " + self.location

    def __reduce__(self) -> tuple[Any, ...]:
        return (Unit, (self.power, self.type, self.location, self.aboard))  # as ``Phase``'s


def unit_moved(power: str, unit_type: UnitType, loc: str) -> Unit:
    """A ``Unit`` value, memoised: units are immutable and a phase moves a dozen of them. One table per
    type and power, keyed by the location: no key to build, and none with the enum in it."""
    by_power = _ARMIES if unit_type is UnitType.ARMY else _FLEETS
    cache = by_power.get(power)
    if cache is None:
        cache = by_power[power] = {}
    unit = cache.get(loc)
    if unit is None:
        unit = Unit(power, unit_type, loc)
        if len(cache) < 1024:
            cache[loc] = unit
    return unit


_ARMIES: Final[dict[str, dict[str, Unit]]] = {}
_FLEETS: Final[dict[str, dict[str, Unit]]] = {}
