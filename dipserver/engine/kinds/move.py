"""Move: ``A PAR - BUR``, ``F MAO - SPA/NC``, ``A LON - NWY VIA`` (by convoy).

The reader asks whether the unit could ever get there on this map (a chain of seas for an army, fleets
permitting); the adjudicator asks it again of the units standing now, and notes the armies that can only
go by sea (DATC 6.D.8: such a move is still a move when the convoy fails).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.convoys import sea_route
from dipserver.engine.kinds.abstraction import STAYS_AT_SEA, ferry_on, ferry_seas, one_sea
from dipserver.engine.kinds.recording import Described, held_at, needs_convoy, place, via
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.orders import Move, OrderError
from dipserver.engine.types import PhaseType, Unit, UnitType, coast_of, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.offering import Offering, Option
    from dipserver.engine.kinds.reading import Intent, Loc, Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position


def landings(board: Board, location: str, province: str) -> tuple[str, ...]:
    """The coasts of ``province`` a fleet at ``location`` reaches (DATC 4.B.1-4.B.3)."""
    return board.fleet_reachable_coasts(location, province)


class MoveKind(Kind):
    name = "move"
    order_class = Move
    reads = ((PhaseType.MOVEMENT, "move"),)
    offered_in = (PhaseType.MOVEMENT,)
    position = 1

    def destination(self, order: Move) -> str | None:
        return province_of(order.dest)

    def attacks(self, order: Move) -> str | None:
        return province_of(order.dest)

    def read(self, reading: Reading, intent: Intent) -> Move:
        unit = reading.ordered_unit(intent)
        assert intent.dest is not None
        if unit.type is UnitType.FLEET:
            if intent.via:
                raise OrderError("Only armies travel by convoy")
            if unit.aboard and reading.board.is_land(intent.dest.province):
                where, dest = unit.province, intent.dest.province
                raise OrderError(
                    f"The A/F in {reading.name(where)} {STAYS_AT_SEA.format(sea=where, dest=dest)}"
                )
            return Move(unit.location, fleet_destination(reading, unit, intent.dest))
        reading.enterable(unit, intent.dest)
        board, name = reading.board, reading.name
        dest = intent.dest.province  # a coast means nothing to an army: ignored (DATC 6.B.12)
        if not board.is_land(dest):
            raise OrderError(f"An army in {name(unit.location)} cannot reach {name(dest)}")
        if not intent.via and dest in board.army_moves(unit.province):
            return Move(unit.location, dest)
        # Not adjacent, or a convoy asked for: legal if some chain of seas could carry it (fleets permitting);
        # with the Abstraction rules one sea (Fast Ferry, 5.6).
        if ferry_on(reading) and not board.water_neighbours(unit.province) & board.water_neighbours(dest):
            raise OrderError(
                f"An army in {name(unit.location)} cannot reach {name(dest)}: a Fast Ferry crosses one sea"
                " with one fleet, and no sea touches both"
            )
        if dest in board.convoy_destinations(unit.province):
            return Move(unit.location, dest, intent.via)
        why = (
            "no convoy route leads there"
            if intent.via
            else "it is not adjacent and no convoy route leads there"
        )
        raise OrderError(f"An army in {name(unit.location)} cannot reach {name(dest)}: {why}")

    def legal(self, standing: Standing, here: str, unit: Unit, order: Move) -> tuple[str | None, str]:
        board, dest = standing.board, order.dest
        if unit.type is UnitType.FLEET:
            if order.via_convoy:
                return f"{standing.unit_name(here)} cannot be convoyed: only armies are convoyed", ""
            if unit.aboard and board.is_land(dest.partition("/")[0]):
                stays = STAYS_AT_SEA.format(sea=here, dest=dest.partition("/")[0])
                return f"{standing.unit_name(here)} {stays}", ""
            if dest in board.fleet_moves(unit.location):
                return None, dest
            return _fleet_move_coast(standing, here, unit, dest)
        dest_prov = dest if "/" not in dest else dest.partition("/")[0]
        if not order.via_convoy and dest_prov in board.army_moves(here):
            return None, dest_prov  # a coast named for an army is ignored (DATC 4.B.6)
        if dest_prov == here:
            return f"{standing.unit_name(here)} cannot move to the province it is already in", ""
        # Legal if fleets stand where they could carry it; whether they do is known only from their orders.
        # Such a move never turns into a hold (DATC 6.D.8).
        if board.is_coastal(dest_prov) and sea_route(board, here, dest_prov, standing.fleet_seas()):
            if standing.ferry and not one_sea(board, here, dest_prov, ferry_seas(standing.units, board)):
                why = "a Fast Ferry crosses one sea with one fleet, and no fleet free to convoy is in a sea"
                there = standing.name(dest_prov)
                return f"{standing.unit_name(here)} cannot reach {there}: {why} touching both", ""
            standing.by_sea.add(here)
            return None, dest_prov
        if not board.terrain(dest_prov).passable:
            return f"{standing.name(dest_prov)} cannot be entered", ""
        verb = "be convoyed to" if order.via_convoy else "reach"
        return f"{standing.unit_name(here)} cannot {verb} {standing.name(dest_prov)}", ""

    def offer(self, offering: Offering, unit: Unit) -> tuple[Option, ...]:
        """Its moves by land or along the coasts, then those by convoy where fleets stand now: kept under the
        unit's words, and (all of them) with the provinces fleets could carry it to."""
        board, name, loc, table = (
            offering.board,
            offering.words[unit.location],
            unit.location,
            offering.table(self),
        )
        found = table.get(name)
        if found is None:
            moves = board.fleet_moves(loc) if unit.type is UnitType.FLEET else board.army_moves(loc)
            found = offering.keep(self, name, [Move(loc, d) for d in sorted(moves)])
        convoyed = offering.convoyed(unit)
        if not convoyed:
            return found
        key = (name, convoyed)
        every = table.get(key)
        if every is None:  # made of each move's own, kept under the unit's words and its destination
            all_moves = list(found)
            for dest in convoyed:
                move = table.get((name, dest))
                if move is None:
                    move = offering.keep(self, (name, dest), [Move(loc, dest, True)])
                all_moves += move
            every = offering.store(self, key, tuple(all_moves))
        return every

    def text(self, order: Move, position: Position) -> str:
        return f"{unit_at(position, order.unit)} - {order.dest}" + (" VIA" if order.via_convoy else "")

    def record(self, order: Move, position: Position, board: Board | None) -> Described:
        """``via`` says a move goes by convoy when it asks for one or its army cannot walk there."""
        u, d = order.unit, order.dest
        by_convoy = order.via_convoy or needs_convoy(position, board, u, d)
        how = via(position, None, None, convoy=True) if by_convoy else None
        return "move", held_at(position, u), u, d, how

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("arrow", place(record, "from"), place(record, "to"), label="move")


