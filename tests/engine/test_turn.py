"""One phase of a mutating variant played end to end through ``turn.play_phase``: order texts in, results,
map changes, the next phase and the game's end out.

The cases are the DATC-style test matrix of the variant rulings (§7) that the timeline tests only check
hook by hook; here each goes through the whole path a running game takes. The last tests play one seeded
random game per variant and option set to its end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.engine.board import MapState, board_for
from dipserver.engine.options import legal_options
from dipserver.engine.orders import ConvertToArmy
from dipserver.engine.parse import OrderError, parse_order
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, TimelineError, walk
from dipserver.engine.turn import Turn, play_phase, read_orders
from dipserver.engine.types import Phase, PhaseType, Unit, UnitType
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant, load_variant


def map_before(variant: Variant, year: int, hook: Hook, options: Mapping[str, Any] | None = None) -> MapState:
    """The map of a game just before ``hook`` of ``year`` (the timeline alone decides it)."""
    state = variant.map_state
    for y, h, step in walk(variant, options or {}):
        if (y, list(Hook).index(h)) >= (year, list(Hook).index(hook)):
            break
        state = step.map_state
    return state


def position(phase: str, *units: str, owners: Mapping[str, list[str]]) -> Position:
    """Units written ``"RUSSIA F BAR"``, owners by power."""
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    owned = {prov: power for power, provs in owners.items() for prov in provs}
    return Position(Phase.parse(phase), placed, owned)


def result(turn: Turn, text: str) -> dict[str, Any]:
    found = [r for r in turn.results if r["text"] == text]
    assert len(found) == 1, (text, turn.results)
    return found[0]


@pytest.fixture(scope="module")
def wall_of_ice() -> Variant:
    return load_variant("wall_of_ice")


@pytest.fixture(scope="module")
def sahara() -> Variant:
    return load_variant("sahara")


@pytest.fixture(scope="module")
def deluge() -> Variant:
    return load_variant("deluge")


# --- Wall of Ice ---------------------------------------------------------------------------------------


def test_woi_an_iceberg_removes_a_fleet_and_the_winter_it_frees_a_build_is_played(
    wall_of_ice: Variant,
) -> None:
    # Before the Autumn 1903 change Russia has four centres and four units: no Winter. The Barents Sea
    # freezes after the Autumn retreats, the fleet in it is removed (E2) and the Winter is played (E30).
    start = position(
        "F1903M",
        "RUSSIA F BAR",
        "RUSSIA A MOS",
        "RUSSIA A WAR",
        "RUSSIA A SEV",
        owners={"RUSSIA": ["MOS", "WAR", "SEV", "RUM"]},
    )
    state = map_before(wall_of_ice, 1903, Hook.AFTER_FALL_RETREATS)
    turn = play_phase(wall_of_ice, state, start, {"RUSSIA": ["F BAR H"]})
    assert result(turn, "F BAR H")["outcome"] == "success"
    assert turn.next_phase == Phase.parse("W1903A")
    assert turn.skipped == ["F1903R"]
    assert "BAR" not in turn.position.units
    assert {"kind": "terrain", "province": "BAR", "to": "impassable"}.items() <= turn.events[0].items()
    assert any(e["kind"] == "unit_removed" and e["unit"] == "F BAR" for e in turn.events)
    assert turn.map_state.terrain["BAR"].value == "impassable"
    assert turn.outcome is None
    build = play_phase(wall_of_ice, turn.map_state, turn.position, {"RUSSIA": ["A SEV B"]})
    assert result(build, "A SEV B")["outcome"] == "invalid"  # the army in SEV stands there
    assert build.next_phase == Phase.parse("S1904M")


def test_woi_without_the_iceberg_the_same_autumn_skips_the_winter(wall_of_ice: Variant) -> None:
    start = position(
        "F1902M",
        "RUSSIA F BAR",
        "RUSSIA A MOS",
        "RUSSIA A WAR",
        "RUSSIA A SEV",
        owners={"RUSSIA": ["MOS", "WAR", "SEV", "RUM"]},
    )
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {})
    assert turn.skipped == ["F1902R", "W1902A"]
    assert turn.next_phase == Phase.parse("S1903M")
    assert turn.events == []


def test_woi_a_fleet_becomes_an_army_in_winter_beside_a_build(wall_of_ice: Variant) -> None:
    start = position("W1901A", "ENGLAND F EDI", "ENGLAND F NTH", owners={"ENGLAND": ["EDI", "LON", "LVP"]})
    orders = {"ENGLAND": ["F EDI becomes army", "A LVP B", "F NTH becomes army"]}
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, orders)
    assert result(turn, "F EDI becomes army")["outcome"] == "success"
    assert result(turn, "A LVP B")["outcome"] == "success"
    refused = result(turn, "F NTH becomes army")
    assert refused["outcome"] == "invalid" and "at sea" in refused["reason"]
    assert turn.position.units["EDI"] == Unit("ENGLAND", UnitType.ARMY, "EDI")
    assert turn.position.units["LVP"] == Unit("ENGLAND", UnitType.ARMY, "LVP")
    assert turn.orders["ENGLAND"] == ["F EDI becomes army", "A LVP B", "F NTH becomes army"]


def test_woi_conversion_in_a_movement_phase_is_refused_with_the_reason(wall_of_ice: Variant) -> None:
    start = position("S1901M", "ENGLAND F EDI", owners={"ENGLAND": ["EDI"]})
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {"ENGLAND": ["F EDI becomes army"]})
    refused = result(turn, "F EDI becomes army")
    assert refused["outcome"] == "invalid" and "only in a Winter" in refused["reason"]
    assert turn.position.units["EDI"].type is UnitType.FLEET


# --- Sahara --------------------------------------------------------------------------------------------


def test_sahara_a_stranded_fleet_becomes_an_army_unless_told_to_stay(sahara: Variant) -> None:
    # The Aegean dries after the Spring 1903 retreats: the fleet on the dried Eastern Mediterranean has
    # no water left (E3); told to stay a fleet it is disbanded instead (E16).
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F EAS", "TURKEY A CON", owners={"TURKEY": ["CON", "SMY", "ANK"]})
    plain = play_phase(sahara, state, start, {"TURKEY": ["F EAS H"]})
    assert plain.next_phase == Phase.parse("F1903M")
    assert plain.position.units["EAS"] == Unit("TURKEY", UnitType.ARMY, "EAS")
    stay = play_phase(sahara, state, start, {"TURKEY": ["F EAS H", "F EAS stays fleet"]})
    assert result(stay, "F EAS stays fleet")["outcome"] == "success"
    assert "EAS" not in stay.position.units
    assert any(e["kind"] == "unit_removed" and e["unit"] == "F EAS" for e in stay.events)


def test_sahara_a_fleet_on_a_dried_sea_that_still_touches_water_stays_a_fleet(sahara: Variant) -> None:
    state = map_before(sahara, 1902, Hook.AFTER_FALL_RETREATS)
    start = position("F1902M", "ITALY F ION", owners={"ITALY": ["ROM", "NAP", "VEN"]})
    turn = play_phase(sahara, state, start, {"ITALY": ["F ION H", "F ION stays fleet"]})
    assert turn.map_state.terrain["ION"].value == "land"
    assert turn.position.units["ION"] == Unit("ITALY", UnitType.FLEET, "ION")


def test_sahara_the_flag_waits_through_the_retreat_phase(sahara: Variant) -> None:
    # A retreat phase between the movement and the hook: the flag given in the movement phase still
    # decides the fleet's fate once the retreats are done.
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position(
        "S1903M",
        "TURKEY F EAS",
        "TURKEY A BUL",
        "RUSSIA A SER",
        "RUSSIA A RUM",
        owners={"TURKEY": ["CON", "SMY", "ANK"], "RUSSIA": ["MOS", "SEV", "WAR"]},
    )
    orders = {"TURKEY": ["F EAS H", "F EAS stays fleet"], "RUSSIA": ["A SER - BUL", "A RUM S A SER - BUL"]}
    movement = play_phase(sahara, state, start, orders)
    assert movement.next_phase == Phase.parse("S1903R")
    assert movement.stay_flags == frozenset({"EAS"})
    assert movement.events == []  # no change before the retreats (E1)
    retreats = play_phase(sahara, movement.map_state, movement.position, {}, stay_flags=movement.stay_flags)
    assert retreats.next_phase == Phase.parse("F1903M")
    assert "EAS" not in retreats.position.units
    assert retreats.stay_flags == frozenset()


def test_sahara_a_typed_order_beside_a_stays_fleet_of_the_same_unit_gets_its_own_result(
    sahara: Variant,
) -> None:
    # Unlike Deluge's conversion, "stays fleet" is given beside the fleet's order (rules page): each line
    # is adjudicated and shown on its own, whichever comes first, and a bounce stays a bounce.
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F EAS", "TURKEY A CON", owners={"TURKEY": ["CON", "SMY", "ANK"]})
    for orders in (["F EAS H", "F EAS stays fleet"], ["F EAS stays fleet", "F EAS H"]):
        turn = play_phase(sahara, state, start, {"TURKEY": orders})
        assert sorted((r["text"], r["outcome"]) for r in turn.results) == [
            ("F EAS H", "success"),
            ("F EAS stays fleet", "success"),
        ]
        answer = adjudicate_request(
            {
                "variant": "sahara",
                "phase": "S1901M",
                "units": {"TURKEY": ["F EAS"]},
                "centers": {},
                "orders": {"TURKEY": orders},
            }
        )
        assert answer["results"] == {"TURKEY": {"F EAS H": "success", "F EAS stays fleet": "success"}}
    bounced = play_phase(
        sahara, state, start, {"TURKEY": ["F EAS stays fleet", "F EAS - SMY", "A CON - SMY"]}
    )
    assert result(bounced, "F EAS - SMY")["outcome"] == "bounce"
    assert result(bounced, "F EAS stays fleet")["outcome"] == "success"
    assert "EAS" not in bounced.position.units  # stranded where it bounced, and kept its instruction


def test_sahara_conversion_orders_of_other_variants_are_refused(sahara: Variant) -> None:
    start = position("S1901M", "TURKEY A CON", owners={"TURKEY": ["CON"]})
    turn = play_phase(sahara, sahara.map_state, start, {"TURKEY": ["A CON becomes fleet"]})
    refused = result(turn, "A CON becomes fleet")
    assert (
        refused["outcome"] == "invalid"
        and "Sahara has no order to turn an army into a fleet" in refused["reason"]
    )


def test_sahara_rule4_builds_in_any_vacant_owned_centre_but_no_fleet_where_no_water_is_left(
    sahara: Variant,
) -> None:
    # By the Winter 1903 adjustments the Black Sea and the Aegean have dried: Constantinople is still
    # a centre but touches no water. Sevastopol and Bulgaria are owned, not home, and take builds.
    state = map_before(sahara, 1903, Hook.AFTER_WINTER_ADJUSTMENTS)
    start = position("W1903A", "TURKEY A ANK", owners={"TURKEY": ["CON", "SMY", "ANK", "SEV", "BUL"]})
    orders = ["A SEV B", "A BUL B", "F CON B", "A ANK B"]
    turn = play_phase(sahara, state, start, {"TURKEY": orders})
    assert [result(turn, o)["outcome"] for o in orders] == ["success", "success", "invalid", "invalid"]
    assert "Constantinople: it does not touch open sea" in result(turn, "F CON B")["reason"]
    assert "only in vacant centres" in result(turn, "A ANK B")["reason"]
    assert turn.position.units["SEV"] == Unit("TURKEY", UnitType.ARMY, "SEV")
    assert turn.position.units["BUL"] == Unit("TURKEY", UnitType.ARMY, "BUL")
    assert "CON" not in turn.position.units


def test_sahara_the_power_in_iceland_after_winter_1911_wins(sahara: Variant) -> None:
    state = map_before(sahara, 1911, Hook.AFTER_WINTER_ADJUSTMENTS)
    start = position(
        "W1911A", "ENGLAND A ICE", "FRANCE A PAR", owners={"ENGLAND": ["ICE", "LON"], "FRANCE": ["PAR"]}
    )
    turn = play_phase(sahara, state, start, {"ENGLAND": ["A LON B"]})
    assert turn.outcome is not None
    assert (turn.outcome.result, turn.outcome.powers) == ("win", ("ENGLAND",))


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
    offered = legal_options(board, tight, "FRANCE")
    assert (offered.adjustment, offered.builds_first, offered.builds_elsewhere) == (2, ("BRE", "MAR"), 0)
    assert {getattr(o.order, "location", "")[:3] for o in offered.builds} == {"BRE", "MAR", ""}
    alone = play_phase(deluge, state, tight, {"FRANCE": ["A SPA B"]})
    assert result(alone, "A SPA B")["outcome"] == "invalid"
    # Three due and the same two free: one may go elsewhere, once BRE and MAR have theirs.
    room = position("W1902A", "FRANCE A PAR", owners=owned)
    offered = legal_options(board, room, "FRANCE")
    assert (offered.adjustment, offered.builds_first, offered.builds_elsewhere) == (3, ("BRE", "MAR"), 1)
    assert "A SPA B" in [o.text for o in offered.builds]
    turn = play_phase(deluge, state, room, {"FRANCE": ["A SPA B", "A MAR B", "F BRE B"]})
    assert {r["outcome"] for r in turn.results} == {"success"}
    # Without the rule nothing is held back and nothing is said.
    standard = load_variant("standard")
    plain = legal_options(board_for(standard, standard.map_state), tight, "FRANCE")
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


# --- whole games ---------------------------------------------------------------------------------------

LAST_YEAR = {"wall_of_ice": 1915, "sahara": 1911, "deluge": 1908}


def random_orders(board: Any, pos: Position, rng: random.Random) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power in board.variant.powers:
        options = legal_options(board, pos, power)
        if pos.phase.type is not PhaseType.ADJUSTMENTS:
            orders[power] = [rng.choice(choices).text for choices in options.units.values() if choices]
        elif options.adjustment < 0:
            units = sorted(options.units)
            orders[power] = [options.units[loc][0].text for loc in rng.sample(units, -options.adjustment)]
        elif options.adjustment > 0:
            builds, used, chosen = list(options.builds), set(), []
            rng.shuffle(builds)
            for option in builds:
                site = getattr(option.order, "location", "").split("/")[0]
                if site and site not in used and len(chosen) < options.adjustment:
                    used.add(site)
                    chosen.append(option.text)
            orders[power] = chosen
    return orders


@pytest.mark.parametrize(
    ("slug", "game_options", "seed"),
    [
        ("wall_of_ice", {"mode": "exact"}, 1),
        ("wall_of_ice", {"mode": "random"}, 2),
        ("sahara", {}, 3),
        ("sahara", {"errata": False}, 4),
        ("deluge", {}, 5),
        ("deluge", {"swap_sil_swi": True}, 6),
        ("deluge", {"drowning_armies": True}, 7),
    ],
)
def test_a_seeded_random_game_reaches_its_end(slug: str, game_options: dict[str, Any], seed: int) -> None:
    variant = load_variant(slug)
    rng = random.Random(seed)
    state, pos, flags = variant.map_state, variant.start, frozenset[str]()
    for _ in range(200):
        orders = random_orders(board_for(variant, state), pos, rng)
        turn = play_phase(
            variant, state, pos, orders, options=game_options, secret=f"secret-{seed}", stay_flags=flags
        )
        state, pos, flags = turn.map_state, turn.position, turn.stay_flags
        problems = [p for p in validate(variant, state, pos) if "cannot be reached" not in p]
        assert not problems, (pos.phase, problems)
        if turn.outcome is not None:
            assert turn.outcome.result in ("win", "draw", "no_winner")
            assert turn.phase.year <= LAST_YEAR[slug]
            assert len(turn.outcome.powers) == (
                1 if turn.outcome.result == "win" else len(turn.outcome.powers)
            )
            return
    raise AssertionError(f"{slug} did not end within 200 phases")


# --- conversion orders offered and read ------------------------------------------------------------------


def test_options_offer_the_conversions_the_variant_phase_and_place_allow(
    wall_of_ice: Variant, sahara: Variant, deluge: Variant
) -> None:
    winter = position(
        "W1901A", "ENGLAND F EDI", "ENGLAND F NTH", "ENGLAND A LVP", owners={"ENGLAND": ["EDI"]}
    )
    offered = legal_options(board_for(wall_of_ice, wall_of_ice.map_state), winter, "ENGLAND")
    assert [o.text for o in offered.conversions] == ["F EDI becomes army"]  # not the fleet at sea
    assert offered.to_data()["conversions"][0]["kind"] == "convert_to_army"
    spring = position("S1901M", "TURKEY F SMY", "TURKEY A CON", owners={"TURKEY": ["SMY"]})
    stays = legal_options(board_for(sahara, sahara.map_state), spring, "TURKEY")
    assert [o.text for o in stays.conversions] == ["F SMY stays fleet"]
    state = map_before(deluge, 1902, Hook.AFTER_SPRING_RETREATS)
    army = position("S1902M", "ITALY A NAP", "ITALY A TYR", owners={"ITALY": ["NAP"]})
    board = board_for(deluge, state)
    to_fleet = legal_options(board, army, "ITALY")
    assert [o.text for o in to_fleet.conversions] == ["A NAP becomes fleet"]  # TYR is no coastal centre
    for option in to_fleet.conversions:
        assert read_orders([option.text], board, army, "ITALY")[0].order == option.order
    standard = load_variant("standard")
    assert legal_options(board_for(standard, standard.map_state), spring, "TURKEY").conversions == ()


def test_the_parser_reads_a_conversion_or_says_why_not(wall_of_ice: Variant) -> None:
    board = board_for(wall_of_ice, wall_of_ice.map_state)
    winter = position("W1901A", "ENGLAND F EDI", owners={"ENGLAND": ["EDI"]})
    assert parse_order("Fleet Edinburgh becomes army", board, winter, "ENGLAND") == ConvertToArmy("EDI")
    with pytest.raises(OrderError, match="Wall of Ice has no order to keep a stranded fleet a fleet"):
        parse_order("F EDI stays fleet", board, winter, "ENGLAND")
    spring = position("S1901M", "ENGLAND F EDI", owners={"ENGLAND": ["EDI"]})
    with pytest.raises(OrderError, match="only in a Winter adjustment phase"):
        parse_order("F EDI becomes army", board, spring, "ENGLAND")


# --- more of the matrix, end to end ----------------------------------------------------------------------


def test_woi_a_new_centre_belongs_to_the_unit_standing_on_it(wall_of_ice: Variant) -> None:
    year = next(y for y, _, step in walk(wall_of_ice, {}) for e in step.events if e.get("province") == "ALB")
    state = map_before(wall_of_ice, year, Hook.AFTER_FALL_RETREATS)
    start = position(
        f"F{year}M", "AUSTRIA A ALB", "TURKEY A ARM", owners={"AUSTRIA": ["VIE"], "TURKEY": ["CON"]}
    )
    turn = play_phase(wall_of_ice, state, start, {"AUSTRIA": ["A ALB H"], "TURKEY": ["A ARM - SYR"]})
    assert {"ALB", "ARM"} <= turn.map_state.supply_centres
    assert turn.position.owners["ALB"] == "AUSTRIA"  # stood there when it appeared (E11)
    assert "ARM" not in turn.position.owners  # the Turkish army had left: neutral


def test_sahara_a_fleet_on_a_dried_coast_moves_to_the_wet_one(sahara: Variant) -> None:
    state = map_before(sahara, 1903, Hook.AFTER_SPRING_RETREATS)
    start = position("S1903M", "TURKEY F BUL/SC", owners={"TURKEY": ["BUL"]})
    turn = play_phase(sahara, state, start, {"TURKEY": ["F BUL/SC H"]})
    assert turn.position.units["BUL"] == Unit("TURKEY", UnitType.FLEET, "BUL/EC")  # E5a
    assert any(e["kind"] == "fleet_moved" for e in turn.events)


def test_deluge_venice_sinks_and_the_fleet_in_tuscany_keeps_its_side(deluge: Variant) -> None:
    start = position("W1901A", "ITALY F TUS", owners={"ITALY": ["ROM", "NAP", "VEN"]})
    turn = play_phase(deluge, deluge.map_state, start, {"ITALY": ["A ROM B"]})
    assert set(turn.map_state.coasts["TUS"]) == {"EC", "WC"}  # E5d: Venice sank beside it
    assert turn.position.units["TUS"] == Unit("ITALY", UnitType.FLEET, "TUS/WC")


def test_woi_rule4_a_winter_in_which_a_fleet_on_a_coast_could_become_an_army_is_played(
    wall_of_ice: Variant,
) -> None:
    # England has as many units as centres, so nobody builds or removes: the Winter is played all the same,
    # for the fleet in Edinburgh may become an army in any Winter (rule 4, E14).
    start = position(
        "F1901M", "ENGLAND F EDI", "ENGLAND A LON", "ENGLAND A LVP", owners={"ENGLAND": ["EDI", "LON", "LVP"]}
    )
    turn = play_phase(wall_of_ice, wall_of_ice.map_state, start, {})
    assert turn.skipped == ["F1901R"]
    assert turn.next_phase == Phase.parse("W1901A")
    winter = play_phase(wall_of_ice, turn.map_state, turn.position, {"ENGLAND": ["F EDI becomes army"]})
    assert result(winter, "F EDI becomes army")["outcome"] == "success"
    assert winter.position.units["EDI"] == Unit("ENGLAND", UnitType.ARMY, "EDI")


def test_other_variants_skip_a_winter_with_fleets_on_coasts_and_nothing_to_adjust() -> None:
    sahara = load_variant("sahara")
    start = position("F1901M", "ENGLAND F EDI", "ENGLAND A LON", owners={"ENGLAND": ["EDI", "LON"]})
    turn = play_phase(sahara, sahara.map_state, start, {})
    assert turn.skipped == ["F1901R", "W1901A"]
