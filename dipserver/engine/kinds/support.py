"""Support: to hold (``A MUN S BER``, ``A MUN S A BER H``) and to move (``A MUN S A PAR - BUR``).

One rule runs through both checks: a unit supports only where it could move itself (``reaches``). The
reader knows only the board, so it leaves a support of an empty province to the adjudicator, which also
asks whether the supported move is possible while this support is given (DATC 6.D.31).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dipserver.engine.convoys import sea_route
from dipserver.engine.kinds.recording import Described, held_at, place, via, via_place
from dipserver.engine.kinds.registry import Drawing, Kind, register
from dipserver.engine.kinds.words import unit_at, unit_phrase
from dipserver.engine.orders import OrderError, SupportHold, SupportMove
from dipserver.engine.types import PhaseType, Unit, UnitType, coast_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.offering import Offering, Option
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position


def reaches(board: Board, unit: Unit, province: str) -> bool:
    """Whether ``unit`` could move to ``province``: where it may support (hold or move) into."""
    return board.can_reach_province(unit.type, unit.location, province)


class SupportHoldKind(Kind):
    name = "support_hold"
    order_class = SupportHold
    reads = ((PhaseType.MOVEMENT, "support"),)  # both supports: the grammar says which
    offered_in = (PhaseType.MOVEMENT,)
    position = 2

    def read(self, reading: Reading, intent: Intent) -> SupportHold | SupportMove:
        unit = reading.ordered_unit(intent)
        assert intent.target is not None
        board, name = reading.board, reading.name
        reading.known_place(intent.target)
        target = intent.target.province
        if target == unit.province:
            raise OrderError(f"{unit_phrase(board, unit)} cannot support itself")
        if intent.dest is None:
            if not reaches(board, unit, target):
                raise OrderError(
                    f"{unit_phrase(board, unit)} cannot support {name(target)}: it could not move there"
                )
            return SupportHold(unit.location, target)
        reading.known_place(intent.dest)
        dest = intent.dest.province
        if dest == target:
            raise OrderError("A supported move must go somewhere other than where the unit stands")
        if not reaches(board, unit, dest):
            raise OrderError(
                f"{unit_phrase(board, unit)} cannot support a move to {name(dest)}: "
                "it could not move there itself"
            )
        return SupportMove(unit.location, target, intent.dest.location)

    def legal(self, standing: Standing, here: str, unit: Unit, order: SupportHold) -> tuple[str | None, str]:
        target = order.target if "/" not in order.target else order.target.partition("/")[0]
        if target == here:
            return f"{standing.unit_name(target)} cannot support itself", ""
        if target not in standing.units:
            return f"There is no unit in {standing.name(target)} to support", ""
        if not standing.checked and not reaches(standing.board, unit, target):
            return (
                f"{standing.unit_name(here)} cannot reach {standing.name(target)}, so cannot support it",
                "",
            )
        return None, ""

    def offer(self, offering: Offering, unit: Unit) -> list[Option]:
        """Its supports of each unit in a province it ``reaches``, by province: each kept in the unit's
        ``row`` under the supported unit's words."""
        board, at = offering.board, offering.at  # ``at``: each unit's words, by its province's number
        own = offering.words[unit.location]
        row = offering.row(self, own)
        found: list[Option] = []
        for number in board.reach_numbers(unit.type, unit.location):
            words = at[number]
            if words is not None and words != own:  # a unit there, not this one: it does not support itself
                support = row.get(words)
                if support is None:
                    target = board.by_number[number]
                    support = offering.keep(self, words, [SupportHold(unit.location, target)], row)
                found += support
        return found

    def text(self, order: SupportHold, position: Position) -> str:
        return f"{unit_at(position, order.unit)} S {unit_at(position, order.target)}"

    def record(self, order: SupportHold, position: Position, board: Board | None) -> Described:
        supported = via(position, order.target, None)
        return "support_hold", held_at(position, order.unit), order.unit, None, supported

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("hold_line", place(record, "from"), via=via_place(record, "from"), label="support")


