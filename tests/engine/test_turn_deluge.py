"""One phase of Deluge played end to end through ``turn.play_phase``: order texts in, results, map changes,
the next phase out (the variant rulings' test matrix, §7, that the timeline tests check hook by hook), and
the game's options refused when unknown.
"""

from __future__ import annotations

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.engine.board import board_for
from dipserver.engine.options import legal_options
from dipserver.engine.timeline import Hook, TimelineError
from dipserver.engine.turn import play_phase, read_orders
from dipserver.engine.types import Unit, UnitType
from dipserver.engine.variant import Variant, load_variant
from tests.engine.turn_cases import map_before, position, result

# --- Deluge --------------------------------------------------------------------------------------------


def test_deluge_an_army_built_in_london_becomes_a_fleet_when_london_sinks(deluge: Variant) -> None:
    start = position("W1901A", owners={"ENGLAND": ["LON", "EDI", "LVP"]})
    turn = play_phase(deluge, deluge.map_state, start, {"ENGLAND": ["A LON B"]})
    assert result(turn, "A LON B")["outcome"] == "success"
    assert turn.map_state.terrain["LON"].value == "sea"
    assert turn.position.units["LON"] == Unit("ENGLAND", UnitType.FLEET, "LON")


def test_deluge_army_to_fleet_fails_on_a_bounced_attack_and_succeeds_unattacked(deluge: Variant) -> None:
    state = map_before(deluge, 1902, Hook.AFTER_SPRING_RETREATS)
    start = position(
        "S1902M", "ITALY A NAP", "AUSTRIA A ROM", "ITALY A APU", owners={"ITALY": ["NAP", "ROM", "VEN"]}
    )
    attacked = play_phase(
        deluge, state, start, {"ITALY": ["A NAP becomes fleet", "A APU H"], "AUSTRIA": ["A ROM - NAP"]}
    )
    failed = result(attacked, "A NAP becomes fleet")
    assert failed["outcome"] == "void" and "AUSTRIA ordered a move into NAP" in failed["reason"]
    assert attacked.position.units["NAP"].type is UnitType.ARMY
    quiet = play_phase(deluge, state, start, {"ITALY": ["A NAP becomes fleet"], "AUSTRIA": ["A ROM H"]})
    assert quiet.position.units["NAP"] == Unit("ITALY", UnitType.FLEET, "NAP")
    assert result(quiet, "A NAP becomes fleet")["outcome"] == "success"


def test_deluge_a_converting_army_has_no_other_order(deluge: Variant) -> None:
    state = map_before(deluge, 1902, Hook.AFTER_SPRING_RETREATS)
    start = position("S1902M", "ITALY A NAP", owners={"ITALY": ["NAP"]})
    lines = read_orders(["A NAP becomes fleet", "A NAP - APU"], board_for(deluge, state), start, "ITALY")
    assert lines[0].order is not None and lines[1].order is None
    assert "ordered to become a fleet" in (lines[1].error or "")


def test_deluge_a_typed_order_beside_a_conversion_of_the_same_unit_gets_its_own_result(
    deluge: Variant,
) -> None:
    # The converting army holds meanwhile, but that hold is the conversion's, not a line of its own: the
    # typed "A POR H" is refused with its reason, not shown as the hold's success.
    start = position("S1901M", "FRANCE A POR", owners={"FRANCE": ["POR"]})
    for orders in (["A POR becomes fleet", "A POR H"], ["A POR H", "A POR becomes fleet"]):
        turn = play_phase(deluge, deluge.map_state, start, {"FRANCE": orders})
        assert [(r["text"], r["outcome"]) for r in turn.results] == [
            ("A POR becomes fleet", "success"),
            ("A POR H", "invalid"),
        ]
        assert "ordered to become a fleet" in result(turn, "A POR H")["reason"]
        answer = adjudicate_request(
            {
                "variant": "deluge",
                "phase": "S1901M",
                "units": {"FRANCE": ["A POR"]},
                "centers": {},
                "orders": {"FRANCE": orders},
            }
        )
        assert answer["results"] == {"FRANCE": {"A POR becomes fleet": "success", "A POR H": "invalid"}}


def test_deluge_the_hold_a_converting_army_makes_is_no_result_of_its_own(deluge: Variant) -> None:
    # The hold stands in for the conversion (``Kind.stand_in``): the conversion's result is the one shown.
    start = position("S1901M", "FRANCE A POR", owners={"FRANCE": ["POR"]})
    turn = play_phase(deluge, deluge.map_state, start, {"FRANCE": ["A POR becomes fleet"]})
    assert [(r["text"], r["outcome"]) for r in turn.results] == [("A POR becomes fleet", "success")]


def test_deluge_a_converting_army_dislodged_shows_it_on_the_conversion(deluge: Variant) -> None:
    start = position("S1901M", "FRANCE A POR", "ENGLAND A SPA", "ENGLAND F MAO", owners={"FRANCE": ["POR"]})
    orders = {"FRANCE": ["A POR becomes fleet"], "ENGLAND": ["A SPA - POR", "F MAO S A SPA - POR"]}
    turn = play_phase(deluge, deluge.map_state, start, orders)
    converted = result(turn, "A POR becomes fleet")
    assert (converted["outcome"], converted["dislodged"]) == ("void", True)
    assert "ENGLAND ordered a move into POR" in converted["reason"]
    # No "A POR H" line: only the conversion, and the disband of the army that had nowhere to retreat.
    assert sorted(r["text"] for r in turn.results if r["power"] == "FRANCE") == [
        "A POR D",
        "A POR becomes fleet",
    ]


