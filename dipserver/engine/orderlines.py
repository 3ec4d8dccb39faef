"""A power's order lines read and checked as a set (``read_orders``, for order entry and for play), and
every power's read for the phase pipeline (``read_all``), with the orders it hands on to the adjudication
(``hand_on``): the reading half of ``turn.play_phase``.

The lines are read by the parser (``parse.parse_orders``: the one grammar, or its memo's answer), the
variant's conversion orders first (``conversions.parse_conversion``); then the set is checked by the kinds
that have such a check (``Kind.check_together``: Deluge's limit on builds outside home centres), and with
rule modules on, each order by what they forbid now (a blizzard, no supply), as ``play`` would judge it.

This module is compiled with the engine's hot modules (``native.py``): a phase reads every power's lines
here, most of them answered from the memo, so the loops over the lines are most of what reading costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import dipserver.engine.modules as rules  # their reading and state, loaded when a game first has modules
from dipserver.engine.board import Board
from dipserver.engine.kinds.reading import BuildRule, Reading
from dipserver.engine.kinds.registry import Kind, kind_of
from dipserver.engine.modules import Modules
from dipserver.engine.orders import Outcome
from dipserver.engine.parse import (
    OrderError,
    ParsedLine,
    build_rule_for,
    checked_together,
    order_unit,
    parse_order,
    parse_orders,
)
from dipserver.engine.position import Position
from dipserver.engine.timelinecache import variant_orders
from dipserver.engine.types import province_of

if TYPE_CHECKING:
    from dipserver.engine.modules.phase import InPlay, ModuleState

# The orders read are of whatever kinds are registered (a variant's, a rule module's, a test's own), so
# they are typed ``Any`` here: compiled code checks each value against the type it is declared with.

# ``records.Played``'s fields as a row: power, order, text, outcome, reason, dislodged, refused.
PlayedRow = tuple[str, Any, str, Outcome, str, bool, bool]

# One submitted line, read and checked: the parser's row (``parse.ParsedLine``), named for order entry.
ReadLine = ParsedLine


def read_orders(
    lines: Iterable[str] | str,
    board: Board,
    position: Position,
    power: str,
    *,
    modules: Modules | None = None,
    module_state: ModuleState | None = None,
    one_per_unit: bool = True,
) -> list[ReadLine]:
    """Every non-blank line read and checked: the variant's conversion orders first, then the standard
    notation (one order per unit, builds within the Winter's allowance and the variant's build limit).
    With ``modules`` on, their own orders (``establish depot PAR``, ``place blizzard MUN``) are read too,
    and an order they forbid now (a blizzard, no supply) is refused with their reason, as ``play`` would
    judge it: for order entry and for play (``one_per_unit``: as ``parse.parse_orders``)."""
    converting = bool(variant_orders(board.variant))
    rule = build_rule_for(board.variant)
    return _read_power(lines, board, position, power, rule, converting, modules, module_state, one_per_unit)


def _read_power(
    lines: Iterable[str] | str,
    board: Board,
    position: Position,
    power: str,
    rule: BuildRule,
    converting: bool,
    modules: Modules | None,
    module_state: ModuleState | None,
    one_per_unit: bool,
) -> list[ReadLine]:
    """``read_orders``, given what every power's reading in the phase shares: the variant's build rule,
    and whether it has conversion orders (``read_all`` asks once a phase, not once a power)."""
    lines = lines.splitlines() if isinstance(lines, str) else list(lines)
    # A variant without conversion orders has none to read first (most lines read at the parser's front),
    # nor loads their kinds.
    read, standard, to_fleet = (
        _conversions_first(lines, board, position, power) if converting else ({}, lines, set())
    )
    in_play = (
        rules.phase.InPlay(modules, module_state or rules.phase.ModuleState())
        if modules is not None and modules.any
        else None
    )
    rows: list[ReadLine] = []  # the parser's, in the order of the lines
    parsed = parse_orders(standard, board, position, power, rule, modules=in_play, one_per_unit=one_per_unit)
    for line in parsed:
        if line.order is None:
            alone = _read_alone(line.text, board, position, power, in_play)
            line = ReadLine(line.number, line.text, None, line.error, alone)
        elif to_fleet and (unit := order_unit(line.order)) is not None and unit in to_fleet:
            why = (
                f"The army in {board.province_name(unit)} is ordered to become a fleet (and holds meanwhile)"
            )
            line = ReadLine(line.number, line.text, None, why, line.order)
        rows.append(line)
    # The conversions' lines go back among the others, by line number.
    lines_read = sorted([*read.values(), *rows], key=lambda row: row.number) if read else rows
    # The set's checks read the position only when some kind among the orders has such a check.
    lines_read = checked_together(lines_read, lambda: Reading(board, position, power, rule))
    if modules is not None and modules.any:
        lines_read = [_module_checked(board, position, modules, module_state, power, r) for r in lines_read]
    return lines_read


def _conversions_first(
    lines: list[str], board: Board, position: Position, power: str
) -> tuple[dict[int, ReadLine], list[str], set[str]]:
    """The variant's conversion orders among ``lines``, read first: their lines by number, the lines left
    for the parser (a conversion's made blank, which keeps the numbering), and the provinces of the
    armies ordered to become fleets (whose conversion is their order this phase)."""
    from dipserver.engine.conversions import parse_conversion  # their kinds load with them

    read: dict[int, ReadLine] = {}
    standard = list(lines)
    converting: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        try:
            conversion = parse_conversion(text, board, position, power) if text else None
        except OrderError as err:
            read[number], standard[number - 1] = ReadLine(number, text, None, err.reason), ""
            continue
        if conversion is None:
            continue
        standard[number - 1] = ""
        prov = province_of(conversion.unit)
        if prov in converting:
            why = f"{board.province_name(prov)} already has a conversion order"
            read[number] = ReadLine(number, text, None, why)
            continue
        converting.add(prov)
        read[number] = ReadLine(number, text, conversion, None, position=position)
    # A conversion the adjudicator sees as the unit's own order (an army becoming a fleet holds meanwhile)
    # is that unit's order this phase: another order for it is refused.
    to_fleet = {kind_of(r.order).unit_key(r.order) or "" for r in read.values() if _commands_unit(r.order)}
    return read, standard, to_fleet


def _read_alone(text: str, board: Board, position: Position, power: str, in_play: InPlay | None) -> Any:
    """What a refused line reads as on its own (one order too many for its unit or the Winter), for its
    result's record; ``None`` when it does not read at all."""
    try:
        return parse_order(text, board, position, power, modules=in_play)
    except OrderError:
        return None


def _commands_unit(order: Any) -> bool:
    return order is not None and kind_of(order).for_adjudication(order) is not None


def _module_checked(
    board: Board,
    position: Position,
    modules: Modules,
    state: ModuleState | None,
    power: str,
    line: ReadLine,
) -> ReadLine:
    if line.order is None or kind_of(line.order).group == "conversions":
        return line  # conversions are the variant's, not the modules' business
    order = line.order
    if order_unit(order) is None:
        return line  # waives and the module orders (already checked by the parser)
    why = rules.phase.order_problem(
        board, position, modules, state or rules.phase.ModuleState(), power, order
    )
    return line if why is None else ReadLine(line.number, line.text, None, why, line.order)


def read_all(
    order_texts: Mapping[str, Sequence[str] | str],
    board: Board,
    position: Position,
    modules: Modules | None,
    state: ModuleState | None,
) -> tuple[dict[str, list[Any]], dict[int, str], dict[str, list[ReadLine]], list[PlayedRow]]:
    """Every power's texts read: the orders, the text typed for each (by the order's id), each power's
    lines, and the lines refused, as results. A second order for a unit goes to the adjudicator, which
    judges it (DATC 4.D.3); order entry refuses it instead (``read_orders``' default), so a game's stored
    orders never hold one."""
    orders: dict[str, list[Any]] = {}
    texts: dict[int, str] = {}
    read_lines: dict[str, list[ReadLine]] = {}
    unreadable: list[PlayedRow] = []
    # What every power's reading shares, asked once a phase.
    converting = bool(variant_orders(board.variant))
    rule = build_rule_for(board.variant)
    for power, lines in order_texts.items():
        read = _read_power(lines, board, position, power, rule, converting, modules, state, False)
        if not read:
            continue
        read_lines[power] = read
        given: list[Any] = []
        for line in read:
            order = line.order
            if order is None:
                why = line.error or ""
                unreadable.append((power, line.refused, line.text, Outcome.INVALID, why, False, True))
            else:
                given.append(order)
                texts[id(order)] = line.text
        if given:
            orders[power] = given
    return orders, texts, read_lines, unreadable


def hand_on(
    orders: Mapping[str, Sequence[Any]],
) -> tuple[dict[str, list[Any]], dict[int, Any]]:
    """The orders the adjudicator resolves, as each order's kind says (``Kind.for_adjudication``: itself,
    another that stands in for it, or none), and for each order handed on, by its id, the order given."""
    plain, given_for, _ = orders_handed_on(orders)
    return plain, given_for


def orders_handed_on(
    orders: Mapping[str, Sequence[Any]],
) -> tuple[dict[str, list[Any]], dict[int, Any], bool]:
    """``hand_on``'s answer, and whether some order given is of a kind with an effect of its own
    (``Kind.apply``): without one, the state the phase leaves is the adjudicator's, as it left it."""
    plain: dict[str, list[Any]] = {}
    given_for: dict[int, Any] = {}
    # The kind of each class of order met, and whether it hands on another order than the one given (its
    # ``for_adjudication`` is its own): looked up once a phase, for a phase's orders are of a few kinds.
    kinds: dict[type, tuple[Kind, bool]] = {}
    for power, given in orders.items():
        handed: list[Any] = []
        for order in given:
            known = kinds.get(type(order))
            if known is None:
                kind = kind_of(order)
                own = type(kind).for_adjudication is not Kind.for_adjudication
                known = kinds[type(order)] = (kind, own)
            seen: Any = known[0].for_adjudication(order) if known[1] else order
            if seen is not None:
                handed.append(seen)
                given_for[id(seen)] = order
        if handed:
            plain[power] = handed
    return plain, given_for, any(type(kind).apply is not Kind.apply for kind, _ in kinds.values())
