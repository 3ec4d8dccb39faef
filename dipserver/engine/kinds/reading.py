"""What a kind reads from: the player's order as the grammar understood it (``Intent``), and the board,
position and power it is checked against (``Reading``), with the checks every kind shares.

``parse.py`` turns the text into an ``Intent``; the kind of its verb turns that into the order, checking
it with these helpers and raising ``OrderError`` with a reason for the player.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from dipserver.engine.adjustments import adjustment_counts
from dipserver.engine.board import Board
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
    """One power's order being read in one position's phase."""

    __slots__ = ("board", "build_rule", "modules", "position", "power")

    def __init__(
        self,
        board: Board,
        position: Position,
        power: str,
        build_rule: BuildRule,
        modules: object | None = None,
    ) -> None:
        self.board, self.position, self.power, self.build_rule = board, position, power, build_rule
        # The game's rule modules (``modules.orders.InPlay``), for their kinds to read; named loosely, for
        # that module registers its kinds here and this package never imports it back.
        self.modules = modules

    @property
    def phase(self) -> PhaseType:
        return self.position.phase.type

    def name(self, loc: str) -> str:
        return self.board.location_name(loc)

    def power_name(self, power: str) -> str:
        info = self.board.variant.powers.get(power)
        return info.name if info else power.title()

    def balance(self) -> int:
        return adjustment_due(self.position, self.power)

    def ordered_unit(self, intent: Intent) -> Unit:
        """The unit on the board the order is for (``own_unit``)."""
        assert intent.unit is not None
        return self.own_unit(self.position.units, intent.unit_type, intent.unit)  # no copy: read only

    # The ordered unit must exist, be ours, and match what the player called it.
    def own_unit(
        self, units: Mapping[str, Unit], unit_type: UnitType | None, loc: Loc, where: str = ""
    ) -> Unit:
        unit = units.get(loc.province)
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
