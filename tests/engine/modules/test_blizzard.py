"""Blizzards, DATC style: a position, the blizzards announced, the orders, the expected result."""

from __future__ import annotations

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board, board_for
from dipserver.engine.lateorders import Retreat
from dipserver.engine.modules import Modules
from dipserver.engine.modules.blizzard import BlizzardOptions, SnowStorm, apply_storms, draw, eligible
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import ModuleOrders, ModuleState, open_phase, order_problem, play
from dipserver.engine.orders import Outcome
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.types import Phase, PhaseType, Terrain
from dipserver.engine.variant import Variant, load_variant

from .conftest import orders, outcomes, position, reasons, run, where

BLIZZARDS = Modules(blizzards=BlizzardOptions())


def snow(*provinces: str) -> ModuleState:
    return ModuleState(blizzards=frozenset(provinces))


# --- the draw ---------------------------------------------------------------------------------------


def test_the_draw_is_fixed_by_the_secret_and_the_phase(board: Board) -> None:
    options = BlizzardOptions(count=Dice.parse("3"))
    first = draw(board, Phase.parse("S1903M"), "secret", options)
    assert first == draw(board, Phase.parse("S1903M"), "secret", options)
    assert len(first) == 3
    others = {draw(board, Phase.parse(f"S{y}M"), "secret", options) for y in range(1901, 1911)}
    assert len(others) > 1  # another phase, another draw
    assert draw(board, Phase.parse("S1903M"), "other secret", options) != first


def test_the_count_is_rolled_with_the_games_dice_and_never_exceeds_the_provinces(board: Board) -> None:
    counts = {len(draw(board, Phase.parse(f"F{y}M"), "s", BlizzardOptions())) for y in range(1901, 1961)}
    assert counts == {1, 2, 3, 4, 5, 6}  # 1d6, drawn without replacement
    everything = draw(board, Phase.parse("S1901M"), "s", BlizzardOptions(count=Dice.parse("500")))
    assert everything == frozenset(board.provinces)


def test_eligible_provinces_can_be_land_or_sea_only(board: Board) -> None:
    land = BlizzardOptions(count=Dice.parse("10"), eligible="land")
    sea = BlizzardOptions(count=Dice.parse("10"), eligible="sea")
    assert all(board.is_land(p) for p in draw(board, Phase.parse("S1901M"), "s", land))
    assert all(board.is_water(p) for p in draw(board, Phase.parse("S1901M"), "s", sea))
    assert len(eligible(board, sea)) == 19