class SupportMoveKind(Kind):
    name = "support_move"
    order_class = SupportMove
    offered_in = (PhaseType.MOVEMENT,)
    position = 3

    def legal(self, standing: Standing, here: str, unit: Unit, order: SupportMove) -> tuple[str | None, str]:
        board, target, dest = standing.board, order.target, order.dest
        if "/" in target:
            target = target.partition("/")[0]
        into = dest if "/" not in dest else dest.partition("/")[0]
        supported = standing.units.get(target)
        if supported is None:
            return f"There is no unit in {standing.name(target)} to support", ""
        if here in (target, into) or into == target:
            if target == here:
                return f"{standing.unit_name(here)} cannot support itself", ""
            if into == here:
                return f"{standing.unit_name(here)} cannot support a move into its own province", ""
            return f"{standing.unit_name(target)} cannot move to where it already is", ""
        if not standing.checked and not reaches(board, unit, into):
            return (
                f"{standing.unit_name(here)} cannot reach {standing.name(into)}, so cannot support there",
                "",
            )
        # The supported move must be possible while this support is given (DATC 6.D.31): a fleet giving it
        # cannot also carry the army. (Inline, not a helper: every support of a phase comes here.)
        if supported.type is UnitType.FLEET:
            if dest in board.fleet_moves(supported.location):
                return None, ""
            coast = coast_of(dest)
            if coast is not None and coast in board.coasts(into):
                return f"{standing.unit_name(target)} cannot reach {standing.name(dest)}", ""
            if board.fleet_reachable_coasts(supported.location, into):
                return None, ""
        elif into in board.army_moves(target) or (
            board.is_coastal(into) and sea_route(board, target, into, standing.fleet_seas() - {here})
        ):
            return None, ""
        return f"{standing.unit_name(target)} cannot reach {standing.name(into)}", ""

    def offer(self, offering: Offering, unit: Unit) -> list[Option]:
        """Its supports of every move into a province it ``reaches``, by the supported unit's province, then
        by destination. The units that might move there stand in its ``neighbourhood`` (a table of the
        map), or are armies fleets could carry there. Supports of moves by land or along the coasts depend on
        the two units alone and are kept in the unit's ``row`` under the supported unit's words; those of an
        army into provinces it reaches by convoy alone under its words and those provinces."""
        board, at = offering.board, offering.at  # ``at``: each unit's words, by its province's number
        row = offering.row(self, offering.words[unit.location])
        targets = board.neighbourhood(unit.type, unit.location)
        by_sea = offering.supported_by_sea(unit)
        if by_sea is not None:
            targets = _merged(targets, by_sea)
        found: list[Option] = []
        for target in targets:
            words = at[target]
            if words is None:  # no unit there
                continue
            extra = None if by_sea is None else by_sea.get(target)
            key: Hashable = words if extra is None else (words, tuple(extra))
            supports = row.get(key)
            if supports is None:
                supported = board.by_number[target]
                supports = _kept_supports(self, offering, unit, supported, extra or (), key, row)
            if supports:
                found += supports
        return found

    def text(self, order: SupportMove, position: Position) -> str:
        return f"{unit_at(position, order.unit)} S {unit_at(position, order.target)} - {order.dest}"

    def record(self, order: SupportMove, position: Position, board: Board | None) -> Described:
        supported = via(position, order.target, order.dest)
        return "support_move", held_at(position, order.unit), order.unit, None, supported

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return helping_line(record, "support")


def _merged(provinces: tuple[int, ...], more: Iterable[int]) -> tuple[int, ...]:
    """``provinces`` (sorted) with ``more``, sorted, each once: a few more, each put in its place."""
    merged = list(provinces)
    for province in more:
        at = 0
        while at < len(merged) and merged[at] < province:
            at += 1
        if at == len(merged) or merged[at] != province:
            merged.insert(at, province)
    return tuple(merged) if len(merged) > len(provinces) else provinces


def _kept_supports(
    kind: SupportMoveKind,
    offering: Offering,
    unit: Unit,
    target: str,
    by_sea: Sequence[str],
    key: Hashable,
    row: dict[Hashable, tuple[Option, ...]],
) -> tuple[Option, ...]:
    """``unit``'s supports of the unit in ``target`` (``SupportMoveKind.offer``), kept in its ``row`` under
    ``key``: into the provinces both reach, and into those of ``by_sea`` (by convoy alone)."""
    board, other = offering.board, offering.position.units[target]
    into = set(
        board.reach_provinces(unit.type, unit.location) & board.reach_provinces(other.type, other.location)
    )
    into.update(by_sea)
    into.discard(unit.province)
    return offering.keep(kind, key, [SupportMove(unit.location, target, d) for d in sorted(into)], row)


def helping_line(record: Mapping[str, Any], label: str) -> Drawing:
    """A support to move or a convoy: a line from the ordered unit to the move it helps (``via``)."""
    start, end, target = place(record, "from"), via_place(record, "to"), via_place(record, "from")
    return Drawing("line", start, end, via=target, label=label)


SUPPORT_HOLD = register(SupportHoldKind())
SUPPORT_MOVE = register(SupportMoveKind())
