"""The module orders as players type them, and the ones open to a power now.

- Supply lines: ``establish depot PAR``, ``depot PAR``, ``A PAR establish depot``, ``A PAR depot``
  (also ``found``/``build``; ``at``/``in`` allowed before the place).
- Snow Storm tokens: ``place blizzard MUN``, ``remove blizzard MUN`` (also ``place a blizzard on Munich``,
  ``remove the blizzard from Munich``).

Both are order kinds (``kinds/registry.py``), registered when this module is loaded: the reader
(``parse.parse_order``) asks them (``parse_module_order``) when a line is not a Diplomacy order;
``phase.Checker`` — the same answers as ``play`` — decides whether the order is allowed, so the reader
and the options never accept what the phase would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dipserver.engine.board import Board
from dipserver.engine.kinds.module_notation import DEPOT, STORM, read_notation, without_modules
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.recording import Described, held_at
from dipserver.engine.kinds.registry import Kind, register
from dipserver.engine.modules import Modules, ModuleState
from dipserver.engine.modules.phase import Checker
from dipserver.engine.modules.state import EstablishDepot, ModuleOrders, SnowStorm
from dipserver.engine.orders import Order, OrderError
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType

ModuleOrder = EstablishDepot | SnowStorm


@dataclass(frozen=True, slots=True)
class InPlay:
    """The modules of a game and what they remember, as the parser and the options need them."""

    modules: Modules
    state: ModuleState = field(default_factory=ModuleState)


def read_module_order(text: str, board: Board, power: str) -> ModuleOrder | None:
    """What ``text`` asks for if it is a module order (unchecked); ``None`` if it is not one at all."""
    found = read_notation(text, board)
    if found is None:
        return None
    what, province, placed = found
    return EstablishDepot(power, province) if what == DEPOT else SnowStorm(power, province, placed)


def parse_module_order(
    text: str, board: Board, position: Position, power: str, in_play: InPlay | None
) -> ModuleOrder | None:
    """The module order ``text`` gives, checked as ``play`` would; ``None`` if it is not a module order.

    Raises ``parse.OrderError`` with the reason when the game, phase or place does not allow it."""
    order = read_module_order(text, board, power)
    if order is None:
        return None
    if in_play is None:
        raise OrderError(without_modules((DEPOT if isinstance(order, EstablishDepot) else STORM, "", True)))
    why = Checker(board, position, in_play.modules, in_play.state).problem(power, order)
    if why is not None:
        raise OrderError(why[0].upper() + why[1:])
    return order


def module_options(board: Board, position: Position, power: str, in_play: InPlay) -> list[ModuleOrder]:
    """Every module order ``power`` may give now, each one ``order_problem`` lets through: depots for its
    units in movement phases, then Snow Storms (place, then remove) on every passable province."""
    modules, state = in_play.modules, in_play.state
    checker = Checker(board, position, modules, state)
    candidates: list[ModuleOrder] = []
    if modules.supply is not None and modules.supply.depots and position.phase.type is PhaseType.MOVEMENT:
        candidates += [EstablishDepot(power, p) for p in sorted(u.province for u in position.units_of(power))]
    if modules.blizzards is not None and state.tokens_left(modules, power) > 0:
        passable = sorted(p for p in board.provinces if board.terrain(p).passable)
        candidates += [SnowStorm(power, p, True) for p in passable]
        candidates += [SnowStorm(power, p, False) for p in passable]
    return [order for order in candidates if checker.problem(power, order) is None]


def split_orders(orders: Iterable[object]) -> tuple[list[Order], ModuleOrders]:
    """A power's parsed orders as (the unit and conversion orders, the module orders for ``play``'s
    ``extra``), each kept in the order given."""
    rest: list[Order] = []
    depots: list[EstablishDepot] = []
    storms: list[SnowStorm] = []
    for order in orders:
        if isinstance(order, EstablishDepot):
            depots.append(order)
        elif isinstance(order, SnowStorm):
            storms.append(order)
        else:
            rest.append(order)  # type: ignore[arg-type]
    return rest, ModuleOrders(tuple(depots), tuple(storms))


# --- the two order kinds --------------------------------------------------------------------------------


class _ModuleKind(Kind):
    """Depots and Snow Storm tokens are lines in the order list only: the map draws them as nothing (the
    modules' own layers show depots and blizzards)."""

    beside = True  # given beside the unit's own order

    def text(self, order: ModuleOrder, position: Position) -> str:
        return str(order)  # "establish depot PAR", "place blizzard MUN": the reader reads them back

    def batch_problem(self, reading: Reading, order: ModuleOrder, earlier: list[object]) -> str | None:
        """Why one more depot or Snow Storm is too many, with the earlier lines' ones already accepted."""
        modules = reading.modules
        assert isinstance(modules, InPlay)
        checker = Checker(reading.board, reading.position, modules.modules, modules.state)
        why = checker.batch_problem(reading.power, order, tuple(earlier))  # type: ignore[arg-type]
        return None if why is None else why[0].upper() + why[1:]


class EstablishDepotKind(_ModuleKind):
    name = "establish_depot"
    order_class = EstablishDepot
    rank = 11  # the one reader of both notations with the game's modules, tried before the conversions'

    def read_text(self, reading: Reading, text: str) -> ModuleOrder | None:
        modules = reading.modules
        if modules is None:
            return None  # kinds/module_notation.py refuses them, modules or none loaded
        assert isinstance(modules, InPlay)
        return parse_module_order(text, reading.board, reading.position, reading.power, modules)

    def record(self, order: EstablishDepot, position: Position, board: Board | None) -> Described:
        return self.name, held_at(position, order.province), order.province, None, None


class SnowStormKind(_ModuleKind):
    name = "snow_storm"
    order_class = SnowStorm
    records = ("place_blizzard", "remove_blizzard")

    def record(self, order: SnowStorm, position: Position, board: Board | None) -> Described:
        """A token names its province and no unit: nobody's unit is ordered."""
        return self.records[0 if order.place else 1], None, None, order.province, None


ESTABLISH_DEPOT = register(EstablishDepotKind())
SNOW_STORM = register(SnowStormKind())
