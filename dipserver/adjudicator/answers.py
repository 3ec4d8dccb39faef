"""The answer of ``adjudicate`` (``jsonio.py`` has its shape): a phase's results and the next position as
JSON data, in the request's own shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from dipserver.engine.types import UnitType

if TYPE_CHECKING:
    from dipserver.engine.adjudicate import PhaseResult
    from dipserver.engine.board import Board
    from dipserver.engine.orders import Order
    from dipserver.engine.ordersheet import OrderSheet
    from dipserver.engine.position import Position
    from dipserver.engine.variant import Variant

_MAX_BOARDS = 64  # the boards whose home tables are kept: one per variant, and per home set a request gives

_OUTCOMES: dict[Any, str] = {}  # Outcome -> its value, a dict lookup quicker than the enum's property
_INVALID: Final = "invalid"  # Outcome.INVALID's value, for the texts the reader refused
_ARMY_TEXTS: Final[dict[str, str]] = {}  # location -> "A <location>"
_FLEET_TEXTS: Final[dict[str, str]] = {}  # location -> "F <location>"


def answer(
    variant: Variant, board: Board, position: Position, read: OrderSheet, result: PhaseResult
) -> dict[str, Any]:
    """The answer's JSON data: outcomes and reasons by power and order text, skipped phases, next position."""
    outcomes = _OUTCOMES
    if not outcomes:
        from dipserver.engine.orders import Outcome  # on the first answer only: an import costs each time

        outcomes.update((outcome, outcome.value) for outcome in Outcome)
    results: dict[str, dict[str, str]] = {}
    reasons: dict[str, dict[str, str]] = {}
    for power, raw, reason in read.rejected:
        results.setdefault(power, {})[raw] = _INVALID
        reasons.setdefault(power, {})[raw] = reason
    # The adjudicator reports one result per order given, in the order given, then the orders it made up
    # itself (a disband for want of a retreat, civil disorder): those are written in short notation.
    given_orders: list[Order] = []
    for orders in read.orders.values():
        given_orders.extend(orders)
    texts = read.texts
    n = min(len(texts), len(given_orders))
    for k, row in enumerate(result.results):
        text = texts[k] if k < n and row.order is given_orders[k] else _written(row.order, position)
        power = row.power
        given = results.get(power)
        if given is None:
            given = results[power] = {}
        elif text in given:
            continue  # the same text twice: the first gave the unit its order, the repeat only echoes it
        given[text] = outcomes[row.outcome]
        if row.reason:
            reasons.setdefault(power, {})[text] = row.reason
    return {
        "phase": str(result.phase),
        "results": results,
        "reasons": reasons,
        "skipped": [str(p) for p in result.skipped],
        "next": position_data(variant, result.position, board),
    }


def _written(order: Any, position: Position) -> str:
    """``parse.format_order``: the order's kind writes it. The orders the adjudicator makes up are disbands,
    whose kind is loaded alone: the whole parser (the kinds, the grammar, the conversions) costs a batch
    19 million instructions to load, to write a few dozen disbands."""
    from dipserver.engine.kinds import disband as _disband  # noqa: F401  (registers the disband kind)
    from dipserver.engine.kinds.registry import kinds

    kind = kinds().get(type(order))
    if kind is None:  # another kind, not loaded yet: the parser loads them all
        from dipserver.engine.parse import format_order

        return format_order(order, position)
    text: str = kind.text(order, position)
    return text


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
