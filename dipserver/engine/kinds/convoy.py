"""Convoy: ``F NTH C A LON - NWY``. Only a fleet at sea convoys, and only armies, from land to land.

The reader checks the order against the board; the adjudicator also asks that the fleet lie on a convoy
route of seas where fleets stand now: a fleet no route needs is not convoying at all (DATC 6.G.19), and
such a convoy is never offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dipserver.engine.convoys import minimal_routes
from dipserver.engine.kinds.abstraction import NO_CONVOY, ferry_on, one_sea
from dipserver.engine.kinds.recording import Described, held_at, via
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.support import helping_line
from dipserver.engine.kinds.words import unit_at, unit_phrase
from dipserver.engine.orders import Convoy, OrderError
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.offering import Offering, Option
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position


def at_sea(board: Board, unit: Unit) -> bool:
    """Whether ``unit`` may convoy: a fleet in a water province (where its location is the sea: seas have
    no coasts)."""
    return unit.type is UnitType.FLEET and unit.location in board.seas


class ConvoyKind(Kind):
    name = "convoy"
    order_class = Convoy
    reads = ((PhaseType.MOVEMENT, "convoy"),)
    offered_in = (PhaseType.MOVEMENT,)
    position = 4

    def read(self, reading: Reading, intent: Intent) -> Convoy:
        unit = reading.ordered_unit(intent)
        assert intent.target is not None and intent.dest is not None
        board = reading.board
        if not at_sea(board, unit):
            raise OrderError(
                f"Only a fleet at sea can convoy; {unit_phrase(board, unit, 'the')} is not at sea"
            )
        reading.known_place(intent.target)
        reading.known_place(intent.dest)
        carried = reading.unit_in(intent.target.province)
        if intent.target_type is UnitType.FLEET or (carried is not None and carried.type is UnitType.FLEET):
            raise OrderError("Only armies can be convoyed")
        if not board.is_land(intent.target.province) or not board.is_land(intent.dest.province):
            raise OrderError("A convoy carries an army from one land province to another")
        if intent.target.province == intent.dest.province:
            raise OrderError("A convoyed army must go somewhere other than where it stands")
        if ferry_on(reading):
            self.read_ferry(reading, unit, intent.target.province, intent.dest.province)
        return Convoy(unit.location, intent.target.province, intent.dest.province)

    def legal(self, standing: Standing, here: str, unit: Unit, order: Convoy) -> tuple[str | None, str]:
        board = standing.board
        if unit.type is not UnitType.FLEET or not board.is_water(here):  # at_sea, on the hot path
            return f"{standing.unit_name(here)} cannot convoy: only fleets at sea convoy", ""
        target, dest = order.target, order.dest  # provinces (the order's kind names no coasts)
        if "/" in target or "/" in dest:
            target, dest = province_of(target), province_of(dest)
        if standing.ferry:
            why = fast_ferry_problem(standing, here, unit, target, dest)
            if why is not None:
                return why, ""
        army = standing.units.get(target)
        if army is None:
            return f"There is no unit in {standing.name(target)} to convoy", ""
        if army.type is not UnitType.ARMY:
            return f"{standing.unit_name(target)} cannot be convoyed: only armies are convoyed", ""
        # A fleet no route needs is not convoying at all (DATC 6.G.19).
        if dest != target and board.is_coastal(dest) and here in standing.necessary(target, dest):
            return None, ""
        where = f"from {standing.name(target)} to {standing.name(dest)}"
        return f"{standing.unit_name(here)} is on no sea route {where}", ""

    def read_ferry(self, reading: Reading, unit: Unit, target: str, dest: str) -> None:
        """Abstraction (5.6): an A/F never convoys; a convoy crosses one sea (Fast Ferry)."""
        board = reading.board
        if unit.aboard:
            raise OrderError(f"The A/F in {board.location_name(unit.location)} {NO_CONVOY}")
        if unit.province not in one_sea(board, target, dest, frozenset({unit.province})):
            raise OrderError(
                _one_sea_only(board.location_name(unit.location), reading.name(target), reading.name(dest))
            )

    def offer(self, offering: Offering, unit: Unit) -> Sequence[Option]:
        """Convoys this fleet is needed for: it lies on a minimal route of seas where fleets stand now. Such
        a route passes only fleets joined to this one, so those fleets and the armies on their shores decide
        the convoys of every fleet of them: worked out for them all at once (``group_convoys``)."""
        if not at_sea(offering.board, unit):
            return ()
        sea = unit.location  # a sea has no coasts
        found = offering.fleet_convoys.get(sea)
        if found is None:
            self.group_convoys(offering, sea)
            found = offering.fleet_convoys[sea]
        return found

    def group_convoys(self, offering: Offering, sea: str) -> None:
        """The convoys of each fleet joined to the one in ``sea``, kept for the phase by its sea: for each
        army on their shores in turn, those kept in the fleet's ``row`` under the fleets' seas and the army's
        words (and each convoy under the army's words and its destination)."""
        fleets, names = offering.fleets_joined(sea), offering.names
        shores = sorted(offering.landings(sea) & offering.army_places)  # the armies on their shores
        armies = [(army, (fleets, names[army])) for army in shores]
        for each in fleets:
            found: list[Option] = []
            if armies:
                row = offering.row(self, names[each])
                for army, key in armies:
                    convoys = row.get(key)
                    if convoys is None:
                        convoys = self.carried_by(offering, army, fleets)[each]
                    found += convoys
            offering.fleet_convoys[each] = found

    def carried_by(
        self, offering: Offering, army: str, fleets: frozenset[str]
    ) -> dict[str, tuple[Option, ...]]:
        """The convoys of ``army`` by each fleet of the joined ``fleets``, kept in each fleet's ``row``: one
        walk of the minimal routes answers them all, so the group's other fleets find theirs kept instead
        of asking the same of the walk again."""
        names = offering.names
        needed = minimal_routes(offering.board, army, fleets)  # every destination's fleets, one walk
        dests: dict[str, list[str]] = {sea: [] for sea in fleets}  # by fleet, where it carries the army to
        for dest in sorted(needed):
            if dest != army:
                for sea in needed[dest]:
                    dests[sea].append(dest)
        words = names[army]
        found: dict[str, tuple[Option, ...]] = {}
        for sea, carried in dests.items():
            row = offering.row(self, names[sea])
            convoys: list[Option] = []
            for dest in carried:
                convoy = row.get((words, dest))
                if convoy is None:
                    convoy = offering.keep(self, (words, dest), [Convoy(sea, army, dest)], row)
                convoys += convoy
            found[sea] = offering.store(self, (fleets, words), tuple(convoys), row)
        return found

    def text(self, order: Convoy, position: Position) -> str:
        return f"{unit_at(position, order.unit)} C A {order.target} - {order.dest}"

    def record(self, order: Convoy, position: Position, board: Board | None) -> Described:
        carried = via(position, order.target, order.dest)
        return "convoy", held_at(position, order.unit), order.unit, None, carried

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return helping_line(record, "convoy")


def fast_ferry_problem(standing: Standing, here: str, unit: Unit, target: str, dest: str) -> str | None:
    """Abstraction (5.6): why this fleet cannot carry the army, or ``None``."""
    if unit.aboard:
        return f"{standing.unit_name(here)} {NO_CONVOY}"
    if here in one_sea(standing.board, target, dest, frozenset({here})):
        return None
    return _one_sea_only(standing.name(here), standing.name(target), standing.name(dest))


def _one_sea_only(sea: str, target: str, dest: str) -> str:
    why = "a convoy crosses one sea with one fleet"
    return f"Fast Ferry: {why}, and {sea} does not touch both {target} and {dest}"


CONVOY = register(ConvoyKind())
