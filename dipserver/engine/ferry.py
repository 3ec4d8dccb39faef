"""The Abstraction A/F rules in a movement phase (variant-rulings 5.6, Agar's revision), for ``movement.py``.

- Embarkation comes before the moves and cannot fail (``embark``): each army ordered aboard its own
  power's fleet at sea beside it leaves its province, and the fleet becomes an A/F (``Unit.aboard``) that
  takes the fleet's order. A second army for the same fleet is refused: an A/F cannot be boarded.
- Disembarkation is part of the moves: the landing army is a row of its own in the adjudication, moving
  from the A/F's sea (``add_landings``); the fleet holds in the sea meanwhile. Where it
  lands, the A/F is a plain fleet again (``landed``); where it does not, the army stays aboard.
- A Fast Ferry (a convoy by one fleet in one sea) that cannot land: an army of the fleet's own power stays
  aboard it, an A/F; another power's army stays where it was, as in the rulebook (``ferried``).

The checks of each order on its own are the kinds' (``kinds/abstraction.py``, ``kinds/boarding.py``). The
two orders' values (``ferryorders.py``) are met here through their kinds, by name (``BOARDING``,
``LANDING``): the registry loads those kinds the first time they are asked for, so that a movement phase of
a game without the rules loads neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from dipserver.engine.kinds.abstraction import OFF, chain_problem, embark_problem
from dipserver.engine.kinds.registry import MOVEMENT_CHECKS, kind_of, named
from dipserver.engine.orders import Order, OrderResult, Outcome
from dipserver.engine.resolver import HOLD, MOVE, OrderTable, resolve
from dipserver.engine.types import Unit, UnitType, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.dislodged import Dislodged
    from dipserver.engine.ferryorders import Disembark, Embark
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.resolver import Decisions
    from dipserver.engine.results import Row
    from dipserver.engine.sanitised import Sanitised

STAYS_ABOARD = "It could not land, so it stays aboard the fleet in {sea}: an A/F (Fast Ferry)"
NO_SAIL = "No A/F of yours sailed to {sea}, so no army lands from there"
NOT_REACHED = "The A/F did not reach {sea}, so its army could not land from there"
TURNED_BACK = "Its landing would have turned back its A/F's sail to {sea}, so the army stays aboard"
# The kinds' names (``kinds/boarding.py``).
BOARDING, LANDING = "embark", "disembark"


def is_landing(order: object) -> bool:
    """Whether ``order`` (of a kind the registry has) is an A/F landing its army."""
    return kind_of(order).name == LANDING


def embark(
    board: Board, units: Mapping[str, Unit], orders_by_power: Mapping[str, Sequence[Order]]
) -> tuple[dict[str, Unit], dict[int, OrderResult]]:
    """The units once the ordered armies are aboard, and each boarding order's result (by its id)."""
    after = dict(units)
    results: dict[int, OrderResult] = {}
    boarding: type[Embark] = named(BOARDING).order_class
    for power, orders in orders_by_power.items():
        others = {province_of(o.unit) for o in orders if not isinstance(o, boarding)}  # type: ignore[union-attr]
        for order in orders:
            if not isinstance(order, boarding):
                continue
            army = province_of(order.unit)
            why = embark_problem(board, after, power, order.unit, order.fleet)
            if why is None and army in others:
                why = f"The army in {board.location_name(army)} was given another order, so it does not board"
            if why is not None:
                results[id(order)] = OrderResult(power, order, Outcome.INVALID, why)
                continue
            fleet = province_of(order.fleet)
            del after[army]
            after[fleet] = replace(after[fleet], aboard=True)
            results[id(order)] = OrderResult(power, order, Outcome.SUCCESS)
    return after, results


def landed(
    new_units: dict[str, Unit],
    dislodged: dict[str, Dislodged],
    rows: Sanitised,
    success: Sequence[bool],
) -> None:
    """Where each landing army ended: ashore (the A/F a plain fleet again, dislodged or not) or aboard.
    An army lands from its row's sea: the A/F's own, or the one it sailed to (``add_chained``)."""
    dest, powers = rows.dest, rows.powers
    for row in [*rows.landing.values(), *rows.chained.values()]:
        sea = rows.provs[row]
        if not success[row]:
            continue  # still aboard, wherever the fleet is now (held, or dislodged with it)
        into = dest[row]
        assert into is not None
        new_units[into] = Unit(powers[row], UnitType.ARMY, into)
        fleet = new_units.get(sea)
        if fleet is not None and fleet.aboard:
            new_units[sea] = replace(fleet, aboard=False)
        elif sea in dislodged:
            d = dislodged[sea]
            dislodged[sea] = replace(d, unit=replace(d.unit, aboard=False))


