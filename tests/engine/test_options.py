"""Legal options: what a power may order, as data; and every option reads back as the same order."""

from __future__ import annotations

import json

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.dislodged import Dislodged
from dipserver.engine.lateorders import Build, Disband, Retreat, Waive
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Convoy, Hold, Move, Outcome, SupportHold, SupportMove
from dipserver.engine.parse import parse_order
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant
from tests.engine.test_parse import MOVEMENT, RETREATS, WINTER


def texts(board: Board, position: Position, power: str, unit: str) -> set[str]:
    return {o.text for o in legal_options(board, position, power).units[unit]}


def test_opening_options_of_an_army(standard: Variant, board: Board) -> None:
    options = texts(board, standard.start, "GERMANY", "MUN")
    assert {"A MUN H", "A MUN - BUR", "A MUN - RUH", "A MUN - TYR", "A MUN - SIL"} <= options
    assert "A MUN S A BER" in options
    assert "A MUN S F KIE" in options
    assert "A MUN S A PAR - BUR" in options  # support of a foreign move
    assert "A MUN S A VIE - TYR" in options
    assert "A MUN - PAR" not in options
    assert not any(" VIA" in t for t in options)  # inland: no convoy


def test_opening_options_of_a_fleet_with_coasts(standard: Variant, board: Board) -> None:
    options = texts(board, standard.start, "RUSSIA", "STP/SC")
    assert {o for o in options if " - " in o and " S " not in o} == {
        "F STP/SC - BOT",
        "F STP/SC - FIN",
        "F STP/SC - LVN",
    }
    assert "F STP/SC S A MOS - LVN" in options
    assert "F STP/SC S A MOS" not in options  # a fleet cannot reach Moscow, so cannot support it there
    assert "F STP/SC S A WAR - LVN" in options


def test_fleet_moves_name_their_coast(board: Board) -> None:
    options = texts(board, MOVEMENT, "FRANCE", "MAO")
    assert {"F MAO - SPA/NC", "F MAO - SPA/SC", "F MAO - POR"} <= options
    assert "F MAO - SPA" not in options


def test_convoyed_moves_follow_fleets_at_sea(board: Board) -> None:
    # England's fleet in the North Sea can carry London's army to any coast of the North Sea.
    london = texts(board, MOVEMENT, "ENGLAND", "LON")
    assert {"A LON - NWY VIA", "A LON - BEL VIA", "A LON - YOR VIA", "A LON - DEN VIA"} <= london
    assert "A LON - YOR" in london  # the land route is offered too
    assert "A LON - SPA VIA" not in london  # no fleet in the Channel or the Atlantic
    north_sea = texts(board, MOVEMENT, "ENGLAND", "NTH")
    assert {"F NTH C A LON - NWY", "F NTH C A LON - BEL"} <= north_sea
    assert not any(t.startswith("F NTH C A PAR") for t in north_sea)  # Paris is inland


def test_a_fleet_on_land_offers_no_convoy(board: Board) -> None:
    assert not any(" C " in t for t in texts(board, MOVEMENT, "ENGLAND", "EDI"))


def test_retreat_options(board: Board) -> None:
    options = legal_options(board, RETREATS, "FRANCE")
    assert {loc: [o.text for o in opts] for loc, opts in options.units.items()} == {
        "BUR": ["A BUR R GAS", "A BUR R MAR", "A BUR R PIC", "A BUR D"],
        "MAO": ["F MAO R SPA/NC", "F MAO R SPA/SC", "F MAO R WES", "F MAO D"],
    }
    assert legal_options(board, RETREATS, "GERMANY").units == {}


def test_build_options(board: Board) -> None:
    russia = legal_options(board, WINTER, "RUSSIA")
    assert russia.adjustment.due == 4
    assert [o.text for o in russia.adjustment.builds] == [
        "A MOS B",
        "A SEV B",
        "F SEV B",
        "A STP B",
        "F STP/NC B",
        "F STP/SC B",
        "A WAR B",
        "WAIVE",
    ]
    assert russia.units == {}


def test_disband_options(board: Board) -> None:
    germany = legal_options(board, WINTER, "GERMANY")
    assert germany.adjustment.due == -1
    assert {loc: [o.text for o in opts] for loc, opts in germany.units.items()} == {
        "BER": ["A BER D"],
        "HOL": ["A HOL D"],
        "MUN": ["A MUN D"],
    }
    england = legal_options(board, WINTER, "ENGLAND")
    assert (england.adjustment.due, england.units, england.adjustment.builds) == (0, {}, ())