def test_blizzards_fall_only_on_the_current_maps_passable_provinces(standard: Variant) -> None:
    """Wall of Ice: an iceberg is closed already; a blizzard never falls on it."""
    wall = load_variant("wall_of_ice")
    frozen = next(
        s.map_state for year, hook, s in walk(wall, {}) if (year, hook) == (1904, Hook.AFTER_FALL_RETREATS)
    )
    iced = board_for(wall, frozen)
    bergs = {p for p in iced.provinces if iced.terrain(p) is Terrain.IMPASSABLE}
    assert {"BAR", "NWG", "NTH"} <= bergs
    every = draw(iced, Phase.parse("S1905M"), "s", BlizzardOptions(count=Dice.parse("500")))
    assert not every & bergs
    assert len(every) == len(iced.provinces) - len(bergs)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ({"count": "d6"}, "not a dice expression"),
        ({"count": "99d6"}, "roll 1 to 20 dice"),
        ({"eligible": "mountains"}, "'eligible' must be one of all, land, sea"),
        ({"snow_storm_tokens": -1}, "whole number"),
        ({"blizard_count": 2}, "unknown option blizard_count"),
        ("lots", "give true or a table"),
    ],
)
def test_bad_blizzard_options_say_what_is_wrong(text: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Modules.from_options({"blizzards": text})


def test_the_blizzards_are_announced_when_the_movement_phase_opens(board: Board, standard: Variant) -> None:
    opened = open_phase(board, standard.start, BLIZZARDS, ModuleState(), "secret")
    (event,) = opened.events
    assert event["kind"] == "blizzards" and event["phase"] == "S1901M"
    assert event["provinces"] == sorted(opened.state.blizzards)
    assert 1 <= len(opened.state.blizzards) <= 6


def test_blizzards_never_fall_in_a_winter_and_leave_the_adjustments_alone(board: Board) -> None:
    """Rulings 8.1.6: with a count that would snow in every province, a Winter opens with no blizzard and
    no announcement, and its builds are played exactly as without the module."""
    modules = Modules(blizzards=BlizzardOptions(count=Dice.parse("500")))
    owners = {"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "RUSSIA": ["WAR", "MOS", "SEV", "STP"]}
    pos = position({"RUSSIA": ["A WAR"]}, phase="W1901A", owners=owners)
    opened = open_phase(board, pos, modules, ModuleState(), "secret")
    assert opened.state.blizzards == frozenset() and list(opened.events) == []
    builds = {"FRANCE": ["A PAR B", "F BRE B"], "RUSSIA": ["A MOS B"]}
    played = run(board, pos, builds, modules, opened.state)
    plain = run(board, pos, builds, Modules())
    assert outcomes(played) == [("Build", Outcome.SUCCESS)] * 3
    assert played.result == plain.result
    assert where(played) == {"WAR": "RUSSIA A", "PAR": "FRANCE A", "BRE": "FRANCE F", "MOS": "RUSSIA A"}
    spring = open_phase(board, played.result.position, modules, played.state, "secret")
    assert spring.state.blizzards == frozenset(board.provinces)  # the draw resumes with the next Spring


# --- orders in and around a blizzard ------------------------------------------------------------------


def test_no_move_into_a_blizzard(board: Board) -> None:
    """A MUN - BUR with a blizzard on BUR: illegal, the army holds."""
    pos = position({"GERMANY": ["A MUN"]})
    played = run(board, pos, {"GERMANY": ["A MUN - BUR"]}, BLIZZARDS, snow("BUR"))
    assert outcomes(played) == [("Move MUN", Outcome.INVALID)]
    assert "Burgundy is under a blizzard: no unit may enter it" in reasons(played)
    assert where(played) == {"MUN": "GERMANY A"}


def test_no_move_out_of_a_blizzard(board: Board) -> None:
    pos = position({"FRANCE": ["A BUR"]})
    played = run(board, pos, {"FRANCE": ["A BUR - PAR"]}, BLIZZARDS, snow("BUR"))
    assert outcomes(played) == [("Move BUR", Outcome.INVALID)]
    assert reasons(played) == ["Burgundy is snowed in by a blizzard: its unit can only hold"]


@pytest.mark.parametrize(("blizzards", "belgium"), [((), "GERMANY A"), (("BUR",), "FRANCE A")])
def test_a_unit_in_a_blizzard_gives_no_support(
    board: Board, blizzards: tuple[str, ...], belgium: str
) -> None:
    """A RUH - BEL supported by A BUR against A BEL: dislodges, unless BUR is snowed in (1 against 1)."""
    pos = position({"GERMANY": ["A RUH", "A BUR"], "FRANCE": ["A BEL"]})
    block = {"GERMANY": ["A RUH - BEL", "A BUR S A RUH - BEL"], "FRANCE": ["A BEL H"]}
    played = run(board, pos, block, BLIZZARDS, snow(*blizzards))
    assert where(played)["BEL"] == belgium


def test_a_unit_in_a_blizzard_cannot_be_attacked_or_dislodged(board: Board) -> None:
    pos = position({"GERMANY": ["A BUR"], "FRANCE": ["A PAR", "A PIC", "A GAS"]})
    block = {"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR", "A GAS S A PAR - BUR"]}
    played = run(board, pos, block, BLIZZARDS, snow("BUR"))
    assert [o for _, o in outcomes(played)] == [Outcome.INVALID] * 3
    assert where(played)["BUR"] == "GERMANY A"
    assert played.result.position.phase == Phase.parse("F1901M")  # nobody dislodged: no retreats


def test_no_convoy_through_a_blizzard(board: Board) -> None:
    """F NTH convoys A YOR - NWY; a blizzard on NTH: the fleet may only hold and the army has no route."""
    pos = position({"ENGLAND": ["A YOR", "F NTH"]})
    block = {"ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY"]}
    played = run(board, pos, block, BLIZZARDS, snow("NTH"))
    assert outcomes(played) == [("Move YOR", Outcome.INVALID), ("Convoy NTH", Outcome.INVALID)]
    assert where(played) == {"YOR": "ENGLAND A", "NTH": "ENGLAND F"}
    clear = run(board, pos, block, BLIZZARDS, snow("SKA"))
    assert where(clear)["NWY"] == "ENGLAND A"


def test_a_sea_under_a_blizzard_stops_ships_but_keeps_its_coastline(board: Board) -> None:
    """F BRE - PIC still sails the Channel coast; F BRE - ENG does not."""
    pos = position({"FRANCE": ["F BRE", "F PIC"]})
    played = run(board, pos, {"FRANCE": ["F BRE - ENG", "F PIC - BEL"]}, BLIZZARDS, snow("ENG"))
    assert outcomes(played)[0] == ("Move BRE", Outcome.INVALID)
    coast = run(board, pos, {"FRANCE": ["F PIC - BEL", "F BRE - PIC"]}, BLIZZARDS, snow("ENG"))
    assert [o for _, o in outcomes(coast)] == [Outcome.SUCCESS, Outcome.SUCCESS]