def ferried(
    new_units: dict[str, Unit], rows: Sanitised, decisions: Decisions, dislodged_by: Sequence[int], n: int
) -> dict[int, str]:
    """Fast Ferries that could not land (their convoy held, the move failed, the army was not dislodged):
    an army of its fleet's power stays aboard it. Returns each such move's row -> the fleet's sea."""
    provs, route, path, success = rows.provs, rows.route, decisions.path, decisions.success
    aboard: dict[int, str] = {}
    for i in range(n):
        r = route[i]
        if r is None or not path[i] or success[i] or dislodged_by[i] >= 0:
            continue
        army = new_units.get(provs[i])
        fleets = [f for f in r.start if f in r.finish and success[f]]
        fleet = new_units.get(provs[fleets[0]]) if fleets else None
        if army is None or fleet is None or fleet.power != army.power or fleet.aboard:
            continue
        del new_units[provs[i]]
        new_units[fleet.province] = replace(fleet, aboard=True)
        aboard[i] = fleet.province
    return aboard


def add_landings(
    rows: Sanitised, others: Sequence[tuple[int, str, Order]], units: Mapping[str, Unit]
) -> list[tuple[int, str, Order]]:
    """A/Fs landing their armies: each landing army is a row of its own after the units', a move from the
    A/F's sea that occupies nothing there (the fleet is the sea's occupant, and holds). Like a convoyed
    army it meets no one on the border; like any unit there it cannot cut a support into its own sea.
    Returns the other orders of ``others`` (supports and convoys), which step 2 matches."""
    landing: type[Disembark] = named(LANDING).order_class
    rest: list[tuple[int, str, Order]] = []
    for entry in others:
        _, prov, order = entry
        if type(order) is not landing:
            rest.append(entry)
            continue
        i = len(rows.provs)
        into = province_of(order.dest)
        rows.landing[prov] = i
        rows.provs.append(prov)
        rows.powers.append(units[prov].power)
        rows.kind.append(MOVE)
        rows.dest.append(into)
        rows.dest_loc.append(into)
        rows.route.append(None)
        rows.supports.append([])
        rows.opponent.append(-1)
        rows.movers_to.setdefault(into, []).append(i)
    return rest


def add_chained(
    rows: Sanitised,
    chained: Sequence[tuple[int, str, Disembark]],
    moves: Sequence[tuple[int, str, str]],
    units: Mapping[str, Unit],
) -> dict[int, tuple[Outcome, str]]:
    """Landings from a sea an A/F of the power sails to this move: each is a row of its own, a move from
    that sea (``carrier``: its row -> the sail's row), made only where the sail arrives (``sail_first``).
    Returns those no A/F of the power sails for, with their outcome, by their slot in the results."""
    sailing: dict[tuple[str, str], list[str]] = {}  # (power, sea) -> the A/Fs sailing there, in order
    for _, prov, target in moves:
        unit = units[prov]
        if unit.aboard:
            sailing.setdefault((unit.power, province_of(target)), []).append(prov)
    void: dict[int, tuple[Outcome, str]] = {}
    for slot, power, order in chained:
        sea, into = province_of(order.unit), province_of(order.dest)
        afs = sailing.get((power, sea))
        if not afs:
            void[slot] = (Outcome.NO_CONVOY, NO_SAIL.format(sea=sea))
            continue
        j = rows.index[afs.pop(0)]  # one army aboard each A/F: a second landing finds none left
        i = len(rows.provs)
        rows.chained[slot] = i
        rows.carrier[i] = j
        rows.provs.append(sea)
        rows.powers.append(power)
        rows.kind.append(MOVE)
        rows.dest.append(into)
        rows.dest_loc.append(into)
        rows.route.append(None)
        rows.supports.append([])
        rows.opponent.append(-1)
        rows.movers_to.setdefault(into, []).append(i)
    return void


def sail_first(table: OrderTable, carrier: Mapping[int, int]) -> tuple[Decisions, set[int]]:
    """The phase decided with the landings from the seas A/Fs sail to (``carrier``: a landing's row ->
    its sail's row, rows of ``table``): the sails are decided first as if no army landed from a sea being
    sailed to; then the landings of the sails that arrived are made with the other moves, and a landing
    whose sail that turns back is not made (the rest decided again without it, until none turns back).
    So a landing never decides its own sail: no paradox. Returns the decisions and the landings turned
    back; a landing not made is a hold in ``table``."""
    for i in carrier:
        _stand_down(table, i)
    decisions = resolve(table)
    made = [i for i in carrier if decisions.success[carrier[i]]]
    turned_back: set[int] = set()
    while made:
        for i in made:
            table.kind[i] = MOVE
            table.movers_to.setdefault(table.dest[i], []).append(i)  # type: ignore[arg-type]
        decisions = resolve(table)
        back = {i for i in made if not decisions.success[carrier[i]]}
        if not back:
            break
        for i in made:
            _stand_down(table, i)
        turned_back |= back
        made = [i for i in made if i not in back]
        if not made:
            decisions = resolve(table)
    return decisions, turned_back


