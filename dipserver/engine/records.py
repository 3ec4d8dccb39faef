"""A phase's results as records: plain JSON a server stores and serves and a picture draws, so that
nothing ever reads a result's text back.

A record keeps the fields results always had (``power``, ``order``: the order in short notation for
display, ``outcome``, ``reason``, ``dislodged``) and adds what the order was:

- ``kind``: one of ``KINDS``; ``None`` for a line that did not read as any order (it is ``invalid``);
- ``unit``: the ordered unit, ``{"type": "A" | "F", "location": "STP/SC"}`` (the unit built, for a
  build); ``None`` for a waive, a blizzard token, or a unit not on the board;
- ``from``: where the ordered unit stands (``None`` for a build, a waive, a blizzard token);
- ``to``: where the unit goes if the order succeeds (a move's or retreat's destination, a build's
  site, a conversion's new location, a blizzard token's province); ``None`` when it stays;
- ``via``: how: ``{"convoy", "unit", "from", "to"}``. For a move that asks for a convoy or needs one
  (its destination is not adjacent) ``convoy`` is true; for a support or a convoy, ``unit``/``from``
  name the supported or convoyed unit and ``to`` its destination (``None`` for a support to hold).
  ``None`` for every other order.

``drawable(record)`` is what the renderer draws from a record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dipserver.engine.conversions import conversion_text
from dipserver.engine.modules.blizzard import SnowStorm
from dipserver.engine.modules.supply import EstablishDepot
from dipserver.engine.orders import (
    Build,
    ConversionOrder,
    ConvertToArmy,
    ConvertToFleet,
    Convoy,
    Disband,
    Disembark,
    Embark,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    Retreat,
    StayFleet,
    SupportHold,
    SupportMove,
    Waive,
)
from dipserver.engine.parse import format_order
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board

Record = dict[str, Any]
AnyOrder = Order | ConversionOrder | EstablishDepot | SnowStorm

# Every kind a record may have, in the order a schema lists them.
KINDS = (
    "hold",
    "move",
    "support_hold",
    "support_move",
    "convoy",
    "retreat",
    "disband",
    "build",
    "waive",
    "convert_to_army",
    "convert_to_fleet",
    "stay_fleet",
    "establish_depot",
    "place_blizzard",
    "remove_blizzard",
    "embark",
    "disembark",
)
SUPPORTING = frozenset({"support_hold", "support_move", "convoy"})
# The fields results had before records; kept in every record so that older clients read on.
PLAIN_FIELDS = ("power", "order", "outcome", "reason", "dislodged")
FIELDS = (*PLAIN_FIELDS, "kind", "unit", "from", "to", "via")


def order_record(
    power: str,
    order: AnyOrder,
    position: Position,
    *,
    outcome: Outcome | str | None,
    reason: str = "",
    dislodged: bool = False,
    text: str | None = None,
    board: Board | None = None,
) -> Record:
    """The record of ``order``, given by ``power`` in ``position``'s phase. ``text`` is what to display
    (by default the short notation); ``board`` (the phase's) tells a move that needs a convoy."""
    kind, unit, start, end, via = _described(order, position, board)
    if unit is not None and unit.power != power:
        # Not the ordered unit: a unit the supply rules remove after it moved stood elsewhere at the
        # phase's start, and another power's may have stood where it ended.
        unit = None
    return {
        "power": power,
        "order": _text(order, position) if text is None else text,
        "outcome": None if outcome is None else Outcome(outcome).value,
        "reason": reason,
        "dislodged": dislodged,
        "kind": kind,
        "unit": _unit_json(unit),
        "from": start,
        "to": end,
        "via": via,
    }


def result_record(
    result: OrderResult, position: Position, *, text: str | None = None, board: Board | None = None
) -> Record:
    """The record of one adjudicated order."""
    return order_record(
        result.power,
        result.order,
        position,
        outcome=result.outcome,
        reason=result.reason,
        dislodged=result.dislodged,
        text=text,
        board=board,
    )


def unread_record(power: str, text: str, reason: str) -> Record:
    """The record of a line that read as no order at all: ``invalid``, and nothing known of what it was."""
    return {
        "power": power,
        "order": text,
        "outcome": Outcome.INVALID.value,
        "reason": reason,
        "dislodged": False,
        **dict.fromkeys(("kind", "unit", "from", "to", "via")),
    }


def _text(order: AnyOrder, position: Position) -> str:
    if isinstance(order, ConvertToArmy | ConvertToFleet | StayFleet):
        return conversion_text(order, position)
    return format_order(order, position)  # type: ignore[arg-type]  # it writes module orders too


_Described = tuple[str, Any, str | None, str | None, Record | None]


def _described(order: AnyOrder, position: Position, board: Board | None) -> _Described:
    """kind, the unit (or its location when not on the board), from, to, via."""
    match order:
        case Hold(unit=u):
            return "hold", _unit_at(position, u), u, None, None
        case Move(unit=u, dest=d, via_convoy=asked):
            by_convoy = asked or _needs_convoy(position, board, u, d)
            via = _via(position, None, None, convoy=True) if by_convoy else None
            return "move", _unit_at(position, u), u, d, via
        case SupportHold(unit=u, target=t):
            return "support_hold", _unit_at(position, u), u, None, _via(position, t, None)
        case SupportMove(unit=u, target=t, dest=d):
            return "support_move", _unit_at(position, u), u, None, _via(position, t, d)
        case Convoy(unit=u, target=t, dest=d):
            return "convoy", _unit_at(position, u), u, None, _via(position, t, d)
        case Retreat(unit=u, dest=d):
            return "retreat", _dislodged_at(position, u), u, d, None
        case Disband(unit=u):
            return "disband", _dislodged_at(position, u), u, None, None
        case Build(power=p, unit_type=t, location=loc):
            return "build", _Unit(p, t.value, loc), None, loc, None
        case Waive():
            return "waive", None, None, None, None
        case ConvertToArmy(unit=u):
            return "convert_to_army", _unit_at(position, u), u, province_of(u), None
        case ConvertToFleet(unit=u, coast=c):
            to = f"{province_of(u)}/{c}" if c else province_of(u)
            return "convert_to_fleet", _unit_at(position, u), u, to, None
        case StayFleet(unit=u):
            return "stay_fleet", _dislodged_at(position, u), u, None, None
        case EstablishDepot(province=prov):
            return "establish_depot", _unit_at(position, prov), prov, None, None
        case Embark(unit=u, fleet=f):  # Abstraction (5.6): the army goes aboard the fleet in ``f``
            return "embark", _unit_at(position, u), u, f, _via(position, f, None)
        case Disembark(unit=u, dest=d):  # the army aboard the A/F in ``u`` lands in ``d``
            return "disembark", _unit_at(position, u), u, d, None
        case SnowStorm(province=prov, place=place):
            return ("place_blizzard" if place else "remove_blizzard"), None, None, prov, None
    raise TypeError(f"not an order: {order!r}")


@dataclass(frozen=True, slots=True)
class _Unit:
    power: str
    type: str
    location: str


def _unit_at(position: Position, location: str) -> _Unit | None:
    unit = position.units.get(province_of(location))
    return None if unit is None else _Unit(unit.power, unit.type.value, unit.location)


def _dislodged_at(position: Position, location: str) -> _Unit | None:
    """In a retreat phase an order names the dislodged unit, not the one that took its place."""
    entry = position.dislodged.get(province_of(location))
    if position.phase.type is PhaseType.RETREATS and entry is not None:
        return _Unit(entry.unit.power, entry.unit.type.value, entry.unit.location)
    return _unit_at(position, location)


def _unit_json(unit: _Unit | None) -> Record | None:
    return None if unit is None else {"type": unit.type, "location": unit.location}


def _via(position: Position, target: str | None, dest: str | None, *, convoy: bool = False) -> Record:
    unit = _unit_at(position, target) if target is not None else None
    start = unit.location if unit is not None else target
    return {"convoy": convoy, "unit": _unit_json(unit), "from": start, "to": dest}


def _needs_convoy(position: Position, board: Board | None, location: str, dest: str) -> bool:
    unit = position.units.get(province_of(location))
    if board is None or unit is None or unit.type is not UnitType.ARMY:
        return False
    return province_of(dest) not in board.army_moves(province_of(location))


@dataclass(frozen=True, slots=True)
class Drawable:
    """What the renderer needs of one record: where the order starts and ends, and how it went."""

    kind: str
    power: str
    at: str | None  # the ordered unit's location (None for a build, a waive, a blizzard token)
    to: str | None  # where it goes (move, retreat), the build site, a conversion's new location
    target: str | None  # a support's or convoy's unit
    target_to: str | None  # ... and where that unit goes (None: a support to hold)
    unit_type: str | None  # the ordered (or built) unit's type
    outcome: Outcome | None  # None: an order not yet adjudicated
    dislodged: bool  # the ordered unit was driven out


def drawable(record: Mapping[str, Any]) -> Drawable | None:
    """The record as the renderer draws it; ``None`` for a line that read as no order."""
    kind = record.get("kind")
    if kind is None:
        return None
    via = record.get("via") or {}
    unit = record.get("unit") or {}
    outcome = record.get("outcome")
    return Drawable(
        kind=kind,
        power=record["power"],
        at=record.get("from"),
        to=record.get("to"),
        target=via.get("from"),
        target_to=via.get("to"),
        unit_type=unit.get("type"),
        outcome=None if outcome is None else Outcome(outcome),
        dislodged=bool(record.get("dislodged")) or outcome == Outcome.DISLODGED.value,
    )
