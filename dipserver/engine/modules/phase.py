"""The phase pipeline with rule modules: ``open_phase`` when a phase opens, ``play`` to adjudicate it.

A game with modules keeps a ``ModuleState`` beside each phase (its parts are ``state.py``'s); ``InPlay``
is the game's modules with that state, as the reader (``parse_module_order``, ``order_problem``) and the
options (``module_options``) check orders against them. The server's loop becomes:

1. apply the timeline hooks as for any variant (the map of the new phase);
2. ``open_phase(board, position, modules, state, secret)``: draws and announces the blizzards of a movement
   phase (then the pending Snow Storms), and traces everyone's supply for the map to show;
3. ``play(board, position, orders, modules, state, extra=ModuleOrders(...))``: screens the orders the
   modules forbid, runs the standard ``adjudicate`` (on the blizzard overlay), then founds and loses
   depots, runs the supply check after the seasons it is due, removes long-unsupplied units at Winter,
   and queues the Snow Storms ordered for the next draw.

With ``Modules()`` (nothing on), ``play`` returns exactly what ``adjudicate`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import dipserver.engine.modules as rules  # the rule modules, each loaded when a game first plays it
from dipserver.engine.adjudicate import PhaseResult, adjudicate
from dipserver.engine.board import Board
from dipserver.engine.buildsites import has_adjustments
from dipserver.engine.kinds.module_notation import DEPOT, STORM, without_modules
from dipserver.engine.lateorders import Disband
from dipserver.engine.modules import Modules
from dipserver.engine.modules.orders import EstablishDepot, ModuleOrder, SnowStorm, read_module_order
from dipserver.engine.modules.state import Aboard, Depot, SupplyState
from dipserver.engine.modules.state import ModuleOrders as ModuleOrders
from dipserver.engine.orders import Order, OrderError, OrderResult, Outcome
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, PhaseType, Season, Unit

if TYPE_CHECKING:
    from dipserver.engine.modules.screen import Problem
    from dipserver.engine.modules.supply import SupplyOptions, SupplyReport


@dataclass(frozen=True, slots=True)
class ModuleState:
    """What the modules carry from one phase to the next; store it with the phase (``to_data``)."""

    blizzards: frozenset[str] = frozenset()  # the blizzards of the current movement phase and its retreats
    storms: tuple[SnowStorm, ...] = ()  # Snow Storms ordered, waiting for the next movement phase's draw
    tokens_used: Mapping[str, int] = field(default_factory=dict)  # power -> Snow Storm tokens spent
    supply: SupplyState = field(default_factory=SupplyState)
    aboard: Aboard = field(default_factory=lambda: Aboard({}, {}))  # Davis's limit: moves ended aboard

    def tokens_left(self, modules: Modules, power: str) -> int:
        total = modules.blizzards.snow_storm_tokens if modules.blizzards else 0
        return total - self.tokens_used.get(power, 0)

    def to_data(self) -> dict[str, Any]:
        data = {
            "blizzards": sorted(self.blizzards),
            "storms": [{"power": s.power, "province": s.province, "place": s.place} for s in self.storms],
            "tokens_used": dict(sorted(self.tokens_used.items())),
            "supply": self.supply.to_data(),
        }
        if self.aboard.units or self.aboard.dislodged:  # only with Davis's limit, and an army aboard
            data["aboard"] = {
                "units": dict(sorted(self.aboard.units.items())),
                "dislodged": dict(sorted(self.aboard.dislodged.items())),
            }
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ModuleState:
        return cls(
            frozenset(data.get("blizzards", ())),
            tuple(SnowStorm(s["power"], s["province"], s["place"]) for s in data.get("storms", ())),
            dict(data.get("tokens_used", {})),
            SupplyState.from_data(data.get("supply", {})),
            Aboard(
                dict(data.get("aboard", {}).get("units", {})),
                dict(data.get("aboard", {}).get("dislodged", {})),
            ),
        )


@dataclass(frozen=True, slots=True)
class InPlay:
    """The modules of a game and what they remember, as the parser and the options need them."""

    modules: Modules
    state: ModuleState = field(default_factory=ModuleState)


@dataclass(frozen=True, slots=True)
class Opened:
    """A phase as the modules open it: their state, the supply lines traced, what to announce."""

    state: ModuleState  # with this phase's blizzards
    supply: SupplyReport | None  # everyone's supply lines as the phase opens (movement phases)
    events: tuple[Mapping[str, Any], ...]  # what to announce, as plain data

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: the state (``ModuleState.to_data``), everyone's supply ``lines`` as the phase opens
        (``SupplyReport.to_data`` with the marks; ``None`` outside movement or without supply lines) and
        the events. This is what ``render_svg(..., modules=...)`` draws."""
        lines = self.supply.to_data(self.state.supply) if self.supply else None
        return {**self.state.to_data(), "lines": lines, "events": [dict(e) for e in self.events]}


