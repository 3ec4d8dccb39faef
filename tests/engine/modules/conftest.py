"""Helpers for the rule-module cases: a position from unit lists, orders read by the real parser, and one
phase played through the module pipeline, DATC style (position, orders, expected result). The ``standard``
and ``board`` fixtures come from tests/engine/conftest.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dipserver.engine.board import Board
from dipserver.engine.modules import Modules
from dipserver.engine.modules.phase import ModuleOrders, ModuleState, Played, play
from dipserver.engine.orders import Order, Outcome
from dipserver.engine.parse import parse_order
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import load_variant


def position(
    units: Mapping[str, list[str]], phase: str = "S1901M", owners: Mapping[str, list[str]] | None = None
) -> Position:
    """``{"ENGLAND": ["F NTH", "A YOR"]}`` -> a position; owners default to the standard start's."""
    placed = {}
    for power, rows in units.items():
        for row in rows:
            kind, loc = row.split()
            unit = Unit(power, UnitType(kind), loc)
            placed[unit.province] = unit
    if owners is None:
        start = load_variant("standard").start.owners
        centre_owners = dict(start)
    else:
        centre_owners = {c: p for p, cs in owners.items() for c in cs}
    return Position(Phase.parse(phase), placed, centre_owners)


def orders(board: Board, pos: Position, block: Mapping[str, list[str]]) -> dict[str, list[Order]]:
    return {p: [parse_order(text, board, pos, p) for text in lines] for p, lines in block.items()}


def run(
    board: Board,
    pos: Position,
    block: Mapping[str, list[str]],
    modules: Modules,
    state: ModuleState | None = None,
    extra: ModuleOrders | None = None,
) -> Played:
    return play(board, pos, orders(board, pos, block), modules, state or ModuleState(), extra=extra)


def outcomes(played: Played) -> list[tuple[str, Outcome]]:
    """Each order's outcome, in the order given: (order as a short text, outcome)."""
    return [(_short(r.order), r.outcome) for r in played.result.results]


def reasons(played: Played) -> list[str]:
    return [r.reason for r in played.result.results]


def _short(order: Any) -> str:
    return f"{type(order).__name__} {order.unit if hasattr(order, 'unit') else ''}".strip()


def where(played: Played) -> dict[str, str]:
    """Province -> "POWER A/F" after the phase, for compact expectations."""
    return {p: f"{u.power} {u.type.value}" for p, u in played.result.position.units.items()}
