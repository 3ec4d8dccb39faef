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

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

# The Abstraction A/F rules' steps in the phase (boarding before the moves, landing armies' rows).
from dipserver.engine import ferry

# The convoy searches and retreat rules, kept in their own light module;
# re-exported here, where the rest of the engine and the tests look for them.
from dipserver.engine.convoys import (
    DISRUPTED,
    PARADOX,
    _province,
    contested_provinces,
    convoy_route,
    necessary_fleets,  # noqa: F401  (re-exported)
    retreat_options,
    sea_route,  # noqa: F401  (re-exported)
    water_neighbours,  # noqa: F401  (re-exported)
)

# The kinds of order a movement phase adjudicates (the A/F rules' load when first asked for: ``check_of``).
from dipserver.engine.kinds import convoy, hold, move, support  # noqa: F401
from dipserver.engine.kinds.registry import MOVEMENT_CHECKS, check_of
from dipserver.engine.kinds.standing import Standing
from dipserver.engine.orders import Convoy, Hold, Move, Order, OrderResult, Outcome, SupportMove
from dipserver.engine.resolver import CONVOY, HOLD, MOVE, SUPPORT, Decisions, OrderTable, resolve
from dipserver.engine.results import Results, Row
from dipserver.engine.sanitised import Sanitised
from dipserver.engine.types import Unit, UnitType, coast_of, unit_moved

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.dislodged import Dislodged


# --- the phase ----------------------------------------------------------------------------------------


_NOWHERE: Final[frozenset[str]] = frozenset()


def _same_coast(board: Board, supported: str, moved: str) -> bool:
    """A coast named in a support must be the one moved to; an omitted coast matches (DATC 6.B.7-9), and
    so does a coast the province does not have (ignored, 4.B.6)."""
    if "/" not in supported:
        return True
    named = coast_of(supported)
    return named not in board.coasts(_province(supported)) or coast_of(moved) in (named, None)


_Given = tuple[int, str, Order, str]  # (slot in the results, power, legal order, a move's settled target)
_Chosen = list[_Given | None]  # the one legal order of each unit, by unit number (None: not ordered)