@dataclass(frozen=True, slots=True)
class Played:
    """A phase played with the modules on: the results, the state to keep, and what they refused."""

    result: PhaseResult  # as ``adjudicate`` gives it, module answers and Winter removals included
    state: ModuleState  # to keep with the next phase (then pass it to ``open_phase``)
    refused: tuple[tuple[EstablishDepot | SnowStorm, str], ...]  # module orders not accepted, and why
    check: SupplyReport | None  # the supply check made after this phase, if one was due

    def to_data(self) -> dict[str, Any]:
        """The module part of a phase's answer, JSON-ready (the PhaseResult is serialised as usual)."""
        return {
            "refused": [{"power": o.power, "order": str(o), "reason": why} for o, why in self.refused],
            "check": self.check.to_data(self.state.supply) if self.check else None,
            "state": self.state.to_data(),
        }


def open_phase(board: Board, position: Position, modules: Modules, state: ModuleState, secret: str) -> Opened:
    """The module state for the phase ``position.phase`` on ``board`` (its map after the hooks)."""
    phase = position.phase
    events: list[Mapping[str, Any]] = []
    if phase.type is PhaseType.MOVEMENT and modules.blizzards is not None:
        drawn = rules.blizzard.draw(board, phase, secret, modules.blizzards)
        storms = state.storms
        now = rules.blizzard.apply_storms(drawn, storms, board)
        state = replace(state, blizzards=now, storms=())
        events.append(
            {
                "kind": "blizzards",
                "phase": str(phase),
                "provinces": sorted(now),
                "drawn": sorted(drawn),
                "storms": rules.blizzard.storm_effects(drawn, storms, board),
            }
        )
    elif phase.type is PhaseType.ADJUSTMENTS:
        state = replace(state, blizzards=frozenset())
    report = None
    if phase.type is PhaseType.MOVEMENT and modules.supply is not None:
        report = rules.supply.trace(
            _judged(board, modules, state, phase), position, state.supply, modules.supply
        )
    return Opened(state, report, tuple(events))


def _judged(board: Board, modules: Modules, state: ModuleState, phase: Phase) -> Board:
    if modules.blizzards is None or phase.type is PhaseType.ADJUSTMENTS:
        return board
    return rules.blizzard.overlay(board, state.blizzards)


def play(
    board: Board,
    position: Position,
    orders_by_power: Mapping[str, Iterable[Order]],
    modules: Modules,
    state: ModuleState,
    *,
    extra: ModuleOrders | None = None,
    build_rule: str | None = None,
) -> Played:
    """Adjudicate ``position.phase`` with the modules on; ``state`` is what ``open_phase`` returned."""
    extra = extra or ModuleOrders()
    phase = position.phase
    judged = _judged(board, modules, state, phase)
    report = None
    if modules.supply is not None and phase.type is PhaseType.MOVEMENT:
        report = rules.supply.trace(judged, position, state.supply, modules.supply)
    problems = _problems(board, judged, state, report)
    ferry = modules.abstraction
    if not problems:
        result = adjudicate(board, position, orders_by_power, build_rule=build_rule, abstraction=ferry)
    else:
        screened = rules.screen.screen(orders_by_power, *problems)
        order_board = judged if judged is not board else None
        result = adjudicate(
            board, position, screened.kept, build_rule=build_rule, order_board=order_board, abstraction=ferry
        )
        result = replace(result, results=screened.merge(result.results))

    refused: list[tuple[EstablishDepot | SnowStorm, str]] = []
    season_over = phase.type is PhaseType.RETREATS or (
        phase.type is PhaseType.MOVEMENT and result.position.phase.type is not PhaseType.RETREATS
    )
    check = None
    if modules.supply is not None:
        founded = _depots(judged, position, report, state.supply, modules.supply, extra.depots, refused)
        options = modules.supply
        kept = rules.supply.after_phase(
            state.supply, position, result.position, result.results, founded, options
        )
        if options.depot_cost == "unit":
            result, kept = _garrison(position, result, kept, founded)
        checked = season_over and phase.season in options.check_seasons
        if checked:
            check = rules.supply.trace(board, result.position, kept, options)
            kept = rules.supply.check(kept, check)
        if (checked and options.removal == "check") or (
            options.removal == "winter" and season_over and phase.season is Season.FALL
        ):
            result, kept = _remove_unsupplied(board, result, kept, options, build_rule)
        state = replace(state, supply=kept)
    if modules.davis_af_limit:
        result, state = _count_aboard(position, result, state)
    state = _queue_storms(board, modules, state, extra.storms, refused)
    if season_over:
        state = replace(state, blizzards=frozenset())
    return Played(result, state, tuple(refused), check)