def _stand_down(table: OrderTable, i: int) -> None:
    """Row ``i`` (a landing) is left out of the moves: a hold that stands nowhere."""
    table.kind[i] = HOLD
    movers = table.movers_to[table.dest[i]]  # type: ignore[index]
    movers.remove(i)
    if not movers:
        del table.movers_to[table.dest[i]]  # type: ignore[arg-type]


def refused(before: Standing, power: str, order: Order, problem: str) -> OrderResult:
    """An order the units do not take once armies boarded. One that fitted them as they stood before (a
    fleet's convoy or move ashore, now an A/F's; a support or convoy of an army now aboard; a move by a
    convoy whose fleet now carries an army) was given in good faith on the board its power saw: the
    boarding makes it void, not illegal (the unit holds)."""
    check = MOVEMENT_CHECKS.get(type(order))
    prov = province_of(getattr(order, "unit", ""))
    unit = before.units.get(prov)
    fitted = check is not None and unit is not None and unit.power == power
    if fitted and check(before, prov, unit, order)[0] is None:  # type: ignore[misc,arg-type]
        return OrderResult(power, order, Outcome.VOID, f"{problem} (an army boarded before the moves)")
    return OrderResult(power, order, Outcome.INVALID, problem)


class Chains:
    """A movement phase's landings from the seas A/Fs sail to: those given (slot in the results, power,
    order), those no A/F sails for (their outcome by slot), and the rows turned back (``sail_first``)."""

    __slots__ = ("given", "turned_back", "void")

    def __init__(self) -> None:
        self.given: list[tuple[int, str, Disembark]] = []
        self.void: dict[int, tuple[Outcome, str]] = {}
        self.turned_back: set[int] = set()

    def take(
        self, on: bool, units: Mapping[str, Unit], board: Board, power: str, order: Disembark, slot: int
    ) -> OrderResult:
        """One given, checked on ``units`` (as they stood before the boarding, as the reader saw them):
        legal while one of the power's fleets could carry an army to its sea this move (``chain_problem``);
        kept for step 2, which lands it from the sea an A/F of the power sails to. Its result, or a
        placeholder that ``report`` replaces."""
        sea, dest = province_of(order.unit), province_of(order.dest)
        problem = chain_problem(board, units, power, sea, dest) if on else OFF
        if problem is not None:
            return OrderResult(power, order, Outcome.INVALID, problem)
        self.given.append((slot, power, order))
        return OrderResult(power, order, Outcome.VOID, "")  # a placeholder: ``report`` puts the result here

    def add_rows(
        self, rows: Sanitised, moves: Sequence[tuple[int, str, str]], units: Mapping[str, Unit]
    ) -> None:
        self.void = add_chained(rows, self.given, moves, units)

    def decide(self, table: OrderTable, carrier: Mapping[int, int]) -> Decisions:
        decisions, self.turned_back = sail_first(table, carrier)
        return decisions

    def report(
        self,
        rows: Sanitised,
        decisions: Decisions,
        results: list[Row | OrderResult],
        name: Callable[[str], str],
    ) -> None:
        """Each one's result in its slot: it landed or bounced; or it was not made (no A/F of the power
        sailed there, the sail did not arrive, or the landing would have turned it back), which counts as
        no attack, as a convoyed move without a route does."""
        for slot, power, order in self.given:
            i = rows.chained.get(slot, -1)
            reason = ""
            if i < 0:
                outcome, reason = self.void[slot]
            elif decisions.success[i]:
                outcome = Outcome.SUCCESS
            elif rows.kind[i] == MOVE:
                outcome = Outcome.BOUNCE
            else:
                why = TURNED_BACK if i in self.turned_back else NOT_REACHED
                outcome, reason = Outcome.NO_CONVOY, why.format(sea=name(order.unit))
            results[slot] = OrderResult(power, order, outcome, reason)


def at_sea_only(board: Board, moves: Iterable[str]) -> frozenset[str]:
    """An A/F retreats as a fleet, but only to sea: it never takes its army ashore by retreating."""
    return frozenset(m for m in moves if board.is_water(province_of(m)))
