"""Module orders as players give them: the parser reads depots and Snow Storms when the game's modules allow
them, says why when they do not, and the options offer exactly what ``play`` accepts."""

from __future__ import annotations

import pytest

from dipserver.engine.board import Board
from dipserver.engine.kinds.registry import NOTHING
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions, SnowStorm
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import (
    InPlay,
    ModuleOrders,
    ModuleState,
    module_options,
    order_problem,
    play,
)
from dipserver.engine.modules.state import split_orders
from dipserver.engine.modules.supply import Depot, EstablishDepot, SupplyOptions, SupplyState
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Hold, Move, SupportHold
from dipserver.engine.parse import OrderError, format_order, parse_order, parse_orders

from .conftest import position

SUPPLY = InPlay(Modules(supply=SupplyOptions()))
STORMS = InPlay(Modules(blizzards=BlizzardOptions(Dice(0, 0, 0), snow_storm_tokens=1)))
BOTH = InPlay(Modules(BlizzardOptions(Dice(0, 0, 0), snow_storm_tokens=2), SupplyOptions()))

FRENCH_BUR = {"FRANCE": ["A BUR", "A PAR", "F BRE"]}


def refusal(text: str, board: Board, pos, power: str = "FRANCE", in_play: InPlay | None = None) -> str:
    with pytest.raises(OrderError) as caught:
        parse_order(text, board, pos, power, modules=in_play)
    return caught.value.reason


# --- reading depot orders ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "establish depot BUR",
        "Establish depot Burgundy",
        "depot BUR",
        "A BUR establish depot",
        "A BUR depot",
        "Army Burgundy establishes a depot",
        "found depot at BUR",
        "France: establish depot BUR",
    ],
)
def test_a_depot_order_reads_in_several_forms(board: Board, text: str) -> None:
    pos = position(FRENCH_BUR)
    assert parse_order(text, board, pos, "FRANCE", modules=SUPPLY) == EstablishDepot("FRANCE", "BUR")


def test_without_supply_lines_a_depot_order_is_refused_with_the_reason(board: Board) -> None:
    pos = position(FRENCH_BUR)
    assert "without supply lines" in refusal("establish depot BUR", board, pos)
    assert "without supply lines" in refusal("establish depot BUR", board, pos, in_play=STORMS)


def test_a_depot_order_outside_movement_is_refused(board: Board) -> None:
    pos = position(FRENCH_BUR, phase="W1901A")
    assert (
        refusal("establish depot BUR", board, pos, in_play=SUPPLY) == "Depots are founded in movement phases"
    )


def test_a_depot_needs_ones_own_unit_there(board: Board) -> None:
    pos = position({**FRENCH_BUR, "GERMANY": ["A MUN"]})
    assert (
        refusal("establish depot PIC", board, pos, in_play=SUPPLY)
        == "FRANCE has no unit in Picardy to found a depot"
    )
    assert (
        refusal("establish depot MUN", board, pos, in_play=SUPPLY)
        == "FRANCE has no unit in Munich to found a depot"
    )


def test_a_depot_is_not_founded_on_a_centre_or_at_sea(board: Board) -> None:
    pos = position({"FRANCE": ["A PAR", "F MAO"]})
    assert "not a supply centre" in refusal("establish depot PAR", board, pos, in_play=SUPPLY)
    assert "not a supply centre" in refusal("establish depot MAO", board, pos, in_play=SUPPLY)


def test_a_depot_is_founded_only_where_supply_reaches(board: Board) -> None:
    """French A UKR, far from any French centre (range 3)."""
    pos = position({"FRANCE": ["A UKR"]})
    assert "out of supply" in refusal("establish depot UKR", board, pos, in_play=SUPPLY)


def test_a_third_depot_is_over_the_limit(board: Board) -> None:
    state = ModuleState(
        supply=SupplyState({"PIC": Depot("FRANCE", "S1901M"), "GAS": Depot("FRANCE", "S1901M")})
    )
    pos = position(FRENCH_BUR, phase="S1902M")
    why = refusal("establish depot BUR", board, pos, in_play=InPlay(SUPPLY.modules, state))
    assert why == "FRANCE already has 2 depots (at most 2)"


def test_a_depot_where_one_stands_is_refused(board: Board) -> None:
    state = ModuleState(supply=SupplyState({"BUR": Depot("FRANCE", "S1901M")}))
    pos = position(FRENCH_BUR, phase="S1902M")
    assert (
        refusal("depot BUR", board, pos, in_play=InPlay(SUPPLY.modules, state))
        == "Burgundy already has a depot"
    )