def test_no_retreat_into_a_blizzard_and_blizzards_last_through_the_retreats(board: Board) -> None:
    """A VIE dislodged from GAL with BOH's support; TYR and TRI are snowed in: BUD is its only retreat."""
    pos = position({"RUSSIA": ["A GAL", "A BOH"], "AUSTRIA": ["A VIE"]})
    block = {"RUSSIA": ["A GAL - VIE", "A BOH S A GAL - VIE"], "AUSTRIA": ["A VIE H"]}
    played = run(board, pos, block, BLIZZARDS, snow("TYR", "TRI"))
    retreat = played.result.position
    assert retreat.phase == Phase.parse("S1901R")
    assert retreat.dislodged["VIE"].retreats == ("BUD",)
    assert played.state.blizzards == {"TYR", "TRI"}  # still there for the retreats

    to_budapest = run(board, retreat, {"AUSTRIA": ["A VIE R BUD"]}, BLIZZARDS, played.state)
    assert outcomes(to_budapest) == [("Retreat VIE", Outcome.SUCCESS)]
    assert to_budapest.state.blizzards == frozenset()  # gone once the season is over


def test_a_dislodged_unit_whose_only_retreats_are_snowed_in_is_disbanded(board: Board) -> None:
    pos = position({"RUSSIA": ["A GAL", "A BOH"], "AUSTRIA": ["A VIE"]})
    block = {"RUSSIA": ["A GAL - VIE", "A BOH S A GAL - VIE"], "AUSTRIA": ["A VIE H"]}
    played = run(board, pos, block, BLIZZARDS, snow("TYR", "TRI", "BUD"))
    assert played.result.position.phase.type is PhaseType.MOVEMENT
    assert played.result.results[-1].reason == "Dislodged with nowhere to retreat to"


def test_a_retreat_ordered_into_a_blizzard_is_refused_with_the_reason(board: Board) -> None:
    pos = position({"RUSSIA": ["A GAL", "A BOH"], "AUSTRIA": ["A VIE"]})
    block = {"RUSSIA": ["A GAL - VIE", "A BOH S A GAL - VIE"], "AUSTRIA": ["A VIE H"]}
    played = run(board, pos, block, BLIZZARDS, snow("TYR"))
    retreat = played.result.position
    # The player-facing parser already refuses it (not a retreat option); the adjudicator says why too.
    refused = play(board, retreat, {"AUSTRIA": [Retreat("VIE", "TYR")]}, BLIZZARDS, played.state)
    assert refused.result.results[0].outcome is Outcome.INVALID
    assert refused.result.results[0].reason == "Tyrolia is under a blizzard: no unit may enter it"


# --- Snow Storm tokens --------------------------------------------------------------------------------


def test_snow_storms_place_and_remove_after_the_draw_and_cancel_out(board: Board) -> None:
    storms = [SnowStorm("FRANCE", "BUR"), SnowStorm("GERMANY", "MUN", place=False), SnowStorm("ITALY", "PIE")]
    storms += [SnowStorm("AUSTRIA", "PIE", place=False), SnowStorm("TURKEY", "BUR")]
    assert apply_storms({"MUN", "VIE"}, storms, board) == {"BUR", "VIE"}  # PIE placed and removed: nothing


def test_snow_storm_tokens_are_ordered_a_phase_ahead_and_spent(board: Board) -> None:
    modules = Modules(blizzards=BlizzardOptions(count=Dice.parse("0"), snow_storm_tokens=1))
    pos = position({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]})
    storms = (SnowStorm("FRANCE", "MUN"), SnowStorm("FRANCE", "BUR"), SnowStorm("GERMANY", "SWI"))
    played = run(board, pos, {}, modules, ModuleState(), ModuleOrders(storms=storms))
    assert [why for _, why in played.refused] == [
        "FRANCE has no Snow Storm token left",
        "SWI is not a province of this map",
    ]
    assert played.state.tokens_used == {"FRANCE": 1}
    opened = open_phase(board, played.result.position, modules, played.state, "secret")
    assert opened.state.blizzards == {"MUN"} and opened.state.storms == ()
    assert opened.state.tokens_left(modules, "FRANCE") == 0


