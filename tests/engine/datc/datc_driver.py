"""The DATC v3.0 driver: play one case from ``datc_v3_0_cases.json`` through ``adjudicate``.

A case gives the units before (``prestate``), the orders in MILA syntax (``orders_mila``, and for 6.H the
retreat orders) and the final position (``expected``). Orders are read here with a small MILA reader — the
DATC feeds illegal orders on purpose, which the player-facing parser would refuse, while the adjudicator
must accept and ignore them. Cases start in Spring 1901 (movement) or Winter 1901 (adjustments).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from dipserver.engine.adjudicate import PhaseResult, adjudicate
from dipserver.engine.board import Board
from dipserver.engine.lateorders import Build, Disband, Retreat
from dipserver.engine.orders import Convoy, Hold, Move, Order, OrderResult, Outcome, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, PhaseType, Unit, UnitType

DATC_JSON = Path(__file__).resolve().parents[2] / "data" / "datc_v3_0_cases.json"


@cache
def cases() -> dict[str, dict[str, Any]]:
    data = json.loads(DATC_JSON.read_text())
    return {case["id"]: case for case in data["cases"]}


def read_mila(power: str, text: str) -> Order:
    """One order in MILA syntax: ``A LVP - EDI VIA``, ``F NTH C A YOR - LON``, ``A WAR B``, ``F LYO D``..."""
    words = text.split()
    unit_type, loc, rest = UnitType(words[0]), words[1], words[2:]
    match rest:
        case ["H"]:
            return Hold(loc)
        case ["-", dest]:
            return Move(loc, dest)
        case ["-", dest, "VIA"]:
            return Move(loc, dest, via_convoy=True)
        case ["S", _, target]:
            return SupportHold(loc, target)
        case ["S", _, target, "-", dest]:
            return SupportMove(loc, target, dest)
        case ["C", _, target, "-", dest]:
            return Convoy(loc, target, dest)
        case ["R", dest]:
            return Retreat(loc, dest)
        case ["B"]:
            return Build(power, unit_type, loc)
        case ["D"]:
            return Disband(loc)
    raise ValueError(f"not a MILA order: {text!r}")


def _orders(block: dict[str, list[str]]) -> dict[str, list[Order]]:
    return {power.upper(): [read_mila(power.upper(), o) for o in orders] for power, orders in block.items()}


def _units(rows: list[dict[str, str]]) -> set[tuple[str, str, str]]:
    return {(r["power"].upper(), r["type"], r["loc"]) for r in rows}


def _as_rows(units: Any) -> set[tuple[str, str, str]]:
    return {(u.power, u.type.value, u.location) for u in units}


@dataclass
class CaseRun:
    case: dict[str, Any]
    phases: list[PhaseResult] = field(default_factory=list)

    @property
    def position(self) -> Position:
        return self.phases[-1].position

    def assert_expected(self) -> None:
        """The final units and the dislodged units awaiting retreat are exactly those of ``expected``."""
        expected = self.case["expected"]
        assert _as_rows(self.position.units.values()) == _units(expected["units"])
        dislodged = _as_rows(d.unit for d in self.position.dislodged.values())
        assert dislodged == _units(expected["dislodged"])

    def result(self, power: str, mila: str) -> OrderResult:
        """The result of one order, named as the case writes it."""
        order = read_mila(power, mila)
        found = [r for p in self.phases for r in p.results if r.power == power and r.order == order]
        assert found, f"no result for {power} {mila}"
        return found[0]

    def assert_outcomes(self, expected: dict[str, tuple[str, Outcome]]) -> None:
        """``{"A LVP - EDI": ("ENGLAND", Outcome.BOUNCE), ...}``: per-order results the prose states."""
        got = {mila: self.result(power, mila).outcome for mila, (power, _) in expected.items()}
        assert got == {mila: outcome for mila, (_, outcome) in expected.items()}


def run_position(
    board: Board, phase: str, units: str, owners: dict[str, str], orders: dict[str, list[str]] | None = None
) -> Position:
    """Adjudicate a position written out by hand (``"RUSSIA: A GRE, F SKA"``); the next position."""
    placed = {}
    for block in units.split(";"):
        power, _, rest = block.partition(":")
        for item in rest.split(","):
            kind, loc = item.split()
            unit = Unit(power.strip(), UnitType(kind), loc)
            placed[unit.province] = unit
    start = Position(Phase.parse(phase), placed, owners)
    return adjudicate(board, start, _orders(orders or {})).position


def run_case(board: Board, case_id: str) -> CaseRun:
    """Play the case's movement (then retreat) or adjustment orders from its starting position."""
    case = cases()[case_id]
    pre = case["prestate"]
    start = Phase.parse("W1901A" if pre["phase"] == "A" else "S1901M")
    units = {}
    for row in pre["units"]:
        unit = Unit(row["power"].upper(), UnitType(row["type"]), row["loc"])
        units[unit.province] = unit
    owners = {prov: power.upper() for power, provs in pre["sc_owners"].items() for prov in provs}
    run = CaseRun(case)
    run.phases.append(adjudicate(board, Position(start, units, owners), _orders(case["orders_mila"])))
    retreat_orders = case.get("retreat_orders_mila")
    # 6.H expects the position after the retreats; with no unit able to retreat there is no such phase.
    if retreat_orders is not None and run.position.phase.type is PhaseType.RETREATS:
        run.phases.append(adjudicate(board, run.position, _orders(retreat_orders)))
    return run
