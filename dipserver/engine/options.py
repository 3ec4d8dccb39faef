"""The legal orders of one power in one phase, as plain data a browser or a bot can offer.

Every option is an order the parser accepts, with its canonical text (``format_order``) so a client can
send the text back unchanged. Options are the orders that *could* succeed on this map and position:
supports and convoys of units that are there, and convoyed moves along chains of seas where fleets
stand now (a convoy needs its fleets in place this phase). The parser still accepts a few more legal
orders (support of an empty province, a move waiting for a fleet that is not there): those can only fail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import dipserver.engine.modules as rules  # their play, loaded when a game first has modules
from dipserver.engine.board import Board
from dipserver.engine.builds import builds_elsewhere, free_centres
from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers the Diplomacy kinds)
from dipserver.engine.kinds.offering import Offering
from dipserver.engine.kinds.offering import Option as Option
from dipserver.engine.kinds.registry import kind_of, named, offered
from dipserver.engine.orders import Order
from dipserver.engine.parse import BuildRule, adjustment_due, build_rule_for
from dipserver.engine.position import Position
from dipserver.engine.records import Drawing, order_drawing
from dipserver.engine.timelinecache import load_timeline, variant_orders
from dipserver.engine.types import PhaseType, Unit, province_of

if TYPE_CHECKING:
    from dipserver.engine.kinds.build import BuildKind
    from dipserver.engine.kinds.conversion import ConversionOrder
    from dipserver.engine.kinds.waive import WaiveKind
    from dipserver.engine.modules.orders import EstablishDepot, SnowStorm
    from dipserver.engine.modules.phase import Checker, InPlay

    # What an option may offer: an order, a conversion, or a rule module's order.
    Offered: TypeAlias = Order | ConversionOrder | EstablishDepot | SnowStorm

# What an option is drawn in: the power offered it, the phase's position and the board it was judged on.
Drawn = tuple[str, Position, Board]


def option_data(option: Option, drawn: Drawn | None = None) -> dict[str, Any]:
    """``option.to_data()``; with ``drawn`` (the power, position and board the option is offered in), how
    the map draws it (``records.order_drawing``) as ``drawing``."""
    data = option.to_data()
    if drawn is not None:
        data["drawing"] = _drawing(option, drawn).to_data()
    return data


def _drawing(option: Option, drawn: Drawn) -> Drawing:
    """How the map draws ``option``, kept on the board: a power's option of a kind of phase is drawn from
    its text alone (the text names the units its record reads; only a build's drawing names the power)."""
    power, position, board = drawn
    key = (power, position.phase.type.value, option.text)
    found = board.option_drawings.get(key)
    if found is None:
        found = order_drawing(power, option.order, position, board, option.text)
        if len(board.option_drawings) < _DRAWINGS_CAP:
            board.option_drawings[key] = found
    return found


_DRAWINGS_CAP = 65_536  # drawings kept per board; the cap only guards a long-running process's memory


@dataclass(frozen=True, slots=True)
class Adjustment:
    """What an adjustment phase adds to a power's options; outside adjustments, none (``NO_ADJUSTMENT``)."""

    due: int = 0  # builds due (positive) or disbands due (negative; the units' options are the disbands)
    builds: tuple[Option, ...] = ()  # with builds due: each possible build, then waive
    # Deluge (E13), with builds due: the free home centres, each of which needs a build before any build
    # elsewhere is accepted, and how many builds may then go elsewhere. Builds elsewhere are offered only
    # when that is more than none. ``None``: builds go in any site offered.
    builds_first: tuple[str, ...] = ()
    builds_elsewhere: int | None = None


NO_ADJUSTMENT = Adjustment()

# Where options were offered, for their drawings: the phase's position and the board it was judged on.
Where = tuple[Position, Board]


@dataclass(frozen=True, slots=True)
class PowerOptions:
    power: str
    # Where they were offered (for their drawings): the phase's position and the board it was judged on.
    where: Where = field(repr=False)
    units: Mapping[str, tuple[Option, ...]] = field(default_factory=dict)  # unit location -> its orders
    adjustment: Adjustment = NO_ADJUSTMENT
    # The variant's conversion orders open to this power now (given beside the unit's own order, or in
    # Winter beside the builds): "F BRE becomes army", "A POR becomes fleet", "F NAO stays fleet".
    conversions: tuple[Option, ...] = ()
    # The rule modules' orders open to this power now, given beside the others: "establish depot PAR"
    # (supply lines, movement phases), "place blizzard MUN" / "remove blizzard MUN" (Snow Storm tokens).
    module_orders: tuple[Option, ...] = ()

    @property
    def phase(self) -> str:
        """The phase's name ("S1901M"): its position's."""
        return str(self.where[0].phase)

    def all(self) -> list[Option]:
        units = [option for options in self.units.values() for option in options]
        return units + list(self.adjustment.builds) + list(self.conversions) + list(self.module_orders)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready; each option with its drawing."""
        drawn = (self.power, *self.where)
        adjustment = self.adjustment
        return {
            "power": self.power,
            "phase": self.phase,
            "adjustment": adjustment.due,
            "units": {loc: [option_data(o, drawn) for o in options] for loc, options in self.units.items()},
            "builds": [option_data(o, drawn) for o in adjustment.builds],
            "conversions": [option_data(o, drawn) for o in self.conversions],
            "module_orders": [option_data(o, drawn) for o in self.module_orders],
            "builds_first": list(adjustment.builds_first),
            "builds_elsewhere": adjustment.builds_elsewhere,
        }


def legal_options(
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> PowerOptions:
    """Every order ``power`` may give in ``position``'s phase, grouped by unit.

    With ``modules`` (the game's rule modules and their state) the unit orders the modules forbid
    (``order_problem``: a snowed-in unit only holds, an unsupplied one gives no support) are left out,
    and the module orders open now are listed in ``module_orders``."""
    checker = _checker(board, position, modules)
    offering = Offering(_judged(board, checker), position, power.upper())
    return _power_options(offering, build_rule, modules, checker)


def phase_options(
    board: Board, position: Position, build_rule: BuildRule | None = None, modules: InPlay | None = None
) -> dict[str, PowerOptions]:
    """``legal_options`` of every power of the variant, by power: what each unit may do is worked out once
    for them all (a support's options read the moves of every other unit on the board)."""
    checker = _checker(board, position, modules)
    shared = Offering(_judged(board, checker), position, "")
    return {
        power: _power_options(shared.for_power(power), build_rule, modules, checker)
        for power in board.variant.powers
    }


def _checker(board: Board, position: Position, modules: InPlay | None) -> Checker | None:
    """What the modules in play forbid this phase, worked out once for every power; None without them."""
    if modules is None or not modules.modules.any:
        return None
    return rules.phase.Checker(board, position, modules.modules, modules.state)


def _judged(board: Board, checker: Checker | None) -> Board:
    """The board orders are judged on: under blizzards, their provinces closed for the season, so that no
    move, convoy route or support is offered through one (the adjudicator plays on the same board)."""
    return board if checker is None else checker.judged


def _power_options(
    offering: Offering, build_rule: BuildRule | None, modules: InPlay | None, checker: Checker | None
) -> PowerOptions:
    board, position = offering.board, offering.position
    found = _legal_options(offering, build_rule)
    if modules is None or checker is None:
        return found
    if modules.modules.abstraction and position.phase.type is PhaseType.MOVEMENT:
        ferried = {
            loc: _options(
                position, rules.abstraction.ferry_orders(board, position, unit, [o.order for o in options])
            )
            for loc, options in found.units.items()
            if (unit := position.units.get(province_of(loc))) is not None
        }
        found = replace(found, units=ferried)
    units = {
        loc: tuple(o for o in options if checker.problem(found.power, o.order) is None)
        for loc, options in found.units.items()
    }
    offered_now = rules.phase.module_options(checker.board, position, found.power, modules)
    extra = tuple(Option(str(o), o, kind_of(o).name) for o in offered_now)
    if modules.modules.abstraction and position.phase.type is PhaseType.MOVEMENT:
        landings = [
            o
            for o in rules.abstraction.chain_landings(board, position, found.power)
            if checker.problem(found.power, o) is None
        ]
        extra += _options(position, landings)
    return replace(found, units=units, module_orders=extra)


def _legal_options(offering: Offering, build_rule: BuildRule | None) -> PowerOptions:
    """The options, with where they were offered (for their drawings)."""
    board, position, power = offering.board, offering.position, offering.power
    phase = position.phase.type
    adjustment = NO_ADJUSTMENT
    if phase is PhaseType.MOVEMENT or phase is PhaseType.RETREATS:
        offers_of = _offers(offering, "units")
        if phase is PhaseType.MOVEMENT:
            ordered = offering.own_units()
        else:
            ordered = sorted(
                [d.unit for d in position.dislodged.values() if d.unit.power == power], key=_by_location
            )
        units = {u.location: _unit_options(offering, u, offers_of) for u in ordered}
    else:
        units, adjustment = _adjustment_options(offering, build_rule or build_rule_for(board.variant))
    conversions = _conversions(offering)
    return PowerOptions(power, (position, board), units, adjustment, conversions)


# A kind's ``offer``: what it offers a unit.
Offer = Callable[[Offering, Unit], Sequence[Any]]


def _offers(offering: Offering, group: str) -> list[Offer]:
    """The ``offer`` of each kind of ``group`` that offers units orders in this phase of this variant, in
    their order: once a phase, for every power."""
    found: list[Offer] | None = offering.kinds.get(group)
    if found is None:
        variant = offering.board.variant
        kinds = offered(offering.position.phase.type, group)
        found = offering.kinds[group] = [kind.offer for kind in kinds if kind.offers_in(variant)]
    return found


def _unit_options(offering: Offering, unit: Unit, offers_of: list[Offer]) -> tuple[Option, ...]:
    """What each kind offers ``unit`` (``offers_of``: their ``offer``), kind after kind: the options a kind
    keeps on the board as they are, the orders another kind gives each with its text."""
    found: list[Option] = []
    for offer in offers_of:
        offers = offer(offering, unit)
        if offers:  # none of this kind: nothing to copy
            found += offers if isinstance(offers[0], Option) else _options(offering.position, offers)
    return tuple(found)


def _conversions(offering: Offering) -> tuple[Option, ...]:
    """Each conversion order the variant allows a unit of the power in this phase and place: none in a
    variant whose timeline enables none (most; their kinds are then not even loaded)."""
    offers_of = offering.kinds.get("conversions")
    if offers_of is None:  # once a phase, for every power
        offers_of = _offers(offering, "conversions") if variant_orders(offering.board.variant) else []
        offering.kinds["conversions"] = offers_of
    if not offers_of:
        return ()
    position, power = offering.position, offering.power
    waiting = [d.unit for d in position.dislodged.values() if d.unit.power == power]  # a retreat phase
    units = sorted([*position.units_of(power), *waiting], key=_by_location)
    return tuple(option for unit in units for option in _unit_options(offering, unit, offers_of))


def _by_location(unit: Unit) -> str:
    return unit.location


def _options(position: Position, orders: Sequence[Offered]) -> tuple[Option, ...]:
    return tuple(_option(position, order) for order in orders)


def _option(position: Position, order: Offered) -> Option:
    kind = kind_of(order)
    return Option(kind.text(order, position), order, kind.name)


def _adjustment_options(
    offering: Offering, build_rule: BuildRule
) -> tuple[dict[str, tuple[Option, ...]], Adjustment]:
    """An adjustment phase's options: the disbands of each unit, or the builds; nothing when none is due."""
    position, power = offering.position, offering.power
    balance = adjustment_due(position, power)
    # Winter's kinds, by name: the registry loads them when first asked (``kinds/standard.py``).
    if balance < 0:
        disband = named("disband")
        units = {
            u.location: _options(position, disband.offer(offering, u))
            for u in sorted(position.units_of(power), key=_by_location)
        }
        return units, Adjustment(balance)
    if balance == 0:
        return {}, NO_ADJUSTMENT
    board = offering.board
    builds = cast("BuildKind", named("build")).builds(offering, build_rule)
    homes = free_centres(board.homes, position, power)[0]
    elsewhere = builds_elsewhere(load_timeline(board.variant), homes, balance)
    first: tuple[str, ...] = ()
    if elsewhere is not None:
        # The order reader refuses a build outside the free home centres unless each of them gets one
        # (``builds.build_problem``): builds elsewhere are offered only when the builds due leave room.
        sites = {province_of(b.location) for b in builds}
        if homes - sites:
            elsewhere = 0  # a free home centre that takes no build: nothing elsewhere is ever accepted
        first = tuple(sorted(homes & sites))
        if not elsewhere:
            builds = [b for b in builds if province_of(b.location) in homes]
    waive = cast("WaiveKind", named("waive")).offer(offering, None)
    return {}, Adjustment(balance, _options(position, [*builds, *waive]), first, elsewhere)
