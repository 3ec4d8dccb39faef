"""Each result of a phase is a record (``engine.records``): what kind of order it was, which unit, from
where to where and by what, how it went and why, and the order's text for display."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from dipserver.engine.dislodged import Dislodged
from dipserver.engine.kinds.catalogue import RECORD_KINDS as KINDS
from dipserver.engine.kinds.conversion import ConvertToArmy, ConvertToFleet, StayFleet
from dipserver.engine.kinds.registry import Drawing, kinds
from dipserver.engine.lateorders import Disband
from dipserver.engine.modules.blizzard import SnowStorm
from dipserver.engine.modules.supply import EstablishDepot
from dipserver.engine.orders import Outcome
from dipserver.engine.position import Position
from dipserver.engine.records import FIELDS, PLAIN_FIELDS, drawing, order_record
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant

A, F = UnitType.ARMY, UnitType.FLEET


def played(
    variant: Variant, texts: Mapping[str, Sequence[str]], position: Position | None = None
) -> list[dict[str, Any]]:
    return play_phase(variant, variant.map_state, position or variant.start, texts).results


def record_of(results: list[dict[str, Any]], order: str) -> dict[str, Any]:
    [found] = [r for r in results if r["order"] == order]
    return {k: v for k, v in found.items() if k != "text"}


def at(phase: str, *units: Unit, dislodged: Mapping[str, Dislodged] | None = None) -> Position:
    return Position(Phase.parse(phase), {u.province: u for u in units}, {}, dict(dislodged or {}))


def test_every_result_of_a_phase_is_a_record_keeping_the_fields_results_always_had(standard):
    results = played(standard, {"FRANCE": ["A PAR - BUR", "A XYZ - PAR"]})
    assert {tuple(k for k in r if k != "text") for r in results} == {FIELDS}
    assert FIELDS[: len(PLAIN_FIELDS)] == PLAIN_FIELDS


def test_the_kinds_of_records_are_those_the_order_kinds_give():
    # Whatever kinds are loaded (a new kind is its own module: no list here to keep in step with it).
    assert list(KINDS) == sorted({record for kind in kinds().values() for record in kind.records})
    assert {"hold", "move", "support_move", "build"} <= set(KINDS)


def test_a_hold(standard):
    record = record_of(played(standard, {"ENGLAND": ["F LON H"]}), "F LON H")
    assert record == {
        "power": "ENGLAND",
        "order": "F LON H",
        "outcome": "success",
        "reason": "",
        "dislodged": False,
        "kind": "hold",
        "unit": {"type": "F", "location": "LON"},
        "from": "LON",
        "to": None,
        "via": None,
    }


def test_a_move_names_where_it_goes_and_goes_by_no_convoy(standard):
    record = record_of(played(standard, {"RUSSIA": ["F STP/SC - BOT"]}), "F STP/SC - BOT")
    assert (record["kind"], record["unit"], record["from"], record["to"], record["via"]) == (
        "move",
        {"type": "F", "location": "STP/SC"},
        "STP/SC",
        "BOT",
        None,
    )


def test_a_move_asking_for_a_convoy_goes_via_convoy(standard):
    texts = {"ENGLAND": ["A LVP - EDI VIA", "F EDI - NTH"]}
    record = record_of(played(standard, texts), "A LVP - EDI VIA")
    assert record["via"] == {"convoy": True, "unit": None, "from": None, "to": None}


def test_a_move_to_a_province_it_does_not_border_goes_via_convoy(standard):
    position = at("F1901M", Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", A, "YOR"))
    texts = {"ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY"]}
    record = record_of(played(standard, texts, position), "A YOR - NWY")
    assert (record["outcome"], record["via"]["convoy"]) == ("success", True)


def test_a_support_to_hold_names_the_unit_it_supports(standard):
    record = record_of(played(standard, {"FRANCE": ["A PAR S F BRE"]}), "A PAR S F BRE")
    assert (record["kind"], record["from"], record["to"]) == ("support_hold", "PAR", None)
    assert record["via"] == {
        "convoy": False,
        "unit": {"type": "F", "location": "BRE"},
        "from": "BRE",
        "to": None,
    }


def test_a_support_to_move_names_the_unit_it_supports_and_where_that_goes(standard):
    texts = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}
    record = record_of(played(standard, texts), "A MAR S A PAR - BUR")
    assert record["kind"] == "support_move"
    assert record["via"] == {
        "convoy": False,
        "unit": {"type": "A", "location": "PAR"},
        "from": "PAR",
        "to": "BUR",
    }


def test_a_convoy_names_the_army_it_carries_and_where_to(standard):
    position = at("F1901M", Unit("ENGLAND", F, "NTH"), Unit("ENGLAND", A, "YOR"))
    texts = {"ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY"]}
    record = record_of(played(standard, texts, position), "F NTH C A YOR - NWY")
    assert (record["kind"], record["unit"], record["to"]) == (
        "convoy",
        {"type": "F", "location": "NTH"},
        None,
    )
    assert record["via"] == {
        "convoy": False,
        "unit": {"type": "A", "location": "YOR"},
        "from": "YOR",
        "to": "NWY",
    }


def test_a_dislodged_unit_is_marked_on_its_own_record(standard):
    position = at("S1901M", Unit("FRANCE", A, "BUR"), Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "RUH"))
    texts = {"FRANCE": ["A BUR H"], "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}
    record = record_of(played(standard, texts, position), "A BUR H")
    assert (record["kind"], record["outcome"], record["dislodged"]) == ("hold", "dislodged", True)


def test_a_retreat_names_the_dislodged_unit_not_the_one_in_its_place(standard):
    dislodged = {"BUR": Dislodged(Unit("FRANCE", A, "BUR"), "MUN", ("PAR", "GAS"))}
    position = at("S1901R", Unit("GERMANY", A, "BUR"), dislodged=dislodged)
    record = record_of(played(standard, {"FRANCE": ["A BUR R PAR"]}, position), "A BUR R PAR")
    assert (record["kind"], record["power"], record["from"], record["to"]) == (
        "retreat",
        "FRANCE",
        "BUR",
        "PAR",
    )
    assert record["unit"] == {"type": "A", "location": "BUR"}


def test_a_disband_in_a_retreat_phase_is_of_the_dislodged_unit(standard):
    dislodged = {"BUR": Dislodged(Unit("FRANCE", A, "BUR"), "MUN", ("PAR",))}
    position = at("S1901R", Unit("GERMANY", F, "BUR"), dislodged=dislodged)
    record = record_of(played(standard, {"FRANCE": ["A BUR D"]}, position), "A BUR D")
    assert (record["kind"], record["unit"], record["to"]) == (
        "disband",
        {"type": "A", "location": "BUR"},
        None,
    )


def test_a_build_names_the_unit_built_and_where(standard):
    position = Position(Phase.parse("W1901A"), {}, {"STP": "RUSSIA"})
    record = record_of(played(standard, {"RUSSIA": ["F STP/NC B"]}, position), "F STP/NC B")
    assert (record["kind"], record["unit"], record["from"], record["to"]) == (
        "build",
        {"type": "F", "location": "STP/NC"},
        None,
        "STP/NC",
    )


def test_a_waive_names_no_unit(standard):
    position = Position(Phase.parse("W1901A"), {}, {"STP": "RUSSIA"})
    record = record_of(played(standard, {"RUSSIA": ["WAIVE"]}, position), "WAIVE")
    assert (record["kind"], record["unit"], record["from"], record["to"]) == ("waive", None, None, None)


def test_a_line_that_reads_as_no_order_is_invalid_and_of_no_kind(standard):
    record = record_of(played(standard, {"FRANCE": ["A XYZ - PAR"]}), "A XYZ - PAR")
    assert (record["outcome"], record["kind"], record["unit"], record["via"]) == ("invalid", None, None, None)
    assert "xyz" in record["reason"]


def test_an_order_refused_as_one_too_many_keeps_what_it_was(standard):
    owners = {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE"}
    units = {"PAR": Unit("FRANCE", A, "PAR"), "BRE": Unit("FRANCE", F, "BRE")}
    position = Position(Phase.parse("W1901A"), units, owners)
    results = played(standard, {"FRANCE": ["Build A MAR", "Build F MAR"]}, position)
    record = record_of(results, "Build F MAR")
    assert (record["outcome"], record["kind"], record["to"]) == ("invalid", "build", "MAR")
    assert record["reason"] == "Only 1 build is due this winter"


def test_a_second_order_for_a_unit_is_judged_as_the_datc_says(standard):
    # DATC 4.D.3: a unit given two different orders holds (order entry refuses the second at once).
    results = played(standard, {"FRANCE": ["A PAR H", "A PAR - BUR"]})
    record = record_of(results, "A PAR - BUR")
    assert (record["outcome"], record["kind"], record["to"]) == ("invalid", "move", "BUR")
    assert record["reason"] == "The army in Paris was given different orders, so it holds"


def test_an_army_becoming_a_fleet_names_the_coast_it_takes():
    position = at("S1901M", Unit("SPAIN", A, "SPA"))
    record = order_record("SPAIN", ConvertToFleet("SPA", "NC"), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["unit"], record["from"], record["to"], record["order"]) == (
        "convert_to_fleet",
        {"type": "A", "location": "SPA"},
        "SPA",
        "SPA/NC",
        "A SPA becomes fleet NC",
    )


def test_a_fleet_becoming_an_army_leaves_its_coast():
    position = at("W1901A", Unit("FRANCE", F, "SPA/SC"))
    record = order_record("FRANCE", ConvertToArmy("SPA/SC"), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["from"], record["to"]) == ("convert_to_army", "SPA/SC", "SPA")


def test_a_fleet_told_to_stay_a_fleet_goes_nowhere():
    position = at("S1901M", Unit("FRANCE", F, "MAO"))
    record = order_record("FRANCE", StayFleet("MAO"), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["from"], record["to"], record["order"]) == (
        "stay_fleet",
        "MAO",
        None,
        "F MAO stays fleet",
    )


def test_a_converting_army_s_record_comes_from_the_conversion_played_in_the_phase():
    deluge = load_variant("deluge")
    results = played(deluge, {"FRANCE": ["A MAR becomes fleet"]})
    record = record_of(results, "A MAR becomes fleet")
    assert (record["kind"], record["outcome"], record["from"]) == ("convert_to_fleet", "success", "MAR")


def test_a_depot_is_founded_where_the_unit_stands():
    position = at("S1901M", Unit("FRANCE", A, "PAR"))
    record = order_record("FRANCE", EstablishDepot("FRANCE", "PAR"), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["unit"], record["from"], record["order"]) == (
        "establish_depot",
        {"type": "A", "location": "PAR"},
        "PAR",
        "establish depot PAR",
    )


@pytest.mark.parametrize(("place", "kind"), [(True, "place_blizzard"), (False, "remove_blizzard")])
def test_a_snow_storm_token_names_its_province_and_no_unit(place, kind):
    position = at("S1901M")
    record = order_record("FRANCE", SnowStorm("FRANCE", "MUN", place), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["unit"], record["from"], record["to"]) == (kind, None, None, "MUN")


def test_a_support_is_drawn_from_its_unit_at_the_unit_it_supports(standard):
    texts = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}
    found = drawing(record_of(played(standard, texts), "A MAR S A PAR - BUR"))
    assert found == Drawing("line", "MAR", "BUR", via="PAR", label="support")


def test_a_line_that_reads_as_no_order_draws_nothing(standard):
    assert drawing(record_of(played(standard, {"FRANCE": ["A XYZ - PAR"]}), "A XYZ - PAR")) is None


def test_a_unit_removed_where_another_power_stood_is_not_taken_for_that_unit():
    # Supply lines remove an unsupplied unit after it moved: at the phase's start its place was another's.
    position = at("F1901M", Unit("GERMANY", F, "HOL"))
    record = order_record("FRANCE", Disband("HOL"), position, outcome=Outcome.SUCCESS)
    assert (record["kind"], record["unit"], record["from"]) == ("disband", None, "HOL")
