"""``python -m dipserver.adjudicator adjudicate`` on one request, as other tools see it: a subprocess.

A request is one phase as JSON on stdin; the answer holds the result of every order, keyed by the order's
text as given, and ``next``, which is itself a request for the following phase once orders are added. A bad
request is answered with ``{"error": ...}`` and exit status 1, never a traceback.
"""

from __future__ import annotations

from typing import Any

from tests.adjudicator.command_line import OPENING_CENTRES, adjudicate, request


def small(units: dict[str, list[str]], orders: dict[str, list[str]], phase: str = "S1901M") -> dict[str, Any]:
    """A position with only the units a case needs; everyone keeps their home centres."""
    return request(phase, units=units, orders=orders)


# --- one request ----------------------------------------------------------------------------------------


def test_an_opening_is_adjudicated_and_the_next_phase_is_fall() -> None:
    answer = adjudicate(
        request(
            orders={
                "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
                "GERMANY": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"],
                "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
            }
        )
    )
    assert answer["phase"] == "S1901M"
    assert answer["results"]["FRANCE"] == {
        "A PAR - BUR": "success",
        "A MAR S A PAR - BUR": "success",
        "F BRE - MAO": "success",
    }
    assert answer["results"]["GERMANY"]["A MUN - BUR"] == "bounce"
    assert answer["skipped"] == ["S1901R"]
    nxt = answer["next"]
    assert nxt["variant"] == "standard"
    assert nxt["phase"] == "F1901M"
    assert nxt["units"]["FRANCE"] == ["A BUR", "A MAR", "F MAO"]
    assert nxt["units"]["GERMANY"] == ["A KIE", "A MUN", "F DEN"]
    assert nxt["units"]["RUSSIA"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]  # unordered units hold
    assert nxt["centers"] == OPENING_CENTRES  # centres change hands only after Fall
    assert nxt["homes"] == OPENING_CENTRES
    assert nxt["dislodged"] == {}


def test_results_are_keyed_by_the_text_given_and_any_notation_the_parser_knows_is_read() -> None:
    answer = adjudicate(
        request(orders={"FRANCE": ["army paris -> burgundy", "F Brest - Mid-Atlantic Ocean"]})
    )
    assert answer["results"]["FRANCE"] == {
        "army paris -> burgundy": "success",
        "F Brest - Mid-Atlantic Ocean": "success",
    }
    assert "A BUR" in answer["next"]["units"]["FRANCE"]


def test_an_impossible_order_is_invalid_with_the_reason_and_the_unit_holds() -> None:
    answer = adjudicate(request(orders={"GERMANY": ["F KIE - MUN"], "ENGLAND": ["F LON - PAR"]}))
    assert answer["results"]["GERMANY"] == {"F KIE - MUN": "invalid"}
    assert "Munich" in answer["reasons"]["GERMANY"]["F KIE - MUN"]
    assert answer["results"]["ENGLAND"] == {"F LON - PAR": "invalid"}
    assert "F KIE" in answer["next"]["units"]["GERMANY"]
    assert "F LON" in answer["next"]["units"]["ENGLAND"]


def test_an_order_for_another_powers_unit_is_invalid() -> None:
    answer = adjudicate(request(orders={"ENGLAND": ["A PAR - BUR"]}))
    assert answer["results"]["ENGLAND"] == {"A PAR - BUR": "invalid"}
    assert "France" in answer["reasons"]["ENGLAND"]["A PAR - BUR"]


def test_an_ambiguous_coast_is_invalid_and_a_single_reachable_coast_is_inferred() -> None:
    answer = adjudicate(
        small(
            {"FRANCE": ["F MAO", "F GAS"], "ITALY": ["F WES"]},
            {"FRANCE": ["F MAO - SPA", "F GAS - SPA"], "ITALY": ["F WES - SPA"]},
        )
    )
    assert answer["results"]["FRANCE"]["F MAO - SPA"] == "invalid"
    assert "coast" in answer["reasons"]["FRANCE"]["F MAO - SPA"]
    # Gascony reaches only the north coast and the Western Mediterranean only the south coast: both
    # moves are understood, and they bounce in Spain.
    assert answer["results"]["FRANCE"]["F GAS - SPA"] == "bounce"
    assert answer["results"]["ITALY"]["F WES - SPA"] == "bounce"