def order_problem(
    board: Board,
    position: Position,
    modules: Modules,
    state: ModuleState,
    power: str,
    order: Order | EstablishDepot | SnowStorm,
) -> str | None:
    """Why the modules forbid one order now (blizzards, supply), or ``None``: for the per-order check at
    order entry and to filter the legal options a client is offered. ``play`` gives the same answers.

    ``order`` may also be a module order (``EstablishDepot``, ``SnowStorm``): the answer is then what
    ``play`` would put in ``Played.refused`` for it alone (several depots or storms of one power in one
    phase also count against the limits: ``Checker.batch_problem``)."""
    return Checker(board, position, modules, state).problem(power, order)


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


class Checker:
    """``order_problem`` for many orders of one phase: the blizzard board and the supply trace are made
    once (a trace is the costly part), so options can be filtered order by order."""

    def __init__(self, board: Board, position: Position, modules: Modules, state: ModuleState) -> None:
        self.board, self.position, self.modules, self.state = board, position, modules, state
        self.judged = _judged(board, modules, state, position.phase)
        self.report = None
        if modules.supply is not None and position.phase.type is PhaseType.MOVEMENT:
            self.report = rules.supply.trace(self.judged, position, state.supply, modules.supply)
        self._problems = _problems(board, self.judged, state, self.report)

    def problem(self, power: str, order: Order | EstablishDepot | SnowStorm) -> str | None:
        if isinstance(order, EstablishDepot):
            return self.depot_problem(power, order, ())
        if isinstance(order, SnowStorm):
            return self.storm_problem(power, order, ())
        return next((why for check in self._problems if (why := check(power, order))), None)

    def batch_problem(
        self, power: str, order: EstablishDepot | SnowStorm, earlier: tuple[EstablishDepot | SnowStorm, ...]
    ) -> str | None:
        """As ``problem``, with ``earlier`` module orders of the same power already accepted this phase."""
        if isinstance(order, EstablishDepot):
            return self.depot_problem(
                power, order, tuple(o for o in earlier if isinstance(o, EstablishDepot))
            )
        return self.storm_problem(power, order, tuple(o for o in earlier if isinstance(o, SnowStorm)))

    def depot_problem(
        self, power: str, order: EstablishDepot, earlier: tuple[EstablishDepot, ...]
    ) -> str | None:
        if self.modules.supply is None:
            return "this game plays without supply lines: there are no depots"
        if order.power != power:
            return f"a depot order of {order.power} cannot be given by {power}"
        if self.report is None:
            return "depots are founded in movement phases"
        if any(o.province == order.province for o in earlier):
            return f"{self.board.province_name(order.province)} already has a depot order"
        refused: list[tuple[EstablishDepot | SnowStorm, str]] = []
        accepted = _depots(
            self.judged, self.position, self.report, self.state.supply, self.modules.supply,
            (*earlier, order), refused,
        )  # fmt: skip
        if order in accepted:
            return None
        return next((why for o, why in refused if o == order), "refused")

    def storm_problem(self, power: str, order: SnowStorm, earlier: tuple[SnowStorm, ...]) -> str | None:
        if self.modules.blizzards is None:
            return "this game has no blizzards"
        if order.power != power:
            return f"a Snow Storm of {order.power} cannot be given by {power}"
        if any(o.province == order.province and o.place == order.place for o in earlier):
            return f"the same Snow Storm on {self.board.province_name(order.province)} is already ordered"
        left = self.state.tokens_left(self.modules, power) - len(earlier)
        return rules.blizzard.storm_problem(self.board, order, left)


def _problems(board: Board, judged: Board, state: ModuleState, report: SupplyReport | None) -> list[Problem]:
    problems: list[Problem] = []
    if judged is not board:
        snow = state.blizzards
        problems.append(lambda power, order: rules.blizzard.order_problem(judged, snow, order))
    if report is not None:
        problems.append(lambda power, order: rules.supply.order_problem(board, report, order))
    return problems


