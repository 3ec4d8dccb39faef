"""The documented wiring (docs/rules/mutating-maps.md, "In the engine") with the real adjudicator:
conversions around ``adjudicate``, flags into ``apply_hook``."""

from __future__ import annotations

from dataclasses import replace

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board, board_for
from dipserver.engine.conversions import (
    army_conversions,
    fleet_conversions,
    for_adjudication,
    parse_conversion,
    stay_flags,
)
from dipserver.engine.orders import ConversionOrder, Move, Order
from dipserver.engine.parse import parse_order
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, apply_hook
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant

from .conftest import position_with, steps_of


def orders_for(
    board: Board, position: Position, texts: dict[str, list[str]]
) -> dict[str, list[Order | ConversionOrder]]:
    """Parse like the server would: conversions first, then the standard notation."""
    parsed: dict[str, list[Order | ConversionOrder]] = {}
    for power, lines in texts.items():
        for text in lines:
            order = parse_conversion(text, board, position, power) or parse_order(
                text, board, position, power
            )
            parsed.setdefault(power, []).append(order)
    return parsed


def test_deluge_army_becomes_a_fleet_unless_a_bounced_attack_came(deluge: Variant) -> None:
    map_state = steps_of(deluge)[(1901, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    board = board_for(deluge, map_state)
    position = replace(position_with(deluge, "GERMANY A KIE", "FRANCE F HOL"), phase=Phase.parse("S1902M"))
    for french, expected in (("F HOL H", UnitType.FLEET), ("F HOL - KIE", UnitType.ARMY)):
        orders = orders_for(board, position, {"GERMANY": ["A KIE becomes fleet"], "FRANCE": [french]})
        result = adjudicate(board, position, for_adjudication(orders))
        units, _ = fleet_conversions(position.units, result.position.units, orders)
        assert units["KIE"].type is expected, french


def test_wall_of_ice_fleet_becomes_an_army_after_the_winter_builds(wall_of_ice: Variant) -> None:
    board = board_for(wall_of_ice, wall_of_ice.map_state)
    position = replace(
        position_with(wall_of_ice, "FRANCE F BRE", owners={"BRE": "FRANCE", "PAR": "FRANCE"}),
        phase=Phase.parse("W1903A"),
    )
    orders = orders_for(board, position, {"FRANCE": ["F BRE becomes army", "Build A PAR"]})
    result = adjudicate(board, position, for_adjudication(orders))
    units, _ = army_conversions(result.position.units, orders)
    assert units == {"BRE": Unit("FRANCE", UnitType.ARMY, "BRE"), "PAR": Unit("FRANCE", UnitType.ARMY, "PAR")}


def test_sahara_a_fleet_told_to_stay_is_disbanded_where_it_ends_up_stranded(sahara: Variant) -> None:
    board = board_for(sahara, sahara.map_state)
    position = replace(position_with(sahara, "TURKEY F EAS"), phase=Phase.parse("F1902M"))
    orders = orders_for(board, position, {"TURKEY": ["F EAS - SYR", "F EAS stays fleet"]})
    assert Move("EAS", "SYR") in orders["TURKEY"]
    result = adjudicate(board, position, for_adjudication(orders))
    flags = stay_flags(position.units, result.position.units, orders)
    assert flags == {"SYR"}
    step = apply_hook(sahara, {}, sahara.map_state, result.position, Hook.AFTER_FALL_RETREATS, 1902, flags)
    assert "SYR" not in step.position.units