def fleet_destination(reading: Reading, unit: Unit, dest: Loc) -> str:
    """The exact location a fleet moves to, inferring the coast when only one is reachable."""
    reading.enterable(unit, dest)
    options = landings(reading.board, unit.location, dest.province)
    if dest.coast is None and len(options) > 1:
        choices = " or ".join(options)
        raise OrderError(f"Say which coast of {reading.name(dest.province)} the fleet goes to: {choices}")
    if dest.coast is None and len(options) == 1:
        return options[0]
    if dest.location in options:
        return dest.location
    raise OrderError(f"A fleet in {reading.name(unit.location)} cannot reach {reading.name(dest.location)}")


def _fleet_move_coast(standing: Standing, here: str, unit: Unit, dest: str) -> tuple[str | None, str]:
    """A fleet move not exactly on the map: infer or reject the coast (DATC 4.B.1-4.B.3, 4.B.6); a coast
    the province does not have is ignored, where the reader refuses it."""
    board = standing.board
    dest_prov = dest.partition("/")[0]
    me = standing.unit_name(here)
    if dest_prov == here:
        return f"{me} cannot move to the province it is already in", ""
    if coast_of(dest) in board.coasts(dest_prov):
        return f"{me} cannot reach {standing.name(dest)}", ""
    options = landings(board, unit.location, dest_prov)
    if len(options) == 1:
        return None, options[0]
    if not options:
        return f"{me} cannot reach {standing.name(dest_prov)}", ""
    named = " or ".join(standing.name(o) for o in options)
    return f"{me} can reach {named}: name the coast", ""


MOVE = register(MoveKind())
