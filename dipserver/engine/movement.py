"""The movement phase: check the orders, resolve them, and report what happened to every unit.

Three steps, as DATC v3.0 §4.E.1 frames them:

1. *Legal* — each order on its own, knowing the units but no other orders. An illegal order is ignored
   (result ``invalid`` with the reason) and the unit holds. Two different legal orders for one unit: it
   holds (DATC 4.D.3).
2. *Valid* — orders matched against each other: a support must match the supported unit's order, a convoy
   an army's move; a move needing a convoy needs an ordered route. Non-matching orders are ``void`` and the
   unit holds (and may receive hold support).
3. *Resolved* — ``resolver.resolve`` decides every move, support and convoy.

DATC preferences implemented here: an army moving to an adjacent province goes by convoy only when ordered
"via convoy" or when a fleet of its own power is ordered to convoy it, and then never falls back to the
land route (4.A.3, v3.0); a coast named in a move or support must be reachable (4.B.3, 4.B.4); a missing
coast is inferred when only one is reachable (4.B.2); a wrong coast on the ordered unit, or a coast on an
army or a one-coast province, is ignored (4.B.5, 4.B.6); a unit dislodged by a convoyed army may retreat
to the army's origin (4.A.5).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dipserver.engine.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    SupportHold,
    SupportMove,
)
from dipserver.engine.position import Dislodged
from dipserver.engine.resolver import (
    CONVOY,
    HOLD,
    MOVE,
    SUPPORT,
    ConvoyRoute,
    Decisions,
    OrderTable,
    resolve,
)
from dipserver.engine.types import Unit, UnitType, coast_of, province_of

if TYPE_CHECKING:
    from dipserver.engine.board import Board


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]  # one per order given, in the order given
    units: dict[str, Unit]  # the units still on the board, keyed by province
    dislodged: dict[str, Dislodged]  # every dislodged unit with its retreat options (possibly none)


def resolve_movement(
    board: Board, units: Mapping[str, Unit], orders_by_power: Mapping[str, Iterable[Order]]
) -> MovementOutcome:
    """Adjudicate one movement phase on ``board`` for ``units`` (keyed by province)."""
    return _Phase(board, units).run(orders_by_power)


# --- board facts this module needs beyond the Board queries, cached per board ------------------------

_WATER_NEIGHBOURS: weakref.WeakKeyDictionary[Board, dict[str, frozenset[str]]] = weakref.WeakKeyDictionary()


def water_neighbours(board: Board, prov: str) -> frozenset[str]:
    """Open seas bordering ``prov``: where a convoy can pick up or land an army, or pass on to."""
    cache = _WATER_NEIGHBOURS.get(board)
    if cache is None:
        cache = _WATER_NEIGHBOURS[board] = {}
    found = cache.get(prov)
    if found is None:
        found = cache[prov] = frozenset(p for p in board.neighbours(prov) if board.is_water(p))
    return found


def sea_route(board: Board, origin: str, dest: str, seas: Iterable[str]) -> set[str]:
    """The seas of ``seas`` that lie on some chain from ``origin`` to ``dest`` (both land provinces)."""
    usable = set(seas)
    forward = _spread(board, water_neighbours(board, origin) & usable, usable)
    if not forward:
        return set()
    backward = _spread(board, water_neighbours(board, dest) & forward, forward)
    return forward & backward


def necessary_fleets(board: Board, origin: str, dest: str, seas: Iterable[str]) -> set[str]:
    """The seas of ``seas`` that some *minimal* convoy route from ``origin`` to ``dest`` needs.

    A minimal route is a chain of seas none of which could be left out: each sea touches only its
    neighbours in the chain, only the first touches the origin and only the last the destination. A fleet on
    no such chain is not needed by any convoy, and its convoy order is illegal (DATC 6.G.19).
    """
    usable = sea_route(board, origin, dest, seas)
    at_origin = water_neighbours(board, origin)
    at_dest = water_neighbours(board, dest)
    needed: set[str] = set()
    chain: list[str] = []

    def extend(sea: str) -> None:
        if any(sea in water_neighbours(board, earlier) for earlier in chain[:-1]):
            return  # a shortcut past the last sea: not minimal
        chain.append(sea)
        if sea in at_dest:
            needed.update(chain)
        else:
            for nxt in water_neighbours(board, sea) & usable:
                if nxt not in chain and nxt not in at_origin:
                    extend(nxt)
        chain.pop()

    for first in at_origin & usable:
        extend(first)
    return needed


def _spread(board: Board, start: Iterable[str], usable: set[str]) -> set[str]:
    seen = set(start)
    stack = list(seen)
    while stack:
        for nxt in water_neighbours(board, stack.pop()):
            if nxt in usable and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


# --- the phase ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Given:
    """A legal order, as understood: ``dest`` is the move's target location with its coast settled."""

    seq: int
    power: str
    order: Order
    dest: str = ""


