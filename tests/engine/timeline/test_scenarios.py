"""A variant's own tests (``engine/scenarios.py``): a position, one phase's orders and what must follow,
played by the one pipeline; each case green, or red with why in words."""

from __future__ import annotations

from typing import Any

import pytest

from dipserver.engine.scenarios import (
    Scenario,
    ScenarioError,
    load_scenarios,
    map_at,
    read_scenarios,
    run_scenario,
)
from dipserver.engine.types import Phase, Terrain
from dipserver.engine.variant import VARIANTS_DIR, Variant, load_variant, variant_sources


def case(**given: Any) -> Scenario:
    [scenario] = read_scenarios({"scenarios": [{"name": "a case", **given}]})
    return scenario


@pytest.fixture(scope="module")
def standard() -> Variant:
    return load_variant("standard")


def test_every_test_shipped_with_sahara_passes(sahara):
    cases = load_scenarios(VARIANTS_DIR / "sahara")
    assert len(cases) >= 5
    assert [run_scenario(sahara, c).failures for c in cases] == [()] * len(cases)


def test_a_variant_without_a_tests_file_has_no_cases():
    assert load_scenarios(VARIANTS_DIR / "standard") == ()


def test_a_bounce_leaves_both_units_where_they_stood(standard):
    scenario = case(
        units={"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        orders={"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
        expect={"units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}, "phase": "F1901M"},
    )
    assert run_scenario(standard, scenario).passed


def test_a_unit_that_ends_elsewhere_fails_the_case_in_words(standard):
    scenario = case(
        units={"FRANCE": ["A PAR"]},
        orders={"FRANCE": ["A PAR - BUR"]},
        expect={"units": {"FRANCE": ["A PAR"]}},
    )
    result = run_scenario(standard, scenario)
    assert not result.passed and result.failures == ("FRANCE's units are A BUR, not A PAR",)


def test_a_dislodged_unit_is_expected_by_name(standard):
    scenario = case(
        units={"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR"]},
        orders={"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR"]},
        expect={"dislodged": ["A BUR"], "phase": "S1901R"},
    )
    assert run_scenario(standard, scenario).passed


def test_the_map_of_a_phase_is_the_one_the_timeline_has_made_by_then(sahara):
    options = {"mode": "exact", "errata": True}
    assert map_at(sahara, options, Phase.parse("F1902M")).terrain["EAS"] is Terrain.SEA
    assert map_at(sahara, options, Phase.parse("S1903M")).terrain["EAS"] is Terrain.LAND


def test_a_unit_that_cannot_stand_there_makes_the_case_unplayable(sahara):
    result = run_scenario(sahara, case(phase="S1906M", units={"ITALY": ["F ION"]}))
    assert not result.passed and result.failures[0].startswith("cannot be played: unit 'F ION'")


def test_a_phase_before_the_start_makes_the_case_unplayable(standard):
    result = run_scenario(standard, case(phase="S1899M", units={"FRANCE": ["A PAR"]}))
    assert "comes before the variant's start" in result.failures[0]


def test_an_unknown_option_makes_the_case_unplayable(sahara):
    result = run_scenario(sahara, case(options={"no_such": True}, units={"FRANCE": ["A PAR"]}))
    assert not result.passed and "cannot be played" in result.failures[0]


def test_a_winner_expected_when_nobody_won_fails(sahara):
    scenario = case(phase="W1911A", units={"ENGLAND": ["A LON"]}, expect={"winner": "ENGLAND"})
    [failure] = run_scenario(sahara, scenario).failures
    assert failure.startswith("ENGLAND has not won")


def test_the_terrain_and_centres_after_a_change_are_expected(sahara):
    scenario = case(
        phase="F1903M",
        units={"TURKEY": ["A CON"]},
        expect={"terrain": {"BLA": "land"}, "centres": {"SMY": False, "AEG": True, "CON": False}},
    )
    assert run_scenario(sahara, scenario).failures == ("CON is still a supply centre",)


def test_play_goes_on_without_orders_until_the_phase_named(sahara):
    scenario = case(phase="F1905M", until="W1905A", units={"RUSSIA": ["F BOT"]}, expect={"phase": "W1905A"})
    assert run_scenario(sahara, scenario).passed


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"cases": []}, "unknown key(s) ['cases']"),
        ({"scenarios": [{"units": {}}]}, "every scenario has a name"),
        ({"scenarios": [{"name": "x", "colour": 1}]}, "unknown key(s) ['colour']"),
        ({"scenarios": [{"name": "x", "units": {"FRANCE": "A PAR"}}]}, "units.FRANCE is a list of texts"),
        ({"scenarios": [{"name": "x", "expect": {"score": 1}}]}, "expect is a table of"),
        ({"scenarios": [{"name": "x", "phase": 1901}]}, "phase is a phase"),
    ],
)
def test_a_file_in_a_shape_the_runner_cannot_read_is_refused_naming_the_case(data, words):
    with pytest.raises(ScenarioError, match="scenario") as refused:
        read_scenarios(data)
    assert words in str(refused.value)


def test_the_tests_are_not_among_the_files_a_variants_version_hashes():
    assert not any("tests" in name for name in variant_sources("sahara"))