def test_the_announcement_lists_the_snow_storms_and_what_each_did(board: Board) -> None:
    """The draw is announced with every Snow Storm played on it: placed, removed, cancelled, no change."""
    modules = Modules(blizzards=BlizzardOptions(count=Dice.parse("2"), snow_storm_tokens=2))
    phase = Phase.parse("S1902M")
    drawn = sorted(draw(board, phase, "secret", modules.blizzards or BlizzardOptions()))
    free = [p for p in ("BUR", "MUN", "PIE", "RUH") if p not in drawn]
    storms = (
        SnowStorm("FRANCE", free[0]),
        SnowStorm("GERMANY", drawn[0], place=False),
        SnowStorm("ITALY", free[1]),
        SnowStorm("AUSTRIA", free[1], place=False),
        SnowStorm("TURKEY", drawn[1]),
    )
    pos = position({"FRANCE": ["A PAR"]}, phase="S1902M")
    opened = open_phase(board, pos, modules, ModuleState(storms=storms), "secret")
    (event,) = opened.events
    assert event["drawn"] == drawn
    assert event["provinces"] == sorted({drawn[1], free[0]})
    assert [(s["power"], s["province"], s["place"], s["effect"]) for s in event["storms"]] == [
        ("FRANCE", free[0], True, "placed"),
        ("GERMANY", drawn[0], False, "removed"),
        ("ITALY", free[1], True, "cancelled"),
        ("AUSTRIA", free[1], False, "cancelled"),
        ("TURKEY", drawn[1], True, "no_change"),
    ]


def test_a_snow_storm_on_a_province_closed_since_it_was_ordered_is_announced_as_lapsed() -> None:
    wall = load_variant("wall_of_ice")
    frozen = next(
        s.map_state for year, hook, s in walk(wall, {}) if (year, hook) == (1904, Hook.AFTER_FALL_RETREATS)
    )
    iced = board_for(wall, frozen)
    modules = Modules(blizzards=BlizzardOptions(count=Dice.parse("0"), snow_storm_tokens=1))
    pos = position({"ENGLAND": ["F LON"]}, phase="S1905M")
    opened = open_phase(iced, pos, modules, ModuleState(storms=(SnowStorm("ENGLAND", "NTH"),)), "s")
    (event,) = opened.events
    assert event["provinces"] == []
    assert event["storms"] == [{"power": "ENGLAND", "province": "NTH", "place": True, "effect": "lapsed"}]


# --- with the mutating variants ------------------------------------------------------------------------


def test_a_blizzard_on_a_sea_that_dries_next_season() -> None:
    """Sahara: EAS is snowed in for F1902M and dries after the Autumn retreats; the fleet in it could only
    hold, and the next draw sees EAS as land."""
    sahara = load_variant("sahara")
    steps = {(y, h): s for y, h, s in walk(sahara, {})}
    autumn = steps[(1902, Hook.AFTER_SPRING_RETREATS)].map_state
    board = board_for(sahara, autumn)
    assert board.is_water("EAS")
    pos = position({"TURKEY": ["F EAS", "A SMY"]}, phase="F1902M")
    played = run(board, pos, {"TURKEY": ["F EAS - AEG", "A SMY - SYR"]}, BLIZZARDS, snow("EAS"))
    assert outcomes(played)[0] == ("Move EAS", Outcome.INVALID)
    assert played.state.blizzards == frozenset()
    dried = board_for(sahara, steps[(1902, Hook.AFTER_FALL_RETREATS)].map_state)
    assert dried.is_land("EAS")
    land_only = BlizzardOptions(count=Dice.parse("500"), eligible="land")
    assert "EAS" in draw(dried, Phase.parse("S1903M"), "s", land_only)
    assert "EAS" not in draw(board, Phase.parse("F1902M"), "s", land_only)


def test_no_modules_is_exactly_the_standard_adjudicator(board: Board) -> None:
    pos = position({"RUSSIA": ["A GAL", "A BOH"], "AUSTRIA": ["A VIE", "A TRI"]})
    block = {"RUSSIA": ["A GAL - VIE", "A BOH S A GAL - VIE"], "AUSTRIA": ["A VIE H", "A TRI - TYR"]}
    played = run(board, pos, block, Modules())
    assert played.result == adjudicate(board, pos, orders(board, pos, block))


def test_order_entry_gets_the_same_answer_as_the_adjudicator(board: Board) -> None:
    """What the API checks per order (and filters options with) is what ``play`` will say."""
    pos = position({"GERMANY": ["A MUN", "A KIE"]})
    state = snow("BUR")
    into = orders(board, pos, {"GERMANY": ["A MUN - BUR"]})["GERMANY"][0]
    fine = orders(board, pos, {"GERMANY": ["A KIE - HOL"]})["GERMANY"][0]
    assert order_problem(board, pos, BLIZZARDS, state, "GERMANY", into) == (
        "Burgundy is under a blizzard: no unit may enter it"
    )
    assert order_problem(board, pos, BLIZZARDS, state, "GERMANY", fine) is None
    assert order_problem(board, pos, Modules(), state, "GERMANY", into) is None