def test_an_unknown_place_in_a_depot_order_is_named(board: Board) -> None:
    pos = position(FRENCH_BUR)
    why = refusal("establish depot Atlantis", board, pos, in_play=SUPPLY)
    assert why == "'Atlantis' is not a province of Standard"


# --- reading Snow Storm orders ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("place blizzard MUN", True),
        ("Place a blizzard on Munich", True),
        ("remove blizzard MUN", False),
        ("remove the blizzard from Munich", False),
    ],
)
def test_a_snow_storm_reads_as_place_or_remove(board: Board, text: str, place: bool) -> None:
    pos = position(FRENCH_BUR)
    assert parse_order(text, board, pos, "FRANCE", modules=STORMS) == SnowStorm("FRANCE", "MUN", place)


def test_a_snow_storm_may_be_given_in_any_phase_before_the_draw(board: Board) -> None:
    for phase in ("S1901M", "F1901R", "W1901A"):
        pos = position(FRENCH_BUR, phase=phase)
        assert parse_order("place blizzard MUN", board, pos, "FRANCE", modules=STORMS).place  # type: ignore[union-attr]


def test_without_blizzards_a_snow_storm_is_refused(board: Board) -> None:
    pos = position(FRENCH_BUR)
    assert refusal("place blizzard MUN", board, pos) == "this game has no blizzards"
    assert refusal("place blizzard MUN", board, pos, in_play=SUPPLY) == "This game has no blizzards"


def test_a_snow_storm_needs_a_token_left(board: Board) -> None:
    pos = position(FRENCH_BUR)
    spent = InPlay(STORMS.modules, ModuleState(tokens_used={"FRANCE": 1}))
    assert refusal("place blizzard MUN", board, pos, in_play=spent) == "FRANCE has no Snow Storm token left"
    no_tokens = InPlay(Modules(blizzards=BlizzardOptions()))
    assert (
        refusal("remove blizzard MUN", board, pos, in_play=no_tokens) == "FRANCE has no Snow Storm token left"
    )


def test_a_snow_storm_off_the_map_is_refused(board: Board) -> None:
    pos = position(FRENCH_BUR)
    assert refusal("place blizzard SWI", board, pos, in_play=STORMS) == "'Swi' is not a province of Standard"


def test_a_garbled_module_order_says_how_to_write_it(board: Board) -> None:
    pos = position(FRENCH_BUR)
    assert "establish depot PAR" in refusal("depot", board, pos, in_play=SUPPLY)
    assert refusal("depot please", board, pos, in_play=SUPPLY) == "'Please' is not a province of Standard"
    assert "place blizzard MUN" in refusal("blizzard everywhere now", board, pos, in_play=STORMS)


def test_module_orders_are_written_back_as_the_parser_reads_them(board: Board) -> None:
    pos = position(FRENCH_BUR)
    for order in (EstablishDepot("FRANCE", "BUR"), SnowStorm("FRANCE", "MUN", False)):
        assert parse_order(format_order(order, pos), board, pos, "FRANCE", modules=BOTH) == order  # type: ignore[arg-type]


# --- a whole set of orders --------------------------------------------------------------------------


def test_a_depot_order_sits_beside_the_units_own_order(board: Board) -> None:
    pos = position(FRENCH_BUR)
    lines = parse_orders("A BUR H\nestablish depot BUR\nA PAR H", board, pos, "FRANCE", modules=SUPPLY)
    assert [line.error for line in lines] == [None, None, None]


