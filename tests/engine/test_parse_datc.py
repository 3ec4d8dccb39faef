"""The orders of the 164 DATC v3.0 cases, in the DATC's own wording and in short notation, parsed.

An order is either understood exactly as the test data encodes it, or refused; the refused ones must be
precisely those the DATC calls illegal (moves to non-adjacent places, wrong coasts, convoys by coastal
fleets, supports of oneself...), which the adjudicator then treats as holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dipserver.engine.board import Board
from dipserver.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from dipserver.engine.parse import OrderError, parse_order, parse_orders
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType, province_of

DATC_JSON = Path(__file__).resolve().parents[1] / "data" / "datc_v3_0_cases.json"
CASES = json.loads(DATC_JSON.read_text())["cases"]

# Orders the DATC declares illegal, by case; the parser must refuse exactly these.
ILLEGAL = {
    ("6.A.1", "F NTH - PIC"),
    ("6.A.2", "A LVP - IRI"),
    ("6.A.3", "F KIE - MUN"),
    ("6.A.4", "F KIE - KIE"),
    ("6.A.5", "F NTH C A YOR - YOR"),
    ("6.A.5", "A YOR - YOR"),
    ("6.A.5", "A LVP S A YOR - YOR"),
    ("6.A.6", "F LON - NTH"),  # ordered by Germany
    ("6.A.7", "F LON - BEL"),
    ("6.A.7", "F NTH C A LON - BEL"),
    ("6.A.8", "F TRI S F TRI"),
    ("6.A.9", "F ROM - VEN"),
    ("6.A.10", "F ROM S A APU - VEN"),
    ("6.B.1", "F POR - SPA"),  # two coasts reachable, none named
    ("6.B.3", "F GAS - SPA/SC"),
    ("6.B.5", "F SPA/NC S F MAR - LYO"),
    ("6.B.11", "F SPA/SC - LYO"),  # the fleet is on the north coast; the named coast is ignored
    ("6.D.22", "F KIE - MUN"),
    ("6.D.23", "F SPA/NC - LYO"),
    ("6.D.24", "A MAR - LYO"),
    ("6.D.28", "F RUM - HOL"),
    ("6.D.29", "F RUM - BUL/SC"),
    ("6.D.30", "F CON - BUL"),
    ("6.D.34", "A PRU S ? LVN - PRU"),
    ("6.E.14", "F EDI - LVP"),
    ("6.F.1", "A GRE - SEV"),  # no chain of seas links them
    ("6.F.1", "F CON C A GRE - SEV"),  # a fleet on land cannot convoy
}

TYPOS = {"Rhur"}  # 6.F.25's text misspells Ruhr; only its short notation is read


def _position(case: dict[str, Any], phase: str) -> Position:
    units = {}
    for spec in case["prestate"]["units"]:
        unit = Unit(spec["power"].upper(), UnitType(spec["type"]), spec["loc"])
        units[unit.province] = unit
    owners = {
        centre: power.upper()
        for power, centres in case["prestate"]["sc_owners"].items()
        for centre in centres
    }
    return Position(Phase.parse(phase), units, owners)


def _expected(order: dict[str, Any], position: Position) -> Order:
    """The order as the test data encodes it, naming the unit by its location in the position."""
    here = position.units[province_of(order["loc"])].location
    kind = order["kind"]
    if kind == "hold":
        return Hold(here)
    if kind == "move":
        return Move(here, order["dest"], order["via_convoy"])
    if kind == "support_hold":
        return SupportHold(here, province_of(order["target_loc"]))
    if kind == "support_move":
        return SupportMove(here, province_of(order["target_loc"]), order["dest"])
    assert kind == "convoy"
    return Convoy(here, province_of(order["target_loc"]), order["dest"])


def _movement_orders() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for case in CASES:
        block = case["order_blocks"][0]
        if case["prestate"]["phase"] == "M" and block["phase_kind"] == "M":
            for power, orders in block["orders"].items():
                found.extend(
                    (case["id"], power.upper(), order) for order in orders if order["kind"] != "build"
                )
    return found


MOVEMENT_ORDERS = _movement_orders()


def _same(parsed: Order, expected: Order) -> bool:
    """Equal, allowing for coasts: the parser infers the one reachable coast a fleet's order left out
    (6.B.2) and drops the coast an army's order named (6.B.12)."""
    if parsed == expected:
        return True
    if isinstance(parsed, Move) and isinstance(expected, Move):
        inferred = province_of(parsed.dest) == expected.dest
        dropped = parsed.dest == province_of(expected.dest) and parsed.unit == province_of(parsed.unit)
        return (parsed.unit, parsed.via_convoy) == (expected.unit, expected.via_convoy) and (
            inferred or dropped
        )
    return False


def test_the_data_covers_every_movement_case() -> None:
    assert len({case_id for case_id, _, _ in MOVEMENT_ORDERS}) == 145
    assert len(MOVEMENT_ORDERS) == 696


@pytest.mark.parametrize("notation", ["mila", "text"])
def test_every_datc_movement_order(board: Board, notation: str) -> None:
    refused, wrong = set(), []
    cases = {case["id"]: case for case in CASES}
    for case_id, power, order in MOVEMENT_ORDERS:
        if any(typo in order[notation] for typo in TYPOS):
            continue
        position = _position(cases[case_id], "S1901M")
        try:
            parsed = parse_order(order[notation], board, position, power)
        except OrderError:
            refused.add((case_id, order["mila"]))
            continue
        if not _same(parsed, _expected(order, position)):
            wrong.append((case_id, order[notation], parsed))
    assert wrong == []
    assert refused == ILLEGAL


@pytest.mark.parametrize(
    ("case_id", "accepted"),
    [
        ("6.B.14", [False]),  # F STP B: which coast?
        ("6.I.1", [False, True, False]),  # Warsaw is not German; one build only
        ("6.I.2", [False]),  # no fleet in Moscow
        ("6.I.3", [False]),  # Berlin occupied
        ("6.I.4", [False]),  # St Petersburg occupied, whichever coast
        ("6.I.5", [False]),  # Berlin not owned
        ("6.I.6", [False]),  # Warsaw not a German home centre
        ("6.I.7", [True, False]),  # one build per centre
        ("6.J.2", [True, False]),  # the same unit removed twice
    ],
)
def test_datc_adjustment_orders(board: Board, case_id: str, accepted: list[bool]) -> None:
    case = next(c for c in CASES if c["id"] == case_id)
    position = _position(case, "W1901A")
    ((power, orders),) = case["order_blocks"][0]["orders"].items()
    results = parse_orders([o["text"] for o in orders], board, position, power)
    assert [r.ok for r in results] == accepted