class _Phase:
    def __init__(self, board: Board, units: Mapping[str, Unit]) -> None:
        self.board = board
        self.units = units
        self._fleet_seas: frozenset[str] | None = None
        self._needed: dict[tuple[str, str], set[str]] = {}

    # step 1: legality -----------------------------------------------------------------------------

    def run(self, orders_by_power: Mapping[str, Iterable[Order]]) -> MovementOutcome:
        results: list[tuple[int, OrderResult]] = []
        chosen = self._legal_orders(orders_by_power, results)
        sane = self._validate(chosen)
        powers = [u.power for u in self.units.values()]
        table = OrderTable.build(sane.provs, powers, sane.kind, sane.dest, sane.route, sane.supports)
        decisions = resolve(table)
        new_units, dislodged_by, dislodged = self._aftermath(sane, table, decisions)
        for prov, g in chosen.items():
            i = table.occupant[prov]
            results.append((g.seq, self._result(g, i, sane, decisions, i in dislodged_by)))
        results.sort(key=lambda r: r[0])
        return MovementOutcome(tuple(r for _, r in results), new_units, dislodged)

    def _legal_orders(
        self, orders_by_power: Mapping[str, Iterable[Order]], results: list[tuple[int, OrderResult]]
    ) -> dict[str, _Given]:
        """Step 1: the one legal order of each ordered unit (by province); the rest reported."""
        given: dict[str, list[_Given]] = {}
        seq = 0
        for power, orders in orders_by_power.items():
            for order in orders:
                seq += 1
                problem, dest = self._illegal(power, order)
                if problem:
                    results.append((seq, OrderResult(power, order, Outcome.INVALID, problem)))
                else:
                    prov = province_of(order.unit)  # type: ignore[union-attr]
                    given.setdefault(prov, []).append(_Given(seq, power, order, dest))
        chosen: dict[str, _Given] = {}
        for prov, legal in given.items():
            first = legal[0]
            if all(g.order == first.order for g in legal[1:]):
                chosen[prov] = first
                results.extend(
                    (g.seq, OrderResult(g.power, g.order, Outcome.VOID, "Repeated order")) for g in legal[1:]
                )
            else:
                why = f"{self._unit_name(prov)} was given different orders, so it holds"
                results.extend((g.seq, OrderResult(g.power, g.order, Outcome.INVALID, why)) for g in legal)
        return chosen

    def _unit_name(self, prov: str) -> str:
        unit = self.units[prov]
        kind = "army" if unit.type is UnitType.ARMY else "fleet"
        return f"The {kind} in {self.board.location_name(unit.location)}"

    def _name(self, loc: str) -> str:
        return self.board.location_name(loc)

    def _illegal(self, power: str, order: Order) -> tuple[str, str]:
        """The reason ``order`` is illegal (empty when legal) and, for a move, its settled destination."""
        if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
            return f"{type(order).__name__} orders are not given in a movement phase", ""
        prov = province_of(order.unit)
        unit = self.units.get(prov)
        if unit is None:
            return f"There is no unit in {self._name(prov)}", ""
        if unit.power != power:
            return f"The unit in {self._name(prov)} belongs to {unit.power}, not {power}", ""
        if isinstance(order, Hold):
            return "", ""
        if isinstance(order, Move):
            return self._illegal_move(unit, order)
        if isinstance(order, SupportHold):
            return self._illegal_support(unit, province_of(order.target), None), ""
        if isinstance(order, SupportMove):
            return self._illegal_support(unit, province_of(order.target), order.dest), ""
        return self._illegal_convoy(unit, order), ""

    def _illegal_move(self, unit: Unit, order: Move) -> tuple[str, str]:
        board, here = self.board, unit.province
        dest_prov = province_of(order.dest)
        me = self._unit_name(here)
        if dest_prov == here:
            return f"{me} cannot move to the province it is already in", ""
        if not board.terrain(dest_prov).passable:
            return f"{self._name(dest_prov)} cannot be entered", ""
        if unit.type is UnitType.ARMY:
            if not order.via_convoy and dest_prov in board.army_moves(here):
                return "", dest_prov
            # Legal if fleets stand where they could carry it; whether they do is known only from their
            # orders. Such a move never turns into a hold (DATC 6.D.8).
            if board.is_coastal(dest_prov) and sea_route(board, here, dest_prov, self._fleet_seas_now()):
                return "", dest_prov
            if order.via_convoy:
                return f"{me} cannot be convoyed to {self._name(dest_prov)}", ""
            return f"{me} cannot reach {self._name(dest_prov)}", ""
        if order.via_convoy:
            return f"{me} cannot be convoyed: only armies are convoyed", ""
        coasts = board.coasts(dest_prov)
        coast = coast_of(order.dest)
        if coasts and coast in coasts:
            if order.dest in board.fleet_moves(unit.location):
                return "", order.dest
            return f"{me} cannot reach {self._name(order.dest)}", ""
        # No coast named, or one that does not exist there: whichever coast is reachable (DATC 4.B.2/4.B.6).
        options = board.fleet_reachable_coasts(unit.location, dest_prov)
        if len(options) == 1:
            return "", options[0]
        if not options:
            return f"{me} cannot reach {self._name(dest_prov)}", ""
        named = " or ".join(self._name(o) for o in options)
        return f"{me} can reach {named}: name the coast", ""

    def _illegal_support(self, unit: Unit, target: str, dest: str | None) -> str:
        board, here = self.board, unit.province
        me = self._unit_name(here)
        if target == here:
            return f"{me} cannot support itself"
        supported = self.units.get(target)
        if supported is None:
            return f"There is no unit in {self._name(target)} to support"
        into = target if dest is None else province_of(dest)
        if dest is not None:
            if into == here:
                return f"{me} cannot support a move into its own province"
            if into == target:
                return f"A unit cannot move to {self._name(target)}, where it already is"
        if not board.can_reach_province(unit.type, unit.location, into):
            return f"{me} cannot reach {self._name(into)}, so it cannot support there"
        if dest is None:
            return ""
        # The supported move must be possible while this support is given (DATC 6.D.31).
        them = self._unit_name(target)
        if supported.type is UnitType.FLEET:
            coast = coast_of(dest)
            if coast is not None and coast in board.coasts(into):
                if not board.can_move(UnitType.FLEET, supported.location, dest):
                    return f"{them} cannot reach {self._name(dest)}"
            elif not board.fleet_reachable_coasts(supported.location, into):
                return f"{them} cannot reach {self._name(into)}"
            return ""
        if into in board.army_moves(target):
            return ""
        seas = self._fleet_seas_now() - {here}
        if board.is_coastal(into) and sea_route(board, target, into, seas):
            return ""
        return f"{them} cannot reach {self._name(into)}"

    def _illegal_convoy(self, unit: Unit, order: Convoy) -> str:
        board, here = self.board, unit.province
        me = self._unit_name(here)
        if unit.type is not UnitType.FLEET:
            return f"{me} cannot convoy: only fleets convoy"
        if not board.is_water(here):
            return f"{me} cannot convoy: fleets convoy only at sea"
        target, dest = province_of(order.target), province_of(order.dest)
        army = self.units.get(target)
        if army is None:
            return f"There is no unit in {self._name(target)} to convoy"
        if army.type is not UnitType.ARMY:
            return f"{self._unit_name(target)} cannot be convoyed: only armies are convoyed"
        if dest == target or not board.is_coastal(dest) or not board.is_coastal(target):
            return f"No convoy can carry {self._unit_name(target).lower()} to {self._name(dest)}"
        # A fleet no route needs is not convoying at all (DATC 6.G.19).
        if here not in self._necessary(target, dest):
            return f"{me} is on no sea route from {self._name(target)} to {self._name(dest)}"
        return ""

    def _necessary(self, army: str, dest: str) -> set[str]:
        key = (army, dest)
        found = self._needed.get(key)
        if found is None:
            found = self._needed[key] = necessary_fleets(self.board, army, dest, self._fleet_seas_now())
        return found

    def _fleet_seas_now(self) -> frozenset[str]:
        if self._fleet_seas is None:
            self._fleet_seas = frozenset(
                p for p, u in self.units.items() if u.type is UnitType.FLEET and self.board.is_water(p)
            )
        return self._fleet_seas

    # step 2: validity ---------------------------------------------------------------------------

    def _validate(self, chosen: dict[str, _Given]) -> _Sanitised:
        """Match the legal orders against each other; what does not match holds (and is reported why)."""
        board, units = self.board, self.units
        provs = list(units)
        index = {p: i for i, p in enumerate(provs)}
        n = len(provs)
        out = _Sanitised(provs, [HOLD] * n, [None] * n, [""] * n, [None] * n, [[] for _ in range(n)], {})
        kind, dest = out.kind, out.dest

        convoys: dict[tuple[str, str], list[str]] = {}  # (army province, destination) -> convoying fleets
        for prov, g in chosen.items():
            if isinstance(g.order, Convoy):
                convoys.setdefault((province_of(g.order.target), province_of(g.order.dest)), []).append(prov)

        carried: set[str] = set()  # fleets on the route of the army they convoy
        for prov, g in chosen.items():
            if not isinstance(g.order, Move):
                continue
            i = index[prov]
            target = province_of(g.dest)
            unit = units[prov]
            fleets = convoys.get((prov, target), [])
            by_sea = unit.type is UnitType.ARMY and (
                g.order.via_convoy
                or target not in board.army_moves(prov)
                or any(units[f].power == unit.power for f in fleets)
            )
            if by_sea:
                r = out.route[i] = self._route(prov, target, fleets, index)
                carried.update(f for f in fleets if index[f] in r.links)
                if not r.links:
                    # Still a move (it cannot receive hold support), but one that cannot arrive (DATC 6.D.8).
                    why = f"No fleets were ordered to convoy it to {self._name(target)}"
                    out.void[i] = (Outcome.NO_CONVOY, why)
            kind[i] = MOVE
            dest[i] = target
            out.dest_loc[i] = g.dest

        for prov, g in chosen.items():
            i = index[prov]
            order = g.order
            if isinstance(order, Convoy):
                if prov in carried:
                    kind[i] = CONVOY
                else:
                    them = self._unit_name(province_of(order.target))
                    out.void[i] = (Outcome.VOID, f"{them} was not convoyed to {self._name(order.dest)}")
            elif isinstance(order, SupportHold | SupportMove):
                j = index[province_of(order.target)]
                into = province_of(order.dest) if isinstance(order, SupportMove) else None
                if self._matches(order, kind[j], dest[j], out.dest_loc[j]):
                    kind[i] = SUPPORT
                    dest[i] = into
                    out.supports[j].append(i)
                else:
                    them = self._unit_name(provs[j])
                    what = "hold" if into is None else f"move to {self._name(order.dest)}"
                    out.void[i] = (Outcome.VOID, f"{them} did not {what}")
        return out

    @staticmethod
    def _matches(order: SupportHold | SupportMove, kind: int, dest: str | None, dest_loc: str) -> bool:
        """Whether a support matches the supported unit's (sanitised) order."""
        if isinstance(order, SupportHold):
            return kind != MOVE
        if kind != MOVE or dest != province_of(order.dest):
            return False
        # A coast named in the support must be the one moved to; an omitted coast matches (DATC 6.B.7-9).
        coast = coast_of(order.dest)
        return coast is None or coast_of(dest_loc) in (coast, None)

    def _route(self, army: str, target: str, fleets: list[str], index: Mapping[str, int]) -> ConvoyRoute:
        board = self.board
        seas = sea_route(board, army, target, fleets)
        start = tuple(index[s] for s in sorted(water_neighbours(board, army) & seas))
        finish = frozenset(index[s] for s in water_neighbours(board, target) & seas)
        links = {index[s]: tuple(index[t] for t in sorted(water_neighbours(board, s) & seas)) for s in seas}
        return ConvoyRoute(start, finish, links)

    # step 3 is resolver.resolve; step 4: where everyone ends up ------------------------------------

    def _aftermath(
        self, sane: _Sanitised, table: OrderTable, decisions: Decisions
    ) -> tuple[dict[str, Unit], dict[int, int], dict[str, Dislodged]]:
        """The units after the moves, who dislodged whom (unit -> attacker), and the dislodged units."""
        units, provs, kind, dest = self.units, sane.provs, sane.kind, sane.dest
        success, path = decisions.success, decisions.path
        moved_in = {dest[i]: i for i in range(len(provs)) if kind[i] == MOVE and success[i]}
        new_units: dict[str, Unit] = {}
        dislodged_by: dict[int, int] = {}
        for i, prov in enumerate(provs):
            unit = units[prov]
            if kind[i] == MOVE and success[i]:
                new_units[dest[i]] = Unit(unit.power, unit.type, sane.dest_loc[i])  # type: ignore[index]
            elif prov in moved_in:
                dislodged_by[i] = moved_in[prov]
            else:
                new_units[prov] = unit

        # A standoff leaves a province empty after a real contest: not a move whose convoy broke, nor one
        # that lost a head-to-head battle (DATC 6.H.9). No unit may retreat there.
        contested: set[str] = set()
        for target, movers in table.movers_to.items():
            if target not in new_units and any(
                path[m] and not (table.opponent[m] >= 0 and success[table.opponent[m]]) for m in movers
            ):
                contested.add(target)

        dislodged: dict[str, Dislodged] = {}
        for i, m in dislodged_by.items():
            unit = units[provs[i]]
            # The attacker's origin is closed unless the attacker came by sea (DATC 4.A.5, 2023 rules).
            closed = provs[m] if sane.route[m] is None else None
            options = self._retreats(unit, new_units, contested, closed)
            dislodged[provs[i]] = Dislodged(unit, provs[m], options)
        return new_units, dislodged_by, dislodged

    def _retreats(
        self, unit: Unit, occupied: Mapping[str, Unit], contested: set[str], closed: str | None
    ) -> tuple[str, ...]:
        board = self.board
        if unit.type is UnitType.ARMY:
            candidates: Iterable[str] = board.army_moves(unit.province)
        else:
            candidates = board.fleet_moves(unit.location)
        return tuple(
            sorted(
                loc
                for loc in candidates
                if (p := province_of(loc)) not in occupied and p not in contested and p != closed
            )
        )

    # step 5: results ------------------------------------------------------------------------------

    @staticmethod
    def _result(g: _Given, i: int, sane: _Sanitised, decisions: Decisions, dislodged: bool) -> OrderResult:
        def said(outcome: Outcome, reason: str = "") -> OrderResult:
            return OrderResult(g.power, g.order, outcome, reason, dislodged)

        if i in sane.void:
            return said(*sane.void[i])
        kind, success = sane.kind[i], decisions.success[i]
        if kind == HOLD:
            return said(Outcome.DISLODGED if dislodged else Outcome.SUCCESS)
        if kind == MOVE:
            if success:
                return said(Outcome.SUCCESS)
            if not decisions.path[i]:
                return said(Outcome.NO_CONVOY, "The convoy was disrupted")
            return said(Outcome.BOUNCE)
        if kind == SUPPORT:
            return said(Outcome.SUCCESS if success else Outcome.CUT)
        if i in decisions.paradox:
            return said(Outcome.VOID, "Convoy paradox: by the Szykman rule this fleet does not convoy")
        return said(Outcome.SUCCESS if success else Outcome.DISLODGED)


@dataclass(slots=True)
class _Sanitised:
    """The orders after step 2, one row per unit (``provs[i]`` is unit ``i``'s province)."""

    provs: list[str]
    kind: list[int]
    dest: list[str | None]
    dest_loc: list[str]  # a move's destination location (with its coast)
    route: list[ConvoyRoute | None]
    supports: list[list[int]]
    void: dict[int, tuple[Outcome, str]]  # unit -> the outcome and reason of its non-matching order
