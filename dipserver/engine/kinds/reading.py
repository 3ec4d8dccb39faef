"""What a kind reads from: the player's order as the grammar understood it (``Intent``), and the board,
position and power it is checked against (``Reading``), with the checks every kind shares.

``grammar.py`` turns the text into an ``Intent``; the kind of its verb turns that into the order, checking
it with these helpers and raising ``OrderError`` with a reason for the player.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from dipserver.engine.board import Board
from dipserver.engine.buildsites import adjustment_counts
from dipserver.engine.kinds.words import a_unit, unit_phrase
from dipserver.engine.orders import OrderError
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, Terrain, Unit, UnitType

BuildRule = Callable[[Board, Position, str], Collection[str]]  # -> vacant centres open to new units


def adjustment_due(position: Position, power: str) -> int:
    """Builds (positive) or disbands (negative) ``power`` owes this winter, as the adjudicator counts."""
    return adjustment_counts(position.units, position.owners).get(power, 0)


@dataclass(frozen=True, slots=True)
class Loc:
    province: str
    coast: str | None
    text: str  # as typed, for messages

    @property
    def location(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


@dataclass(slots=True)
class Intent:
    verb: str  # hold, move, support, convoy, retreat, disband, build, waive
    unit_type: UnitType | None = None
    unit: Loc | None = None
    target_type: UnitType | None = None
    target: Loc | None = None
    dest: Loc | None = None
    via: bool = False


class Reading:
    """One power's order being read in one position's phase.

    It notes what of the position the kinds read: the units they look up (``unit_in``) in ``looked``, and
    in ``whole`` whether they asked for the position itself, any of it. A reading that asked for no more
    than units depends on no more than them: the reader's memo keeps its answer (``readings.py``)."""

    __slots__ = ("_position", "board", "build_rule", "looked", "modules", "phase", "power", "whole")

    def __init__(
        self,
        board: Board,
        position: Position,
        power: str,
        build_rule: BuildRule,
        modules: object | None = None,
    ) -> None:
        self.board, self._position, self.power, self.build_rule = board, position, power, build_rule
        # The game's rule modules (``modules.phase.InPlay``), for their kinds to read; named loosely, for
        # that module registers its kinds here and this package never imports it back.
        self.modules = modules
        self.phase: PhaseType = position.phase.type
        self.looked: list[tuple[str, Unit | None]] = []
        self.whole = False

    @property
    def position(self) -> Position:
        """The whole position: what the reading says may then depend on any of it."""
        self.whole = True
        return self._position

    def unit_in(self, province: str) -> Unit | None:
        """The unit in ``province`` now, if any (noted in ``looked``)."""
        unit = self._position.units.get(province)
        self.looked.append((province, unit))
        return unit

    def name(self, loc: str) -> str:
        return self.board.location_name(loc)

    def power_name(self, power: str) -> str:
        info = self.board.variant.powers.get(power)
        return info.name if info else power.title()

    def balance(self) -> int:
        return adjustment_due(self.position, self.power)  # the whole position: the centres too

    def ordered_unit(self, intent: Intent) -> Unit:
        """The unit on the board the order is for (``own_unit``)."""
        assert intent.unit is not None
        return self.checked_unit(self.unit_in(intent.unit.province), intent.unit_type, intent.unit)

    def own_unit(
        self, units: Mapping[str, Unit], unit_type: UnitType | None, loc: Loc, where: str = ""
    ) -> Unit:
        """The unit of ``units`` the order is for, at ``loc`` (``checked_unit``)."""
        return self.checked_unit(units.get(loc.province), unit_type, loc, where)

    # The ordered unit must exist, be ours, and match what the player called it.
    def checked_unit(self, unit: Unit | None, unit_type: UnitType | None, loc: Loc, where: str = "") -> Unit:
        if unit is None:
            raise OrderError(f"There is no {where}unit in {self.name(loc.province)}")
        if unit.power != self.power:
            raise OrderError(f"{unit_phrase(self.board, unit)} belongs to {self.power_name(unit.power)}")
        if unit_type is not None and unit_type is not unit.type:
            raise OrderError(
                f"The unit in {self.name(loc.province)} is {a_unit(unit.type)}, not {a_unit(unit_type)}"
            )
        # A wrong coast for the ordered unit has no purpose: the unit is found by province (DATC 6.B.10).
        return unit

    def known_place(self, loc: Loc) -> None:
        if self.board.terrain(loc.province) is Terrain.ABSENT:
            raise OrderError(f"{self.name(loc.province)} is not on the board")
        if loc.coast is not None and loc.coast not in self.board.coasts(loc.province):
            raise OrderError(f"{self.name(loc.province)} has no {loc.coast} coast")

    def enterable(self, unit: Unit, dest: Loc) -> None:
        self.known_place(dest)
        if dest.province == unit.province:
            raise OrderError(f"{unit_phrase(self.board, unit)} cannot move to where it already is")
        terrain = self.board.terrain(dest.province)
        if not terrain.passable:
            raise OrderError(f"{self.name(dest.province)} is {terrain.value}: no unit can enter it")
