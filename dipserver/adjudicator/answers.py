"""The next position of an answer of ``adjudicate`` (``jsonio.py`` has its shape) as JSON data, in the
request's own shape; and the tables of each variant's powers and homes that reading a request uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from dipserver.engine.types import UnitType

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.position import Position
    from dipserver.engine.variant import Variant

_MAX_BOARDS = 64  # the boards whose home tables are kept: one per variant, and per home set a request gives

_ARMY_TEXTS: Final[dict[str, str]] = {}  # location -> "A <location>"
_FLEET_TEXTS: Final[dict[str, str]] = {}  # location -> "F <location>"


def position_data(variant: Variant, position: Position, board: Board) -> dict[str, Any]:
    """A position in the request's shape (without orders): every power listed, lists sorted."""
    powers = _powers(variant)
    units: dict[str, list[str]] = {power: [] for power in powers}
    armies, fleets, army = _ARMY_TEXTS, _FLEET_TEXTS, UnitType.ARMY
    for unit in position.units.values():
        loc = unit.location
        if unit.aboard:
            text = "A/F " + loc  # an army aboard (5.6)
        else:  # ``str(unit)``, kept by location: one lookup, not a property call and a new string a unit
            texts = armies if unit.type is army else fleets
            found = texts.get(loc)
            if found is None:
                found = ("A " if texts is armies else "F ") + loc
                if len(texts) < 4096:  # a map's locations are few; the cap only guards odd input
                    texts[loc] = found
            text = found
        units[unit.power].append(text)
    centres: dict[str, list[str]] = {power: [] for power in powers}
    for prov, owner in position.owners.items():
        centres[owner].append(prov)
    for listed in units.values():
        listed.sort()
    for listed in centres.values():
        listed.sort()
    return {
        "variant": variant.slug,
        "phase": str(position.phase),
        "units": units,
        "centers": centres,
        "homes": _homes_data(variant, board),
        "dislodged": _dislodged_data(position) if position.dislodged else {},
    }


def _dislodged_data(position: Position) -> dict[str, list[dict[str, Any]]]:
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(position.dislodged.values(), key=lambda d: d.unit.location):
        entry: dict[str, Any] = {
            "unit": f"{d.unit.letters} {d.unit.location}",
            "retreats": sorted(d.retreats),
        }
        if d.stays_fleet:  # Sahara: told to stay a fleet with the movement orders (E16)
            entry["stays_fleet"] = True
        dislodged.setdefault(d.unit.power, []).append(entry)
    return dislodged


_POWERS: dict[Variant, tuple[str, ...]] = {}
_POWER_SETS: dict[Variant, frozenset[str]] = {}
_HOMES: dict[Board, dict[str, list[str]]] = {}


def _powers(variant: Variant) -> tuple[str, ...]:
    powers = _POWERS.get(variant)
    if powers is None:
        powers = _POWERS[variant] = tuple(variant.powers)
    return powers


def _power_set(variant: Variant) -> frozenset[str]:
    powers = _POWER_SETS.get(variant)
    if powers is None:
        powers = _POWER_SETS[variant] = frozenset(variant.powers)
    return powers


def _homes_data(variant: Variant, board: Board) -> dict[str, list[str]]:
    """The board's home centres by power; a fresh copy, so a caller may change it."""
    homes = _HOMES.get(board)
    if homes is None:
        if len(_HOMES) >= _MAX_BOARDS:
            _HOMES.clear()
        found: dict[str, list[str]] = {power: [] for power in _powers(variant)}
        for prov, power in board.homes.items():
            found[power].append(prov)
        homes = _HOMES[board] = {power: sorted(provinces) for power, provinces in found.items()}
    return {power: list(provinces) for power, provinces in homes.items()}