def _depots(
    board: Board,
    position: Position,
    report: SupplyReport | None,
    state: SupplyState,
    options: SupplyOptions,
    orders: Iterable[EstablishDepot],
    refused: list[tuple[EstablishDepot | SnowStorm, str]],
) -> list[EstablishDepot]:
    accepted: list[EstablishDepot] = []
    for order in orders:
        if report is None:
            refused.append((order, "depots are founded in movement phases"))
            continue
        # Count the depots accepted so far this phase against the limit, as if already founded.
        pending = SupplyState(
            {**state.depots, **{o.province: Depot(o.power, str(position.phase)) for o in accepted}}
        )
        why = rules.supply.depot_problem(board, position, report, pending, options, order)
        if why is None:
            accepted.append(order)
        else:
            refused.append((order, why))
    return accepted


def _remove_unsupplied(
    board: Board, result: PhaseResult, state: SupplyState, options: SupplyOptions, build_rule: str | None
) -> tuple[PhaseResult, SupplyState]:
    """Winter removals for ``strikes`` failed checks in a row; a Winter skipped for want of adjustments is
    played after all if a removal gives someone a build."""
    gone = rules.supply.removals(state, result.position.units, options)
    if not gone:
        return result, state
    why = rules.supply.removal_reason(options)
    notes = [OrderResult(u.power, Disband(u.location), Outcome.SUCCESS, why) for u in gone]
    units: dict[str, Unit] = {p: u for p, u in result.position.units.items() if u not in gone}
    position = replace(result.position, units=units)
    skipped = result.skipped
    winter = next((p for p in skipped if p.type is PhaseType.ADJUSTMENTS), None)
    rule = build_rule or board.variant.build_rule or "home"
    if winter is not None and has_adjustments(board, units, position.owners, rule):
        position = replace(position, phase=winter)
        skipped = tuple(p for p in skipped if p != winter)
    marks = {p: c for p, c in state.marks.items() if p in units}
    return replace(result, results=(*result.results, *notes), position=position, skipped=skipped), replace(
        state, marks=marks
    )


def _count_aboard(
    position: Position, result: PhaseResult, state: ModuleState
) -> tuple[PhaseResult, ModuleState]:
    """Davis's limit: each army aboard is a move older after a movement phase, and starves after its
    fourth (``starvation``); the counts follow the A/Fs that retreat."""
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        after, aboard, notes = rules.starvation.after_movement(
            state.aboard, position, result.position, result.results
        )
        result = replace(result, results=(*result.results, *notes), position=after)
    elif kind is PhaseType.RETREATS:
        aboard = rules.starvation.after_retreats(state.aboard, result.position, result.results)
    else:
        aboard = rules.starvation.kept(state.aboard, result.position)
    return result, replace(state, aboard=aboard)


def _garrison(
    position: Position, result: PhaseResult, state: SupplyState, founded: Iterable[EstablishDepot]
) -> tuple[PhaseResult, SupplyState]:
    """Seed 8.21: a depot's garrison is "at least one strength point" of the force that founds it; a
    Diplomacy unit has one, so the unit that founds a depot garrisons it and leaves the board."""
    since = str(position.phase)
    built = [
        o for o in founded if (d := state.depots.get(o.province)) and d.since == since and d.power == o.power
    ]
    units = dict(result.position.units)
    notes = []
    for order in built:
        unit = units.pop(order.province, None)
        if unit is not None:
            notes.append(
                OrderResult(unit.power, Disband(unit.location), Outcome.SUCCESS, rules.supply.GARRISON)
            )
    if not notes:
        return result, state
    marks = {p: c for p, c in state.marks.items() if p in units}
    after = replace(result.position, units=units)
    return replace(result, results=(*result.results, *notes), position=after), replace(state, marks=marks)


def _queue_storms(
    board: Board,
    modules: Modules,
    state: ModuleState,
    storms: Iterable[SnowStorm],
    refused: list[tuple[EstablishDepot | SnowStorm, str]],
) -> ModuleState:
    storms = tuple(storms)
    if not storms:
        return state
    if modules.blizzards is None:
        refused.extend((s, "this game has no blizzards") for s in storms)
        return state
    used = dict(state.tokens_used)
    queued = list(state.storms)
    for storm in storms:
        left = modules.blizzards.snow_storm_tokens - used.get(storm.power, 0)
        why = rules.blizzard.storm_problem(board, storm, left)
        if why is None:
            used[storm.power] = used.get(storm.power, 0) + 1
            queued.append(storm)
        else:
            refused.append((storm, why))
    return replace(state, storms=tuple(queued), tokens_used=used)
