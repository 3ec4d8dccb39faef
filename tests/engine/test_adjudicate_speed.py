"""A guard on the adjudicator's speed: a movement phase must stay far below a millisecond.

Measured on the 2-core development machine, a typical 22-34-unit movement phase takes about 0.1 ms of CPU
(the ``diplomacy`` package's ``Game.process()`` about 1.3-1.5 ms on the same phases). The bound here is
ten times the measurement, so that only a real regression (an accidental quadratic loop, a deep copy)
fails it, not a busy machine. ``scripts/bench_engine.py`` gives the precise figures.
"""

from __future__ import annotations

import random
import time

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.orders import Hold, Move, Order, SupportHold, SupportMove
from dipserver.engine.position import Position
from dipserver.engine.types import PhaseType, Unit, UnitType, province_of
from dipserver.engine.variant import Variant

BOUND_SECONDS = 0.001


def _sensible_orders(board: Board, units: dict[str, Unit], rng: random.Random) -> dict[str, list[Order]]:
    """Most units move to a neighbour; the others support a neighbour's move or hold."""
    moving: dict[str, str] = {}
    for prov, unit in units.items():
        near = sorted(
            board.army_moves(prov) if unit.type is UnitType.ARMY else board.fleet_moves(unit.location)
        )
        if near and rng.random() < 0.55:
            moving[prov] = rng.choice(near)
    orders: dict[str, list[Order]] = {}
    for prov, unit in units.items():
        order: Order
        if prov in moving:
            order = Move(unit.location, moving[prov])
        else:
            helps: list[Order] = [
                SupportMove(unit.location, m, province_of(d))
                for m, d in moving.items()
                if board.can_reach_province(unit.type, unit.location, province_of(d))
                and province_of(d) != prov
            ]
            helps += [
                SupportHold(unit.location, p)
                for p in units
                if p not in moving and p != prov and board.can_reach_province(unit.type, unit.location, p)
            ]
            order = rng.choice(helps) if helps and rng.random() < 0.8 else Hold(unit.location)
        orders.setdefault(unit.power, []).append(order)
    return orders


def _movement_phases(
    board: Board, start: Position, count: int
) -> list[tuple[Position, dict[str, list[Order]]]]:
    """Movement phases from a seeded game of sensible orders (retreats and adjustments left unordered)."""
    rng = random.Random(1)
    position, phases = start, []
    while len(phases) < count:
        orders: dict[str, list[Order]] = {}
        if position.phase.type is PhaseType.MOVEMENT:
            orders = _sensible_orders(board, dict(position.units), rng)
            phases.append((position, orders))
        position = adjudicate(board, position, orders).position
    return phases


def test_a_movement_phase_takes_well_under_a_millisecond(board: Board, standard: Variant) -> None:
    phases = _movement_phases(board, standard.start, 12)
    assert min(len(p.units) for p, _ in phases) >= 18  # real phases, not an emptied board
    best = []
    for position, orders in phases:
        times = []
        for _ in range(15):
            started = time.process_time()
            adjudicate(board, position, orders)
            times.append(time.process_time() - started)
        best.append(min(times))
    assert sorted(best)[len(best) // 2] < BOUND_SECONDS
