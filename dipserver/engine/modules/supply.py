"""Supply lines and depots (from Laskas / SPI *Frederick the Great*; variant-rulings §8.2).

A unit is *in supply* if it can trace a path of at most N steps over the current map to a *source*: a supply
centre its power owns and no other power occupies, or an operative depot of its power that is itself in
supply. No province on the path (the source included) may hold another power's unit, and closed provinces
(impassable, absent, under a blizzard) block it. Armies trace over land, and over a sea only where a fleet
of their own stands; fleets trace over seas and coastal land.

Depots are established by a unit that stays put for a movement phase in a supplied, non-centre land
province; they are operative from the next phase, never move, chain into networks (a depot is in supply
if it traces, as an army would, to a source or to another depot in supply), and are captured (seed rule
8.22) — or, by option, destroyed — when they are alone with another power's unit: it stands there at the end
of a phase and no unit of the depot's owner, not even a dislodged one still to retreat, is there.

Effects: a unit out of supply cannot give support. At each supply phase (after the retreats of every
Spring and Autumn; by option only the Autumn's) an unsupplied unit gets a mark and a supplied one loses
its marks; units with ``strikes`` consecutive marks are removed there and then (by option: at the Winter
adjustment, before the Winter counts).

The defaults are the seed's numbers: supply paths of 5 for the powers on the Prussian side (``prussia``,
chosen when the game is made), 4 for the Coalition (everyone else); a supply phase every turn; attrition
of "5 %, fractions rounded up", which takes a one-strength Diplomacy unit at its first unsupplied supply
phase (``strikes`` 1); and a depot costs "at least one strength point" for its garrison, which for a
one-strength unit is the unit that founds it (``depot_cost`` "unit"). The gentler settings stay options.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dipserver.engine.board import Board
from dipserver.engine.lateorders import Retreat
from dipserver.engine.modules.orders import EstablishDepot as EstablishDepot
from dipserver.engine.modules.state import Depot as Depot
from dipserver.engine.modules.state import SupplyState as SupplyState
from dipserver.engine.orders import Move, Order, OrderResult, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Season, Unit, UnitType, province_of

_OPTION_KEYS = frozenset(
    {
        "range",
        "prussia",
        "prussian_range",
        "range_by_power",
        "strikes",
        "check_seasons",
        "depots",
        "max_depots",
        "capture",
        "block_foreign_sc",
        "removal",
        "depot_cost",
    }
)
REMOVALS = ("check", "winter")  # removed at the supply phase itself, or at the Winter adjustment after it
DEPOT_COSTS = ("unit", "free")  # the founding unit garrisons the depot (leaves the board), or nothing


@dataclass(frozen=True, slots=True)
class SupplyOptions:
    range: int = 4  # N: the longest supply path, in steps between provinces (seed 8.1: the Coalition's 4)
    range_by_power: Mapping[str, int] = field(default_factory=dict)  # a power's own N, before all else
    strikes: int = 1  # k: consecutive failed checks before the unit is removed (seed 8.31: at the first)
    # checks run after these seasons' retreats (seed: a supply phase every turn)
    check_seasons: frozenset[Season] = frozenset({Season.SPRING, Season.FALL})
    depots: bool = True
    max_depots: int = 2  # per power
    capture: bool = True  # a depot left alone with another power's unit changes hands (false: destroyed)
    block_foreign_sc: bool = False  # centres owned by another power also block paths
    prussia: frozenset[str] = frozenset()  # the powers on the Prussian side (seed 8.1), chosen at creation
    prussian_range: int = 5  # their N (seed 8.1: "a maximum of FIVE movement points")
    removal: str = "check"  # "check": removed at the supply phase; "winter": at the next Winter adjustment
    depot_cost: str = "unit"  # "unit": the founding unit garrisons the depot and leaves the board; "free"

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | bool | None) -> SupplyOptions:
        """From game options such as ``{"range": 4, "strikes": 2, "check_seasons": ["S", "F"]}``."""
        if data is True or data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError("supply_lines: give true or a table of options")
        unknown = sorted(set(data) - _OPTION_KEYS)
        if unknown:
            raise ValueError(f"supply_lines: unknown option {', '.join(unknown)}")
        ranges = data.get("range_by_power", {})
        if not isinstance(ranges, Mapping):
            raise ValueError("supply_lines: 'range_by_power' must map powers to ranges")
        prussia = data.get("prussia", [])
        if not isinstance(prussia, list | tuple) or not all(isinstance(p, str) for p in prussia):
            raise ValueError("supply_lines: 'prussia' must list the powers on the Prussian side")
        seasons = data.get("check_seasons", ["S", "F"])
        if not isinstance(seasons, list | tuple) or not seasons or not set(seasons) <= {"S", "F"}:
            raise ValueError('supply_lines: \'check_seasons\' must list "S" and/or "F"')
        options = cls(
            range=_whole(data, "range", 4, 1),
            range_by_power={str(p).upper(): _whole(ranges, p, 0, 1) for p in ranges},
            strikes=_whole(data, "strikes", 1, 1),
            check_seasons=frozenset(Season(s) for s in seasons),
            depots=_flag(data, "depots", True),
            max_depots=_whole(data, "max_depots", 2, 0),
            capture=_flag(data, "capture", True),
            block_foreign_sc=_flag(data, "block_foreign_sc", False),
            prussia=frozenset(p.upper() for p in prussia),
            prussian_range=_whole(data, "prussian_range", 5, 1),
            removal=_choice(data, "removal", REMOVALS),
            depot_cost=_choice(data, "depot_cost", DEPOT_COSTS),
        )
        return options

    def range_of(self, power: str) -> int:
        """A power's N: its own if given, else its side's (Prussian or Coalition)."""
        if power in self.range_by_power:
            return self.range_by_power[power]
        return self.prussian_range if power in self.prussia else self.range

    def to_data(self) -> dict[str, Any]:
        return {
            "range": self.range,
            "range_by_power": dict(self.range_by_power),
            "strikes": self.strikes,
            "check_seasons": sorted(s.value for s in self.check_seasons),
            "depots": self.depots,
            "max_depots": self.max_depots,
            "capture": self.capture,
            "block_foreign_sc": self.block_foreign_sc,
            "prussia": sorted(self.prussia),
            "prussian_range": self.prussian_range,
            "removal": self.removal,
            "depot_cost": self.depot_cost,
        }


def _whole(data: Mapping[str, Any], key: str, default: int, least: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"supply_lines: {key!r} must be a whole number, {least} or more (got {value!r})")
    return value


def _choice(data: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key, allowed[0])
    if value not in allowed:
        raise ValueError(
            f"supply_lines: {key!r} must be one of {', '.join(map(repr, allowed))}, not {value!r}"
        )
    return str(value)


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"supply_lines: {key!r} must be true or false")
    return value


# --- state kept between phases --------------------------------------------------------------------


# --- tracing --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One unit's (or depot's) supply: whether it traces, and the path it traces (its own province first,
    the source last); an unsupplied one has no path."""

    province: str
    power: str
    supplied: bool
    path: tuple[str, ...] = ()

    @property
    def source(self) -> str | None:
        return self.path[-1] if self.path else None

    def to_data(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "supplied": self.supplied,
            "path": list(self.path),
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class SupplyReport:
    """Everyone's supply at one moment, public: what the map draws and what the effects read."""

    phase: Phase
    units: Mapping[str, Line]  # unit's province -> its line
    depots: Mapping[str, Line]  # depot's province -> its line to a source (operative depots only)
    sources: Mapping[str, frozenset[str]]  # power -> the provinces it may trace to

    def unsupplied(self) -> frozenset[str]:
        return frozenset(p for p, line in self.units.items() if not line.supplied)

    def to_data(self, state: SupplyState | None = None) -> dict[str, Any]:
        marks = state.marks if state else {}
        return {
            "phase": str(self.phase),
            "units": {
                p: {**line.to_data(), "marks": marks.get(p, 0)} for p, line in sorted(self.units.items())
            },
            "depots": {p: line.to_data() for p, line in sorted(self.depots.items())},
        }


def trace(board: Board, position: Position, state: SupplyState, options: SupplyOptions) -> SupplyReport:
    """Every unit's supply line on ``board`` (the map orders are judged on, blizzards closed)."""
    tracer = _Tracer(board, position.units, options, position.owners)
    units = position.units
    powers = sorted({u.power for u in units.values()} | {d.power for d in state.depots.values()})
    sources: dict[str, frozenset[str]] = {}
    depot_lines: dict[str, Line] = {}
    for power in powers:
        found, lines = _sources(tracer, position, state, power)
        sources[power] = found
        depot_lines.update(lines)
    lines = {prov: tracer.line(unit, sources.get(unit.power, frozenset())) for prov, unit in units.items()}
    return SupplyReport(position.phase, lines, depot_lines, sources)


def _sources(
    tracer: _Tracer, position: Position, state: SupplyState, power: str
) -> tuple[frozenset[str], dict[str, Line]]:
    """A power's sources: its unoccupied centres, then depots joining the network one ring at a time."""
    board, units = tracer.board, position.units
    found = {
        p
        for p, owner in position.owners.items()
        if owner == power
        and p in board.supply_centres
        and board.terrain(p).passable
        and (p not in units or units[p].power == power)
    }
    pending = {
        p: d
        for p, d in state.depots.items()
        if d.power == power
        and d.operative(position.phase)
        and board.terrain(p).passable
        and (p not in units or units[p].power == power)  # a depot held by another power feeds nobody
    }
    lines: dict[str, Line] = {}
    while True:
        joined = {}
        for prov in sorted(pending):
            carrier = Unit(power, UnitType.ARMY, prov)  # a depot's supply goes by land, as an army's
            line = tracer.line(carrier, frozenset(found))
            if line.supplied:
                joined[prov] = line
        if not joined:
            break
        lines.update(joined)
        found.update(joined)
        for prov in joined:
            del pending[prov]
    lines.update({p: Line(p, power, False) for p in pending})
    return frozenset(found), lines


@dataclass(frozen=True, slots=True)
class _Tracer:
    """Breadth-first search for supply paths over one board and one set of units."""

    board: Board
    units: Mapping[str, Unit]
    options: SupplyOptions
    owners: Mapping[str, str]

    def line(self, unit: Unit, sources: frozenset[str]) -> Line:
        path = self.path(unit, sources)
        return Line(unit.province, unit.power, bool(path), path)

    def path(self, unit: Unit, sources: frozenset[str]) -> tuple[str, ...]:
        """The shortest path from the unit to a source (ties: alphabetical), or ``()``."""
        start = unit.province
        if start in sources:
            return (start,)
        limit = self.options.range_of(unit.power)
        came_from: dict[str, str] = {start: start}
        frontier = deque([(start, 0)])
        while frontier:
            here, steps = frontier.popleft()
            if steps == limit:
                continue
            for nxt in sorted(self.board.neighbours(here)):
                if nxt in came_from or not self.open(unit, nxt):
                    continue
                came_from[nxt] = here
                if nxt in sources:
                    path = [nxt]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return tuple(reversed(path))
                frontier.append((nxt, steps + 1))
        return ()

    def open(self, unit: Unit, prov: str) -> bool:
        """Whether a supply line of ``unit`` may pass through (or end in) ``prov``."""
        other = self.units.get(prov)
        if other is not None and other.power != unit.power:
            return False
        if self.options.block_foreign_sc and self.owners.get(prov, unit.power) != unit.power:
            return False
        if unit.type is UnitType.ARMY:
            return self.board.is_land(prov) or (other is not None and other.type is UnitType.FLEET)
        return self.board.is_water(prov) or self.board.is_coastal(prov)


# --- effects ----------------------------------------------------------------------------------------


def order_problem(board: Board, report: SupplyReport, order: Order) -> str | None:
    """Why supply forbids ``order``: a unit out of supply gives no support."""
    if not isinstance(order, SupportHold | SupportMove):
        return None
    here = province_of(order.unit)
    line = report.units.get(here)
    if line is not None and not line.supplied:
        return f"The unit in {board.province_name(here)} is out of supply: it cannot give support"
    return None


def depot_problem(
    board: Board,
    position: Position,
    report: SupplyReport,
    state: SupplyState,
    options: SupplyOptions,
    order: EstablishDepot,
) -> str | None:
    """Why a depot cannot be founded as ordered, or ``None``."""
    prov, name = order.province, board.province_name(order.province)
    if not options.depots:
        return "this game has no depots"
    unit = position.units.get(prov)
    if unit is None or unit.power != order.power:
        return f"{order.power} has no unit in {name} to found a depot"
    if not board.is_land(prov) or prov in board.supply_centres:
        return f"{name}: depots are founded on land that is not a supply centre"
    if prov in state.depots:
        return f"{name} already has a depot"
    if not report.units[prov].supplied:
        return f"{name} is out of supply: a depot is founded only where supply reaches"
    owned = sum(1 for d in state.depots.values() if d.power == order.power)
    if owned >= options.max_depots:
        return f"{order.power} already has {owned} depots (at most {options.max_depots})"
    return None


def after_phase(
    state: SupplyState,
    before: Position,
    after: Position,
    results: Iterable[OrderResult],
    founded: Iterable[EstablishDepot] = (),
    options: SupplyOptions | None = None,
) -> SupplyState:
    """The supply state once a phase is over: marks follow their units, depots are founded, lost or taken.

    ``founded`` are depot orders already accepted by ``depot_problem``; each succeeds if its unit is still
    there, never having moved or been dislodged.
    """
    marks, dislodged_marks = _follow(state, before, after, results)
    depots = dict(state.depots)
    for order in founded:
        unit = before.units.get(order.province)
        if unit is not None and after.units.get(order.province) == unit:
            depots[order.province] = Depot(order.power, str(before.phase))
    capture = options.capture if options else True
    for prov, depot in list(depots.items()):
        enemy = _alone_with_enemy(after, prov, depot.power)
        if enemy is None:
            continue
        if capture:
            depots[prov] = Depot(enemy, str(before.phase))  # operative from the captor's next phase
        else:
            del depots[prov]
    return SupplyState(depots, marks, dislodged_marks)


def _alone_with_enemy(after: Position, prov: str, owner: str) -> str | None:
    """The power whose unit is alone with ``owner``'s depot in ``prov`` (seed rule 8.22), or ``None``:
    while the owner's dislodged unit still stands there to retreat, the depot is not alone with it."""
    there = after.units.get(prov)
    if there is None or there.power == owner:
        return None
    dislodged = after.dislodged.get(prov)
    if dislodged is not None and dislodged.unit.power == owner:
        return None
    return there.power


def _follow(
    state: SupplyState, before: Position, after: Position, results: Iterable[OrderResult]
) -> tuple[dict[str, int], dict[str, int]]:
    """Move each unit's marks with it: successful moves and retreats; dislodged units keep theirs apart."""
    moved: dict[str, str] = {}  # units on the board that moved: from -> to
    retreated: dict[str, str] = {}  # dislodged units that retreated: from -> to
    for r in results:
        if r.outcome is Outcome.SUCCESS and isinstance(r.order, Move):
            moved[province_of(r.order.unit)] = province_of(r.order.dest)
        elif r.outcome is Outcome.SUCCESS and isinstance(r.order, Retreat):
            retreated[province_of(r.order.unit)] = province_of(r.order.dest)
    marks: dict[str, int] = {}
    dislodged: dict[str, int] = {}
    for prov, count in state.marks.items():
        if prov in after.dislodged and after.dislodged[prov].unit == before.units.get(prov):
            dislodged[prov] = count
        else:
            marks[moved.get(prov, prov)] = count
    for prov, count in state.dislodged_marks.items():
        if prov in retreated:
            marks[retreated[prov]] = count
    alive = after.units
    return (
        {p: c for p, c in marks.items() if p in alive and c},
        {p: c for p, c in dislodged.items() if c},
    )


def check(state: SupplyState, report: SupplyReport) -> SupplyState:
    """A supply check: an unsupplied unit gains a mark, a supplied one loses all of its marks."""
    marks = {p: state.marks.get(p, 0) + 1 for p in report.unsupplied()}
    return replace(state, marks=marks)


GARRISON = "Garrisons the depot it founded: a depot costs one strength point, all a Diplomacy unit has"


def removal_reason(options: SupplyOptions) -> str:
    """What the results say of a unit removed for want of supply."""
    when = "removed at the supply phase" if options.removal == "check" else "removed at the Winter adjustment"
    if options.strikes == 1:
        return f"Out of supply: attrition (5 %, rounded up) takes a one-strength unit, {when}"
    return f"Out of supply at {options.strikes} checks in a row: {when}"


def removals(state: SupplyState, units: Mapping[str, Unit], options: SupplyOptions) -> list[Unit]:
    """The units removed for want of supply: ``strikes`` consecutive failed checks."""
    return [units[p] for p, count in sorted(state.marks.items()) if count >= options.strikes and p in units]