class MovementPhase:
    """One movement phase being adjudicated: ``run`` gives its outcome as three parts (the results, the
    units still on the board, the dislodged units), which the phase pipeline (``adjudicate``) and the
    tests take apart at once."""

    def __init__(
        self, board: Board, units: Mapping[str, Unit], checked: bool = False, abstraction: bool = False
    ) -> None:
        self.board = board
        # A dict, whatever mapping came: compiled, a dict's lookups are C calls, a Mapping's method calls.
        self.units: dict[str, Unit] = units if isinstance(units, dict) else dict(units)
        self.ferry = abstraction
        self._boarded: dict[int, OrderResult] = {}  # id of each boarding order -> its result (A/F rules)
        self._before: Standing | None = None  # the units before any army boarded, when one did (A/F rules)
        # What the kinds' checks of step 1 read (``checked``: the reader has checked each order on its own).
        self.standing = Standing(board, self.units, checked, abstraction)
        # The chosen orders by kind, in the order given (step 1 fills them, step 2 reads them).
        self._moves: list[tuple[int, str, str]] = []  # (unit number, province, settled target)
        self._others: list[
            tuple[int, str, Order]
        ] = []  # supports and convoys: (unit number, province, order)
        # A/F rules: landings from a sea the power has no unit in, which an A/F of its own sails to.
        self._chains = ferry.Chains()

    def run(
        self, orders_by_power: Mapping[str, Iterable[Order]]
    ) -> tuple[Results, dict[str, Unit], dict[str, Dislodged]]:
        if self.ferry:  # armies board before the moves (5.6): the phase is played on the units after
            given = {p: list(o) for p, o in orders_by_power.items()}
            before = self.standing
            self.units, self._boarded = ferry.embark(self.board, self.units, given)
            orders_by_power = given
            if any(r.outcome is Outcome.SUCCESS for r in self._boarded.values()):
                self._before = before
                self.standing = Standing(self.board, self.units, before.checked, True)
        # In the order given, as rows (``results.py``); legal orders' slots are filled last.
        results: list[Row | OrderResult] = []
        # The units by number (``Sanitised``'s rows) before step 1, which keeps each unit's order in its row.
        provs, at = list(self.units), list(self.units.values())
        index = {p: i for i, p in enumerate(provs)}
        chosen = self._legal_orders(orders_by_power, results, index, at)
        sane = self._validate(provs, index, at)
        table = OrderTable(
            sane.provs,
            sane.powers,
            sane.kind,
            sane.dest,
            sane.route,
            sane.supports,
            sane.index,
            sane.movers_to,
            sane.opponent,
        )
        # With landings from the seas A/Fs sail to, the sails first (``ferry.Chains.decide``).
        decisions = resolve(table) if not sane.carrier else self._chains.decide(table, sane.carrier)
        new_units, dislodged_by, dislodged = self._aftermath(sane, table, decisions)
        self._report(chosen, sane, decisions, dislodged_by, results)
        if self._chains.given:
            self._chains.report(sane, decisions, results, self.standing.name)
        return Results(results), new_units, dislodged

    # step 1: legality -----------------------------------------------------------------------------

    def _legal_orders(
        self,
        orders_by_power: Mapping[str, Iterable[Order]],
        results: list[Row | OrderResult],
        index: dict[str, int],
        at: list[Unit],
    ) -> _Chosen:
        """The one legal order of each ordered unit, by number (``at[index[prov]]``); the rest reported."""
        checks, standing, checked = MOVEMENT_CHECKS, self.standing, self.standing.checked
        fleet_table, army_table = self.board.fleet_table, self.board.army_table
        # Read once, not per order (an enum's member is read slowly in Python 3.11).
        fleet, hold_order, move_order = UnitType.FLEET, Hold, Move
        move_check = checks[Move]
        chosen: _Chosen = [None] * len(at)
        extra: dict[int, list[_Given]] = {}
        moves, others = self._moves, self._others
        for power, orders in orders_by_power.items():
            for order in orders:
                cls = type(order)
                # Holds and moves (most orders) are decided below; other checks may load late (check_of).
                check = None if cls is hold_order or cls is move_order else (checks.get(cls) or check_of(cls))
                if check is None and cls is not hold_order and cls is not move_order:
                    if id(order) in self._boarded:  # an army boarding a fleet: done before the moves
                        results.append(self._boarded[id(order)])
                        continue
                    problem = f"{cls.__name__} orders are not given in a movement phase"
                else:
                    loc = order.unit  # type: ignore[union-attr]
                    prov, i = loc, index.get(loc, -1)  # the units' provinces name no coast
                    if i < 0 and "/" in loc:
                        prov = _province(loc)
                        i = index.get(prov, -1)
                    unit = at[i] if i >= 0 else None
                    # A landing from a sea an A/F may sail to (not a hold or a move: most orders are, and
                    # need no comparing): checked on the units before any boarded.
                    afar = cls is not move_order and cls is not hold_order
                    if afar and (unit is None or unit.power != power) and ferry.is_landing(order):
                        seen = (self._before or standing).units
                        landing = self._chains.take(self.ferry, seen, self.board, power, order, len(results))  # type: ignore[arg-type]
                        results.append(landing)
                        continue
                    if unit is None:
                        problem = f"There is no unit in {standing.name(prov)}"
                    elif not checked and unit.power != power:
                        problem = (
                            f"The unit in {self.standing.name(prov)} belongs to {unit.power}, not {power}"
                        )
                    else:
                        # Holds and plain moves to a neighbour are most orders: decided here, without a
                        # call to their check (which would say the same). (The armies' table names
                        # provinces only: a move naming a coast goes to the check.)
                        problem = ""
                        if cls is hold_order:
                            problem, dest = None, ""
                        elif cls is move_order and not order.via_convoy:  # type: ignore[union-attr]
                            dest = order.dest  # type: ignore[union-attr]
                            if unit.type is fleet:
                                if dest in fleet_table.get(unit.location, _NOWHERE) and not unit.aboard:
                                    problem = None
                            elif dest in army_table.get(prov, _NOWHERE):
                                problem = None
                        if problem is not None:
                            problem, dest = (check or move_check)(standing, prov, unit, order)
                        if problem is None:
                            given = (len(results), power, order, dest)
                            if chosen[i] is not None:
                                extra.setdefault(i, []).append(given)
                            else:
                                chosen[i] = given
                                # Sorted for step 2 as they come, saving it a pass over the orders.
                                if cls is move_order:
                                    moves.append((i, prov, dest))
                                elif cls is not hold_order:
                                    others.append((i, prov, order))
                            results.append(None)  # type: ignore[arg-type]  # filled in by _report
                            continue
                assert problem is not None  # (a legal order went on above)
                results.append(self._refused(power, order, problem))
        self._repeated(chosen, extra, results)
        return chosen

    def _refused(self, power: str, order: Order, problem: str) -> Row | OrderResult:
        """An order the units do not take: illegal, or void where an army's boarding made it so."""
        if self._before is not None:
            return ferry.refused(self._before, power, order, problem)
        return (power, order, Outcome.INVALID, problem, False)

    def _repeated(
        self, chosen: _Chosen, extra: dict[int, list[_Given]], results: list[Row | OrderResult]
    ) -> None:
        """The units given two legal orders: a repeat is void; given different ones, the unit holds."""
        for i, later in extra.items():
            first = chosen[i]
            assert first is not None
            if all(g[2] == first[2] for g in later):
                for slot, power, order, _ in later:
                    results[slot] = (power, order, Outcome.VOID, "Repeated order", False)
            else:
                # Different legal orders for one unit: it holds, and may receive hold support (DATC 4.D.3).
                chosen[i] = None
                prov = list(self.units)[i]  # (rare: read from the units, not kept for every phase)
                self._moves = [m for m in self._moves if m[0] != i]
                self._others = [o for o in self._others if o[0] != i]
                why = f"{self.standing.unit_name(prov)} was given different orders, so it holds"
                for slot, power, order, _ in [first, *later]:
                    results[slot] = (power, order, Outcome.INVALID, why, False)

    # step 2: validity ---------------------------------------------------------------------------

    def _validate(self, provs: list[str], index: dict[str, int], at: list[Unit]) -> Sanitised:
        """Match the legal orders against each other; what does not match holds (and is reported why)."""
        out = Sanitised(provs, index, at)
        if self.ferry:  # the landings are rows of their own; the other orders are matched below
            self._others = ferry.add_landings(out, self._others, self.units)
            if self._chains.given:
                self._chains.add_rows(out, self._moves, self.units)
        carried = self._route_moves(out)
        kind, dest, route, opponent = out.kind, out.dest, out.route, out.opponent
        for i, prov, _ in self._moves:
            j = index.get(dest[i], -1)  # type: ignore[arg-type]
            # Two units swapping by land meet on the border; a convoyed unit passes it by (DATC 4.A.7).
            if j >= 0 and kind[j] == MOVE and dest[j] == prov and route[i] is None and route[j] is None:
                opponent[i] = j
        self._match(out, carried)
        return out

    def _route_moves(self, out: Sanitised) -> set[str]:
        """Each move's row, and the convoy route of each that goes by sea; returns the fleets on the route
        of the army they convoy."""
        board, units, index, movers_to = self.board, self.units, out.index, out.movers_to
        kind, dest, dest_loc, route = out.kind, out.dest, out.dest_loc, out.route
        moves, others = self._moves, self._others
        convoys: dict[tuple[str, str], list[str]] = {}  # (army province, destination) -> convoying fleets
        for _, prov, order in others:
            if type(order) is Convoy:
                key = (_province(order.target), _province(order.dest))
                convoys.setdefault(key, []).append(prov)

        carried: set[str] = set()  # fleets on the route of the army they convoy
        by_sea = self.standing.by_sea
        for i, prov, target in moves:
            into = target if "/" not in target else _province(target)
            kind[i] = MOVE
            dest[i] = into
            dest_loc[i] = target
            movers_to.setdefault(into, []).append(i)
            fleets = convoys.get((prov, into)) if convoys else None
            if not by_sea or prov not in by_sea:
                # A move to a neighbour goes by sea only if a fleet of the army's own power convoys it.
                if not fleets:
                    continue
                unit = units[prov]
                if unit.type is UnitType.FLEET or all(units[f].power != unit.power for f in fleets):
                    continue
            r = route[i] = convoy_route(board, prov, into, fleets or [], index)
            if r.links:
                carried.update(f for f in fleets or () if index[f] in r.links)
            else:
                # Still a move (it cannot receive hold support), but one that cannot arrive (DATC 6.D.8).
                out.void[i] = (
                    Outcome.NO_CONVOY,
                    f"No fleets were ordered to convoy it to {self.standing.name(into)}",
                )
        return carried

    def _match(self, out: Sanitised, carried: set[str]) -> None:
        """Supports and convoys matched against the orders they name; what does not match is void."""
        board, index, provs = self.board, out.index, out.provs
        kind, dest, dest_loc = out.kind, out.dest, out.dest_loc
        for i, prov, order in self._others:
            if type(order) is Convoy:
                if prov in carried:
                    kind[i] = CONVOY
                else:
                    them = self.standing.unit_name(_province(order.target))
                    out.void[i] = (
                        Outcome.VOID,
                        f"{them} was not convoyed to {self.standing.name(order.dest)}",
                    )
                continue
            target = order.target  # type: ignore[union-attr]
            j = index[target if "/" not in target else _province(target)]
            if out.landing and provs[j] in out.landing and isinstance(order, SupportMove):
                landing = out.landing[provs[j]]  # the army an A/F lands, if it lands where supported
                j = landing if dest[landing] == _province(order.dest) else j
            goes: str | None = None  # where the supported move goes; None for a hold support
            if isinstance(order, SupportMove):
                goes = order.dest
                if "/" in goes:
                    goes = _province(goes)
                    matched = (
                        kind[j] == MOVE and dest[j] == goes and _same_coast(board, order.dest, dest_loc[j])
                    )
                else:
                    matched = kind[j] == MOVE and dest[j] == goes
            else:
                matched = kind[j] != MOVE
            if matched:
                kind[i] = SUPPORT
                dest[i] = goes
                out.supports[j] = [*out.supports[j], i]  # a list of its own (``Sanitised.supports``)
            else:
                them = self.standing.unit_name(provs[j])
                what = "hold" if goes is None else f"move to {self.standing.name(order.dest)}"  # type: ignore[union-attr]
                out.void[i] = (Outcome.VOID, f"{them} did not {what}")

    # step 3 is resolver.resolve; step 4: where everyone ends up ------------------------------------

    def _aftermath(
        self, sane: Sanitised, table: OrderTable, decisions: Decisions
    ) -> tuple[dict[str, Unit], list[int], dict[str, Dislodged]]:
        """The units after the moves, who dislodged whom (by unit: its attacker, or -1), and the dislodged
        units."""
        provs, kind, dest, index = sane.provs, sane.kind, sane.dest, sane.index
        success = decisions.success
        dislodged_by = [-1] * len(sane.at)  # by unit: the move that arrived where it stands, or -1
        for movers in table.movers_to.values():
            for m in movers:
                if success[m] and (j := index.get(dest[m], -1)) >= 0:  # type: ignore[arg-type]
                    dislodged_by[j] = m
        new_units: dict[str, Unit] = {}
        hits = False
        for i, unit in enumerate(sane.at):
            if kind[i] == MOVE and success[i]:
                loc = sane.dest_loc[i]
                moved = (
                    unit_moved(unit.power, unit.type, loc)
                    if not unit.aboard
                    else Unit(unit.power, unit.type, loc, True)
                )
                new_units[dest[i]] = moved  # type: ignore[index]
                dislodged_by[i] = -1  # (moved out first)
            elif dislodged_by[i] >= 0:
                hits = True
            else:
                new_units[provs[i]] = unit
        if self.ferry:
            sane.ferried = ferry.ferried(new_units, sane, decisions, dislodged_by, len(sane.at))
        if not hits:
            if sane.landing or sane.chained:
                ferry.landed(new_units, {}, sane, success)
            return new_units, dislodged_by, {}

        # A unit is dislodged: the value's module loads with the first (``dislodged.py``).
        from dipserver.engine.dislodged import Dislodged

        contested = contested_provinces(table.movers_to, new_units, decisions, table.opponent)

        dislodged: dict[str, Dislodged] = {}
        for i, m in enumerate(dislodged_by):
            if m < 0:
                continue
            unit = sane.at[i]
            # The attacker's origin is closed unless the attacker came by sea (DATC 4.A.5, 2023 rules).
            closed = provs[m] if sane.route[m] is None else None
            moves = self.board.fleet_moves(unit.location) if unit.type is UnitType.FLEET else None
            if unit.aboard and moves is not None:
                moves = ferry.at_sea_only(self.board, moves)
            options = retreat_options(self.board, unit.location, moves, new_units, contested, closed)
            dislodged[provs[i]] = Dislodged(unit, provs[m], options)
        if sane.landing or sane.chained:
            ferry.landed(new_units, dislodged, sane, success)
        return new_units, dislodged_by, dislodged

    # step 5: results ------------------------------------------------------------------------------

    @staticmethod
    def _report(
        chosen: _Chosen,
        sane: Sanitised,
        decisions: Decisions,
        dislodged_by: list[int],
        results: list[Row | OrderResult],
    ) -> None:
        """Fill in the result of every order that was resolved (its slot in ``results``)."""
        kinds, void = sane.kind, sane.void
        success, path, paradox = decisions.success, decisions.path, decisions.paradox
        voids, landing, ferried = bool(void), sane.landing, sane.ferried
        # Read once, not per order (an enum's member is read slowly in Python 3.11).
        succeeded, bounce, cut = Outcome.SUCCESS, Outcome.BOUNCE, Outcome.CUT
        dislodged = Outcome.DISLODGED
        for i, given in enumerate(chosen):
            if given is None:
                continue
            slot, power, order, _ = given
            hit = dislodged_by[i] >= 0
            reason = ""
            if landing and sane.provs[i] in landing:  # the unit's order is an A/F's landing
                i = landing[sane.provs[i]]  # the landing army's row; ``hit``: its A/F was dislodged
            kind = kinds[i]
            if voids and i in void:
                outcome, reason = void[i]
            elif kind == MOVE:
                if success[i]:
                    outcome = succeeded
                elif path[i]:
                    outcome = bounce
                    if ferried and i in ferried:
                        reason = ferry.STAYS_ABOARD.format(sea=ferried[i])
                else:
                    outcome, reason = Outcome.NO_CONVOY, DISRUPTED
            elif kind == SUPPORT:
                outcome = succeeded if success[i] else cut
            elif kind == HOLD:
                outcome = dislodged if hit else succeeded
            elif i in paradox:
                outcome = Outcome.VOID
                reason = PARADOX
            else:
                outcome = succeeded if success[i] else dislodged
            results[slot] = (power, order, outcome, reason, hit)
