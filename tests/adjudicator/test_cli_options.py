"""Every option the server accepts for a game is accepted by ``adjudicate``'s requests too (issue 15,
"Every option, everywhere"): the rule modules (``blizzards``, ``supply_lines``) on any variant, with their
state carried in ``next.module_state``, and the generated Ice Lords board dealt from ``"board"``. Bad
options are refused with the messages the server gives (``split_options``, ``icelords.generate``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dipserver.adjudicator import request as reader
from dipserver.adjudicator.cli import answer_text
from dipserver.engine import icelords
from dipserver.engine.modules import split_options
from dipserver.engine.types import PhaseType


def adjudicate(data: dict[str, Any]) -> dict[str, Any]:
    return answer_text(json.dumps(data))


def standard(phase: str, units: dict[str, list[str]], **more: Any) -> dict[str, Any]:
    centers = {"FRANCE": ["BRE", "MAR", "PAR"], "RUSSIA": ["MOS", "SEV", "WAR"], "TURKEY": ["RUM"]}
    return {"variant": "standard", "phase": phase, "units": units, "centers": centers, **more}


def test_a_blizzards_game_keeps_units_out_of_the_announced_blizzard() -> None:
    orders = {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}
    options = {"seed": "game secret", "blizzards": {"count": "1d6"}}
    data = standard("S1901M", {"FRANCE": ["A PAR", "F BRE"]}, orders=orders, options=options)
    answer = adjudicate({**data, "module_state": {"blizzards": ["BUR"]}})
    assert answer["results"]["FRANCE"] == {"A PAR - BUR": "invalid", "F BRE - MAO": "success"}
    assert "blizzard" in answer["reasons"]["FRANCE"]["A PAR - BUR"]
    # The next movement phase opens with its own draw, and next is again a request.
    following = answer["next"]
    assert following["options"] == options and following["phase"] == "F1901M"
    drawn = following["module_state"]["blizzards"]
    assert 1 <= len(drawn) <= 6 and answer["modules"]["opened"]["events"][0]["provinces"] == drawn
    again = adjudicate({**following, "orders": {}})
    assert "error" not in again, again
    # Without a module state the phase is opened as the server opens it: the same draw every time.
    assert adjudicate(data)["next"] == adjudicate(data)["next"]


def test_a_supply_lines_game_marks_a_unit_out_of_supply_in_the_fall_check() -> None:
    # Two strikes, removal at Winter (the gentler settings): the first failed check marks the unit.
    gentle = {"range": 1, "strikes": 2, "removal": "winter"}
    data = standard("F1901M", {"FRANCE": ["A UKR"]}, options={"supply_lines": gentle})
    answer = adjudicate(data)
    check = answer["modules"]["check"]
    assert check["units"]["UKR"]["supplied"] is False and check["units"]["UKR"]["marks"] == 1
    assert answer["next"]["module_state"]["supply"]["marks"] == {"UKR": 1}
    assert answer["next"]["phase"] == "W1901A"
    assert "error" not in adjudicate({**answer["next"], "orders": {}})


def test_an_ice_lords_request_plays_the_board_the_server_deals_for_that_seed() -> None:
    dealt = icelords.generate("frost giants", 4).variant  # what the server's games.variants plays
    units = {p: [f"A {u.location}" for u in dealt.start.units.values() if u.power == p] for p in dealt.powers}
    centers = {p: [c for c, o in dealt.start.owners.items() if o == p] for p in dealt.powers}
    data = {
        "variant": "ice_lords",
        "board": {"seed": "frost giants", "powers": 4},
        "phase": str(dealt.start.phase),
        "units": units,
        "centers": centers,
        "options": {"seed": "game secret"},
    }
    answer = adjudicate(data)
    assert "error" not in answer, answer
    following = answer["next"]
    assert following["board"] == {"seed": "frost giants", "powers": 4}
    assert sorted(following["units"]) == sorted(dealt.powers) and len(dealt.powers) == 4
    homes = {p: sorted(c for c, o in dealt.map_state.homes.items() if o == p) for p in dealt.powers}
    assert following["homes"] == homes
    # Blizzards are on by default, as for a new Ice Lords game (icelords.DEFAULT_OPTIONS).
    assert "blizzards" in answer["modules"]["opened"]
    assert dealt.start.phase.type is PhaseType.MOVEMENT and following["module_state"]["blizzards"]
    assert adjudicate(data) == answer  # the same seed deals the same board and draws the same blizzards


@pytest.mark.parametrize(
    "options",
    [
        {"blizzards": {"count": "many"}},
        {"blizzards": {"eligible": "sea-ish"}},
        {"blizzards": {"colour": "white"}},
        {"blizzards": "yes"},
        {"supply_lines": {"range": 0}},
        {"supply_lines": {"check_seasons": ["W"]}},
        {"supply_lines": "on"},
    ],
)
def test_bad_module_options_are_refused_with_the_servers_message(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as refused:
        split_options(options)  # what games.variants.options_checked reports to the game's creator
    answer = adjudicate(standard("S1901M", {"FRANCE": ["A PAR"]}, options={"seed": "s", **options}))
    assert answer == {"error": f'"options": {refused.value}'}


def test_bad_ice_lords_boards_are_refused_with_the_generators_message() -> None:
    base = {"variant": "ice_lords", "phase": "S1901M", "units": {}, "centers": {}}
    with pytest.raises(icelords.MapGenerationError) as refused:
        icelords.generate("x", 7)
    assert adjudicate({**base, "board": {"seed": "x", "powers": 7}}) == {
        "error": f'"board": Ice Lords: {refused.value}'
    }
    blank = adjudicate({**base, "board": {"seed": " ", "powers": 3}})
    assert blank == {"error": '"board": An Ice Lords seed is 1 to 100 characters, not blank'}
    assert "generated" in adjudicate(base)["error"]
    assert "board" in adjudicate({**standard("S1901M", {}), "board": {"seed": "x"}})["error"]
    assert "never changes" in adjudicate({**standard("S1901M", {}), "map": {}})["error"]


def test_a_batch_dealing_many_boards_keeps_only_the_latest_in_its_tables() -> None:
    for n in range(reader._MAX_HELD + 8):
        board = {"seed": f"board {n}", "powers": 2}
        answer = adjudicate(
            {
                "variant": "ice_lords",
                "board": board,
                "phase": "S1901M",
                "units": {},
                "centers": {},
                "options": {"seed": "g"},
            }
        )
        assert "error" not in answer, answer
    generated = [v for v in reader._DEFAULT_BOARDS if v.slug == icelords.SLUG]
    assert len(generated) <= reader._MAX_HELD and len(reader._HELD) == reader._MAX_HELD


# --- timeline and map take every option too ----------------------------------------------------------


def cli(*argv: str) -> tuple[int, str]:
    import io

    from dipserver.adjudicator.cli import main

    out = io.StringIO()
    status = main(list(argv), io.BytesIO(b""), out)
    return status, out.getvalue()


def test_timeline_and_map_take_the_variant_and_module_options() -> None:
    # Deluge's standard_convoys switch and the rule modules, as adjudicate's "options" take them.
    status, text = cli(
        "timeline", "deluge", "--option", "standard_convoys=true", "--option", "abstraction=true"
    )
    assert status == 0 and text.startswith("1901 after the Winter adjustments:")
    status, text = cli("map", "deluge", "--at", "S1902M", "--option", "supply_lines=true")
    assert status == 0 and json.loads(text)["provinces"]["LON"]["terrain"] == "sea"
    blizzards = 'blizzards={"count": "1d6"}'
    status, text = cli("map", "standard", "--at", "S1901M", "--seed", "secret", "--option", blizzards)
    assert status == 0 and json.loads(text)["phase"] == "S1901M"


def test_timeline_and_map_refuse_a_bad_module_option_with_the_servers_reason() -> None:
    status, text = cli("map", "deluge", "--at", "S1902M", "--option", "supply_lines=7")
    assert status == 1 and "supply_lines" in json.loads(text)["error"]
    status, text = cli("timeline", "standard", "--option", 'blizzards={"count": "1d6"}')
    assert status == 1 and "--seed" in text
    status, text = cli("timeline", "deluge", "--option", "abstraction=yes")
    assert status == 1 and "NAME=<JSON value>" in text


def test_an_af_round_trips_through_next_as_a_unit_of_its_own() -> None:
    # Deluge plays the Abstraction A/F rules: the army boards before the moves and sails with its fleet;
    # ``next`` lists the A/F as "A/F NWG", and played again it lands its army.
    centers = {"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"]}
    units = {"ENGLAND": ["A YOR", "F NTH"], "FRANCE": ["A BRE"]}
    orders = {"ENGLAND": ["A YOR boards F NTH", "F NTH - NWG"]}
    answer = adjudicate(
        {"variant": "deluge", "phase": "S1901M", "units": units, "centers": centers, "orders": orders}
    )
    assert answer["results"]["ENGLAND"] == {"A YOR boards F NTH": "success", "F NTH - NWG": "success"}
    following = answer["next"]
    assert following["units"]["ENGLAND"] == ["A/F NWG"]
    landed = adjudicate({**following, "orders": {"ENGLAND": ["A/F NWG lands NWY"]}})
    assert landed["results"]["ENGLAND"] == {"A/F NWG lands NWY": "success"}
    assert landed["next"]["units"]["ENGLAND"] == ["A NWY", "F NWG"]


def test_an_af_given_ashore_is_refused() -> None:
    centers = {"ENGLAND": ["EDI", "LON", "LVP"]}
    answer = adjudicate(
        {"variant": "deluge", "phase": "S1901M", "units": {"ENGLAND": ["A/F YOR"]}, "centers": centers}
    )
    assert "always at sea" in answer["error"]


def test_a_dislodged_af_waits_in_next_and_retreats_with_its_army_to_sea() -> None:
    centers = {"ENGLAND": ["EDI", "LON", "LVP"], "GERMANY": ["BER", "KIE", "MUN"]}
    units = {"ENGLAND": ["A/F NTH"], "GERMANY": ["F HEL", "F DEN"]}
    orders = {"GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]}
    answer = adjudicate(
        {"variant": "deluge", "phase": "S1901M", "units": units, "centers": centers, "orders": orders}
    )
    following = answer["next"]
    assert following["dislodged"]["ENGLAND"] == [{"unit": "A/F NTH", "retreats": ["ENG", "NWG", "SKA"]}]
    retreated = adjudicate({**following, "orders": {"ENGLAND": ["A/F NTH - NWG"]}})
    assert retreated["next"]["units"]["ENGLAND"] == ["A/F NWG"]


def test_the_abstraction_module_plays_on_a_variant_without_it() -> None:
    # Standard map, the module switched on: Fast Ferry refuses a convoy across two seas.
    units = {"ENGLAND": ["A LON", "F NTH", "F SKA"]}
    orders = {"ENGLAND": ["A LON - SWE", "F NTH C A LON - SWE", "F SKA C A LON - SWE"]}
    data = {"variant": "standard", "phase": "S1901M", "units": units, "centers": {"ENGLAND": ["LON"]}}
    with_module = adjudicate({**data, "orders": orders, "options": {"abstraction": True}})
    assert with_module["results"]["ENGLAND"]["A LON - SWE"] == "invalid"
    assert "Fast Ferry" in with_module["reasons"]["ENGLAND"]["A LON - SWE"]
    assert adjudicate({**data, "orders": orders})["results"]["ENGLAND"]["A LON - SWE"] == "success"
