"""What the adjudicator's check of an order on its own reads: the board and the units standing on it.

One ``Standing`` per movement phase (``movement.MovementPhase`` keeps it). It keeps what several checks of the
phase would otherwise each work out again: the seas where fleets stand, and which fleets each convoy
route needs. The checks themselves are the kinds' ``legal`` (DATC 4.E.1's first step).
"""

from __future__ import annotations

from collections.abc import Mapping

from dipserver.engine.board import Board
from dipserver.engine.convoys import necessary_fleets, place_name, unit_name
from dipserver.engine.types import Unit, UnitType


class Standing:
    __slots__ = ("_fleet_seas", "_needed", "board", "by_sea", "checked", "ferry", "units")

    def __init__(
        self, board: Board, units: Mapping[str, Unit], checked: bool = False, ferry: bool = False
    ) -> None:
        self.board = board
        # A dict (the phase's own, or a copy): compiled, a dict's lookups are C calls, a Mapping's methods.
        self.units: dict[str, Unit] = units if isinstance(units, dict) else dict(units)
        self.checked = checked  # the reader has checked each order on its own (movement.MovementPhase)
        self.ferry = ferry  # the Abstraction A/F rules are on (Fast Ferry, A/Fs: kinds/abstraction.py)
        self.by_sea: set[str] = set()  # armies whose legal move can only go by convoy
        self._fleet_seas: frozenset[str] | None = None
        self._needed: dict[tuple[str, str], set[str]] = {}

    def name(self, loc: str) -> str:
        return place_name(self.board, loc)

    def unit_name(self, prov: str) -> str:
        unit = self.units[prov]
        if unit.aboard:
            return f"The A/F in {self.name(unit.location)}"
        return unit_name(self.board, ("A " if unit.type is UnitType.ARMY else "F ") + unit.location)

    def fleet_seas(self) -> frozenset[str]:
        """The water provinces where fleets stand now."""
        if self._fleet_seas is None:
            # The units are keyed by province: the fleets' provinces, less the coasts, by set in C.
            fleet = UnitType.FLEET
            self._fleet_seas = self.board.seas.intersection(
                [p for p, u in self.units.items() if u.type is fleet]
            )
        return self._fleet_seas

    def necessary(self, army: str, dest: str) -> set[str]:
        """The fleets every convoy route of ``army`` to ``dest`` needs (DATC 6.G.19), once per pair."""
        key = (army, dest)
        found = self._needed.get(key)
        if found is None:
            found = self._needed[key] = necessary_fleets(self.board, army, dest, self.fleet_seas())
        return found