def test_deluge_builds_go_home_first_then_at_most_three_elsewhere(deluge: Variant) -> None:
    state = map_before(deluge, 1902, Hook.AFTER_WINTER_ADJUSTMENTS)
    owned = {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR", "MUN", "BER", "KIE"]}
    start = position("W1902A", owners=owned)
    orders = ["A SPA B", "A POR B", "A MUN B", "A BER B", "A PAR B", "A MAR B", "A BRE B"]
    turn = play_phase(deluge, state, start, {"FRANCE": orders})
    assert [result(turn, o)["outcome"] for o in orders] == ["success"] * 3 + ["invalid"] + ["success"] * 3
    assert "at most 3 builds outside your home centres" in result(turn, "A BER B")["reason"]
    early = play_phase(deluge, state, start, {"FRANCE": ["A SPA B", "A PAR B"]})
    refused = result(early, "A SPA B")
    assert refused["outcome"] == "invalid" and "home centres first (BRE, MAR still free)" in refused["reason"]


def test_deluge_options_offer_a_build_elsewhere_only_when_the_order_reader_can_accept_one(
    deluge: Variant,
) -> None:
    state = map_before(deluge, 1902, Hook.AFTER_WINTER_ADJUSTMENTS)
    board = board_for(deluge, state)
    # Two builds due and two home centres free (BRE, MAR): a build in Spain would leave one of them
    # without a build, so the order reader refuses it whatever else is ordered; it is not offered.
    owned = {"FRANCE": ["PAR", "MAR", "BRE", "SPA"]}
    tight = position("W1902A", "FRANCE A PAR", "FRANCE A BUR", owners=owned)
    offered = legal_options(board, tight, "FRANCE").adjustment
    assert (offered.due, offered.builds_first, offered.builds_elsewhere) == (2, ("BRE", "MAR"), 0)
    assert {getattr(o.order, "location", "")[:3] for o in offered.builds} == {"BRE", "MAR", ""}
    alone = play_phase(deluge, state, tight, {"FRANCE": ["A SPA B"]})
    assert result(alone, "A SPA B")["outcome"] == "invalid"
    # Three due and the same two free: one may go elsewhere, once BRE and MAR have theirs.
    room = position("W1902A", "FRANCE A PAR", owners=owned)
    offered = legal_options(board, room, "FRANCE").adjustment
    assert (offered.due, offered.builds_first, offered.builds_elsewhere) == (3, ("BRE", "MAR"), 1)
    assert "A SPA B" in [o.text for o in offered.builds]
    turn = play_phase(deluge, state, room, {"FRANCE": ["A SPA B", "A MAR B", "F BRE B"]})
    assert {r["outcome"] for r in turn.results} == {"success"}
    # Without the rule nothing is held back and nothing is said.
    standard = load_variant("standard")
    plain = legal_options(board_for(standard, standard.map_state), tight, "FRANCE").adjustment
    assert (plain.builds_first, plain.builds_elsewhere) == ((), None)


def test_deluge_north_africa_counts_in_winter_1907_then_sinks(deluge: Variant) -> None:
    # France owns North Africa and Munich with one unit: the build is due because North Africa still
    # counts this Winter (E27); the army on it then becomes a fleet as it sinks (E7).
    state = map_before(deluge, 1907, Hook.AFTER_WINTER_ADJUSTMENTS)
    assert "NAF" in state.supply_centres
    start = position(
        "W1907A", "FRANCE A NAF", "ITALY A PIE", owners={"FRANCE": ["NAF", "MUN"], "ITALY": ["PIE"]}
    )
    turn = play_phase(deluge, state, start, {"FRANCE": ["A MUN B"]})
    assert result(turn, "A MUN B")["outcome"] == "success"
    assert "NAF" not in turn.map_state.supply_centres
    assert turn.position.units["NAF"] == Unit("FRANCE", UnitType.FLEET, "NAF")


def test_unknown_options_are_refused(deluge: Variant) -> None:
    start = position("S1901M", owners={})
    with pytest.raises(TimelineError, match="unknown option"):
        play_phase(deluge, deluge.map_state, start, {}, options={"errata": True})


# --- more of the matrix, end to end ----------------------------------------------------------------------


def test_deluge_venice_sinks_and_the_fleet_in_tuscany_keeps_its_side(deluge: Variant) -> None:
    start = position("W1901A", "ITALY F TUS", owners={"ITALY": ["ROM", "NAP", "VEN"]})
    turn = play_phase(deluge, deluge.map_state, start, {"ITALY": ["A ROM B"]})
    assert set(turn.map_state.coasts["TUS"]) == {"EC", "WC"}  # E5d: Venice sank beside it
    assert turn.position.units["TUS"] == Unit("ITALY", UnitType.FLEET, "TUS/WC")