# --- DATC-like examples -----------------------------------------------------------------------------


def test_circular_movement_succeeds() -> None:
    """DATC 6.C.1: three units moving in a circle all move."""
    answer = adjudicate(
        small(
            {"TURKEY": ["F ANK", "A CON", "A SMY"]},
            {"TURKEY": ["F ANK - CON", "A CON - SMY", "A SMY - ANK"]},
        )
    )
    assert set(answer["results"]["TURKEY"].values()) == {"success"}
    assert answer["next"]["units"]["TURKEY"] == ["A ANK", "A SMY", "F CON"]


def test_a_convoy_carries_an_army_across_the_sea() -> None:
    answer = adjudicate(
        small(
            {"ENGLAND": ["A LON", "F NTH"]},
            {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"]},
        )
    )
    assert answer["results"]["ENGLAND"] == {"A LON - NWY": "success", "F NTH C A LON - NWY": "success"}
    assert answer["next"]["units"]["ENGLAND"] == ["A NWY", "F NTH"]


def test_a_supported_attack_dislodges_and_the_loser_may_retreat() -> None:
    answer = adjudicate(
        small(
            {"AUSTRIA": ["F ADR", "A TRI"], "ITALY": ["A VEN", "A TYR"]},
            {"AUSTRIA": ["F ADR S A TRI - VEN", "A TRI - VEN"], "ITALY": ["A VEN H", "A TYR - TRI"]},
        )
    )
    assert answer["results"]["AUSTRIA"] == {"F ADR S A TRI - VEN": "success", "A TRI - VEN": "success"}
    assert answer["results"]["ITALY"] == {"A VEN H": "dislodged", "A TYR - TRI": "success"}
    # Not back to Trieste, where the attack came from (and where Tyrolia's army now stands).
    retreats = ["APU", "PIE", "ROM", "TUS", "TYR"]
    assert answer["next"]["dislodged"] == {"ITALY": [{"unit": "A VEN", "retreats": retreats}]}
    assert answer["next"]["phase"] == "S1901R"


def test_a_support_is_cut_by_an_attack_on_the_supporter() -> None:
    """DATC 6.D.? in spirit: the attack on the Adriatic cuts its support, so the attack on Venice bounces."""
    answer = adjudicate(
        small(
            {"AUSTRIA": ["F ADR", "A TRI"], "ITALY": ["A VEN", "F APU"]},
            {"AUSTRIA": ["F ADR S A TRI - VEN", "A TRI - VEN"], "ITALY": ["A VEN H", "F APU - ADR"]},
        )
    )
    assert answer["results"]["AUSTRIA"] == {"F ADR S A TRI - VEN": "cut", "A TRI - VEN": "bounce"}
    assert answer["results"]["ITALY"] == {"A VEN H": "success", "F APU - ADR": "bounce"}
    assert answer["next"]["dislodged"] == {}


def test_a_dislodged_unit_with_nowhere_to_go_is_disbanded_and_reported() -> None:
    answer = adjudicate(
        small(
            {
                "ENGLAND": ["F NWG", "F NTH", "F BAR"],
                "RUSSIA": ["F NWY", "A STP"],
                "GERMANY": ["A SWE", "F SKA"],
            },
            {
                "ENGLAND": ["F NWG - NWY", "F NTH S F NWG - NWY"],
                "GERMANY": ["A SWE H", "F SKA H"],
            },
        )
    )
    assert answer["results"]["RUSSIA"] == {"F NWY D": "success"}
    assert "nowhere" in answer["reasons"]["RUSSIA"]["F NWY D"]
    assert answer["next"]["phase"] == "F1901M"
    assert answer["next"]["units"]["RUSSIA"] == ["A STP"]


# --- whole turns: next fed back as the next request ------------------------------------------------------


def test_retreat_phase_round_trip() -> None:
    first = adjudicate(
        small(
            {"AUSTRIA": ["A RUM"], "RUSSIA": ["A UKR", "A SEV"]},
            {"RUSSIA": ["A UKR - RUM", "A SEV S A UKR - RUM"], "AUSTRIA": ["A RUM H"]},
        )
    )
    nxt = first["next"]
    assert nxt["phase"] == "S1901R"
    assert nxt["dislodged"] == {"AUSTRIA": [{"unit": "A RUM", "retreats": ["BUD", "BUL", "GAL", "SER"]}]}
    assert nxt["units"]["RUSSIA"] == ["A RUM", "A SEV"]
    second = adjudicate({**nxt, "orders": {"AUSTRIA": ["A RUM R SER"]}})
    assert second["phase"] == "S1901R"
    assert second["results"] == {"AUSTRIA": {"A RUM R SER": "success"}}
    assert second["next"]["phase"] == "F1901M"
    assert second["next"]["units"]["AUSTRIA"] == ["A SER"]
    assert second["next"]["dislodged"] == {}


def test_a_retreat_to_a_place_not_offered_is_invalid_and_the_unit_disbanded() -> None:
    retreat = request(
        "F1901R",
        units={"RUSSIA": ["A RUM", "A SEV"]},
        dislodged={"AUSTRIA": [{"unit": "A RUM", "retreats": ["SER"]}]},
        orders={"AUSTRIA": ["A RUM R UKR"]},
    )
    answer = adjudicate(retreat)
    assert answer["results"]["AUSTRIA"]["A RUM R UKR"] == "invalid"
    assert answer["results"]["AUSTRIA"]["A RUM D"] == "success"
    assert answer["next"]["units"]["AUSTRIA"] == []


def test_adjustment_phase_builds_and_moves_on_to_spring() -> None:
    answer = adjudicate(
        request(
            "W1901A",
            units={"RUSSIA": ["A MOS", "F SEV"], "ENGLAND": ["F NTH", "F NWG", "A YOR", "A NWY"]},
            orders={"RUSSIA": ["A WAR B", "F STP/NC B"], "ENGLAND": ["A YOR D"]},
            centers={**OPENING_CENTRES, "ENGLAND": ["EDI", "LON", "LVP", "NWY"]},
        )
    )
    assert answer["phase"] == "W1901A"
    assert answer["results"]["RUSSIA"] == {"A WAR B": "success", "F STP/NC B": "success"}
    nxt = answer["next"]
    assert nxt["phase"] == "S1902M"
    assert nxt["units"]["RUSSIA"] == ["A MOS", "A WAR", "F SEV", "F STP/NC"]
    assert nxt["units"]["ENGLAND"] == ["A NWY", "A YOR", "F NTH", "F NWG"]  # 4 centres, 4 units: no disband
    assert answer["results"]["ENGLAND"]["A YOR D"] == "invalid"


def test_civil_disorder_removes_units_a_power_failed_to_disband() -> None:
    answer = adjudicate(
        request(
            "W1901A",
            units={"ITALY": ["A ROM", "A VEN", "F NAP", "F ION"]},
            centers={"ITALY": ["NAP", "ROM", "VEN"]},
        )
    )
    removed = answer["results"]["ITALY"]
    assert list(removed.values()) == ["success"]
    assert "Civil disorder" in answer["reasons"]["ITALY"][next(iter(removed))]
    assert len(answer["next"]["units"]["ITALY"]) == 3


def test_next_is_a_valid_request_for_a_whole_year() -> None:
    spring = adjudicate(request(orders={"RUSSIA": ["A WAR - GAL"], "GERMANY": ["F KIE - DEN"]}))
    fall = adjudicate({**spring["next"], "orders": {"GERMANY": ["F DEN - SWE"], "RUSSIA": ["A GAL - RUM"]}})
    assert fall["phase"] == "F1901M"
    assert fall["next"]["phase"] == "W1901A"
    assert fall["next"]["centers"]["GERMANY"] == ["BER", "KIE", "MUN", "SWE"]
    assert fall["next"]["centers"]["RUSSIA"] == ["MOS", "RUM", "SEV", "STP", "WAR"]
    winter = adjudicate({**fall["next"], "orders": {"GERMANY": ["F KIE B"], "RUSSIA": ["A WAR B"]}})
    assert winter["next"]["phase"] == "S1902M"
    assert "F KIE" in winter["next"]["units"]["GERMANY"]
    assert "A WAR" in winter["next"]["units"]["RUSSIA"]
    assert winter["next"]["homes"] == OPENING_CENTRES


def test_a_request_with_its_own_home_centres() -> None:
    homes = {**OPENING_CENTRES, "ENGLAND": ["EDI", "LON", "LVP", "NWY"]}
    answer = adjudicate(
        request(
            "W1901A",
            units={"ENGLAND": ["F NTH"]},
            centers={"ENGLAND": ["EDI", "LON", "LVP", "NWY"]},
            homes=homes,
            orders={"ENGLAND": ["F NWY B"]},
        )
    )
    assert answer["results"]["ENGLAND"] == {"F NWY B": "success"}
    assert answer["next"]["homes"]["ENGLAND"] == ["EDI", "LON", "LVP", "NWY"]


# --- bad requests ------------------------------------------------------------------------------------------


def test_malformed_json_is_an_error_not_a_traceback() -> None:
    answer = adjudicate('{"variant": "standard", "phase": ')
    assert answer["error"].startswith("not valid JSON")


def test_unknown_variant() -> None:
    answer = adjudicate(request(variant="atlantis"))
    assert "atlantis" in answer["error"]


def test_unknown_power() -> None:
    answer = adjudicate(request(orders={"ATLANTIS": ["A PAR H"]}))
    assert "unknown power 'ATLANTIS'" in answer["error"]
    assert "ENGLAND" in answer["error"]


def test_bad_phase() -> None:
    assert "S1901M" in adjudicate(request(phase="Spring 1901"))["error"]
    assert "Winter" in adjudicate(request(phase="S1901A"))["error"]


def test_impossible_positions_are_refused_with_the_reason() -> None:
    assert "cannot stand in Munich" in adjudicate(request(units={"GERMANY": ["F MUN"]}))["error"]
    assert "STP/NC or STP/SC" in adjudicate(request(units={"RUSSIA": ["F STP"]}))["error"]
    assert (
        "two units in PAR" in adjudicate(request(units={"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}))["error"]
    )
    assert "not a supply centre" in adjudicate(request(centers={"FRANCE": ["BUR"]}))["error"]
    assert "retreat phase" in adjudicate(request(dislodged={"FRANCE": [{"unit": "A PAR"}]}))["error"]
    assert '"units" is required' in adjudicate({"variant": "standard", "phase": "S1901M"})["error"]
    assert "not 'a list'" not in adjudicate(request(orders=["A PAR H"]))["error"]
    assert "a request is a JSON object" in adjudicate("[1, 2]")["error"]


# --- results keyed by the text given, in retreats and adjustments too --------------------------------------


def test_retreat_and_adjustment_results_are_keyed_by_the_text_given_too() -> None:
    retreat = adjudicate(
        request(
            "F1901R",
            units={"RUSSIA": ["A RUM", "A SEV"]},
            dislodged={"AUSTRIA": [{"unit": "A RUM", "retreats": ["SER", "BUD"]}]},
            orders={"AUSTRIA": ["army rumania retreats to serbia"]},
        )
    )
    assert retreat["results"] == {"AUSTRIA": {"army rumania retreats to serbia": "success"}}
    winter = adjudicate(
        request(
            "W1901A",
            units={"RUSSIA": ["A MOS"]},
            orders={"RUSSIA": ["build fleet st petersburg nc", "WAIVE"]},
        )
    )
    assert winter["results"]["RUSSIA"] == {"build fleet st petersburg nc": "success", "WAIVE": "success"}