def test_options_are_plain_data(board: Board) -> None:
    data = legal_options(board, MOVEMENT, "ENGLAND").to_data()
    assert json.loads(json.dumps(data)) == data
    hold = data["units"]["LON"][0]
    assert hold == {"text": "A LON H", "kind": "hold", "unit": "LON", "drawing": drawn("ring", start="LON")}
    convoy = next(o for o in data["units"]["NTH"] if o["kind"] == "convoy")
    assert set(convoy) == {"text", "kind", "unit", "target", "dest", "drawing"}
    builds = legal_options(board, WINTER, "RUSSIA").to_data()["builds"]
    assert builds[0] == {
        "text": "A MOS B",
        "kind": "build",
        "power": "RUSSIA",
        "unit_type": "A",
        "location": "MOS",
        "drawing": drawn("unit", start="MOS", unit={"power": "RUSSIA", "type": "A", "location": "MOS"}),
    }


def drawn(shape: str, **fields: object) -> dict[str, object]:
    """An option's drawing as its data says it: every field there, None where the drawing has none."""
    empty = dict.fromkeys(("start", "end", "via", "label", "unit", "words"))
    return {"shape": shape, **empty, "dislodged": False, **fields}


def test_each_option_carries_its_orders_drawing_as_the_history_maps_draw_its_record(board: Board) -> None:
    units = legal_options(board, MOVEMENT, "ENGLAND").to_data()["units"]
    move = next(o for o in units["LON"] if o["text"] == "A LON - WAL")
    assert move["drawing"] == drawn("arrow", start="LON", end="WAL", label="move")
    convoy = next(o for o in units["NTH"] if o["kind"] == "convoy")
    assert convoy["drawing"] == drawn(
        "line", start="NTH", end=convoy["dest"], via=convoy["target"], label="convoy"
    )


POSITIONS = [
    ("S1901M", None),
    ("S1902M", MOVEMENT),
    ("F1902R", RETREATS),
    ("W1902A", WINTER),
]


@pytest.mark.parametrize(("name", "position"), POSITIONS)
def test_every_option_parses_back_to_the_same_order(
    standard: Variant, board: Board, name: str, position: Position | None
) -> None:
    position = position or standard.start
    checked = 0
    for power in standard.powers:
        for option in legal_options(board, position, power).all():
            assert parse_order(option.text, board, position, power) == option.order, option.text
            checked += 1
    assert checked > 0


def test_every_kind_of_order_is_offered(standard: Variant, board: Board) -> None:
    kinds = {
        type(o.order)
        for position in (MOVEMENT, RETREATS, WINTER)
        for power in standard.powers
        for o in legal_options(board, position, power).all()
    }
    assert kinds == {Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive}


def test_a_fleet_is_not_offered_support_of_a_move_only_it_could_convoy(board: Board) -> None:
    # A convoying fleet cannot also support: A CON - SEV goes by sea only through the Black Sea, so the
    # fleet there may convoy it but not back it (the adjudicator would call that support illegal).
    position = Position(
        Phase.parse("S1902M"),
        {"BLA": Unit("TURKEY", UnitType.FLEET, "BLA"), "CON": Unit("TURKEY", UnitType.ARMY, "CON")},
        {},
    )
    black_sea = texts(board, position, "TURKEY", "BLA")
    assert "F BLA C A CON - SEV" in black_sea
    assert "F BLA S A CON - SEV" not in black_sea
    assert "F BLA S A CON - BUL" in black_sea  # the land route needs no convoy


def test_no_offered_order_is_one_the_adjudicator_calls_illegal(standard: Variant, board: Board) -> None:
    # Each option alone, everyone else holding: it may fail or be void, never be invalid.
    for position in (standard.start, MOVEMENT):
        for power in standard.powers:
            for option in legal_options(board, position, power).all():
                result = adjudicate(board, position, {power: [option.order]})
                outcomes = {r.outcome for r in result.results if r.order == option.order}
                assert Outcome.INVALID not in outcomes, (option.text, result.results)


def test_a_dislodged_unit_keeps_its_own_options_apart_from_the_attacker(board: Board) -> None:
    position = Position(
        Phase.parse("F1901R"),
        {"SER": Unit("AUSTRIA", UnitType.ARMY, "SER")},
        {},
        {"SER": Dislodged(Unit("TURKEY", UnitType.ARMY, "SER"), "BUL", ("ALB",))},
    )
    assert [o.text for o in legal_options(board, position, "TURKEY").units["SER"]] == [
        "A SER R ALB",
        "A SER D",
    ]
    assert legal_options(board, position, "AUSTRIA").units == {}