def test_a_set_of_orders_counts_tokens_and_depots(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR", "A PIC", "A GAS"]})
    text = "depot BUR\ndepot PIC\ndepot GAS\nplace blizzard MUN\nremove blizzard BER\nplace blizzard KIE"
    errors = [line.error for line in parse_orders(text, board, pos, "FRANCE", modules=BOTH)]
    assert errors[:2] == [None, None]
    assert errors[2] == "FRANCE already has 2 depots (at most 2)"
    assert errors[3:5] == [None, None]
    assert errors[5] == "FRANCE has no Snow Storm token left"


def test_the_same_module_order_twice_is_refused(board: Board) -> None:
    pos = position(FRENCH_BUR)
    lines = parse_orders("depot BUR\nestablish depot BUR", board, pos, "FRANCE", modules=BOTH)
    assert lines[1].error == "Burgundy already has a depot order"


# --- the authority: order_problem -------------------------------------------------------------------


def test_order_problem_answers_module_orders_as_play_refuses_them(board: Board) -> None:
    pos = position({"FRANCE": ["A UKR", "A BUR"]})
    modules, state = SUPPLY.modules, ModuleState()
    orders = (EstablishDepot("FRANCE", "UKR"), EstablishDepot("FRANCE", "BUR"))
    played = play(
        board, pos, {"FRANCE": [Hold("UKR"), Hold("BUR")]}, modules, state, extra=ModuleOrders(orders)
    )
    refused = dict(played.refused)
    for order in orders:
        assert order_problem(board, pos, modules, state, "FRANCE", order) == refused.get(order)


# --- options ----------------------------------------------------------------------------------------


def test_options_offer_depots_for_supplied_units_off_the_centres(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR", "A PAR", "A UKR"]})
    found = legal_options(board, pos, "FRANCE", modules=SUPPLY)
    assert [o.text for o in found.module_orders] == ["establish depot BUR"]
    assert found.to_data()["module_orders"] == [
        {
            "text": "establish depot BUR",
            "kind": "establish_depot",
            "power": "FRANCE",
            "province": "BUR",
            "drawing": NOTHING.to_data(),  # a line in the order list only
        }
    ]


def test_options_offer_snow_storms_on_every_passable_province_while_tokens_last(board: Board) -> None:
    pos = position(FRENCH_BUR, phase="W1901A")
    found = legal_options(board, pos, "FRANCE", modules=STORMS)
    passable = sorted(p for p in board.provinces if board.terrain(p).passable)
    texts = [o.text for o in found.module_orders]
    assert texts == [f"place blizzard {p}" for p in passable] + [f"remove blizzard {p}" for p in passable]
    assert {o.kind for o in found.module_orders} == {"snow_storm"}
    spent = InPlay(STORMS.modules, ModuleState(tokens_used={"FRANCE": 1}))
    assert legal_options(board, pos, "FRANCE", modules=spent).module_orders == ()


def test_options_leave_out_what_a_blizzard_forbids(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR", "A PAR"]})
    snowed = InPlay(STORMS.modules, ModuleState(blizzards=frozenset({"BUR"})))
    found = legal_options(board, pos, "FRANCE", modules=snowed)
    assert [o.text for o in found.units["BUR"]] == ["A BUR H"]
    assert all("BUR" not in o.text.replace("A PAR", "") for o in found.units["PAR"])
    plain = legal_options(board, pos, "FRANCE")
    assert len(plain.units["BUR"]) > 1 and plain.module_orders == ()


def test_options_leave_out_supports_from_units_out_of_supply(board: Board) -> None:
    pos = position({"FRANCE": ["A UKR"], "RUSSIA": ["A WAR"]})
    found = legal_options(board, pos, "FRANCE", modules=SUPPLY)
    assert not any(isinstance(o.order, SupportHold) for o in found.units["UKR"])
    assert any(isinstance(o.order, SupportHold) for o in legal_options(board, pos, "FRANCE").units["UKR"])


def test_every_module_option_is_accepted_by_play(board: Board) -> None:
    """Each offered order on its own: play refuses none of them."""
    pos = position({"FRANCE": ["A BUR", "A PIC", "A PAR", "F BRE"], "GERMANY": ["A MUN"]})
    for option in module_options(board, pos, "FRANCE", BOTH):
        depots = (option,) if isinstance(option, EstablishDepot) else ()
        storms = (option,) if isinstance(option, SnowStorm) else ()
        holds = {"FRANCE": [Hold(u.location) for u in pos.units_of("FRANCE")]}
        played = play(board, pos, holds, BOTH.modules, BOTH.state, extra=ModuleOrders(depots, storms))
        assert played.refused == (), option


def test_parsed_orders_split_into_the_units_orders_and_the_module_orders(board: Board) -> None:
    pos = position(FRENCH_BUR)
    lines = parse_orders(
        "A BUR H\nplace blizzard MUN\nestablish depot BUR\nA PAR - PIC", board, pos, "FRANCE", modules=BOTH
    )
    rest, extra = split_orders(line.order for line in lines)
    assert rest == [Hold("BUR"), Move("PAR", "PIC")]
    assert extra == ModuleOrders((EstablishDepot("FRANCE", "BUR"),), (SnowStorm("FRANCE", "MUN"),))
