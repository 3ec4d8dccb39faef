"""The mutating variants across the board: one seeded random game per variant and option set played
through ``turn.play_phase`` to its end, and the conversion orders each variant offers and reads.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dipserver.engine.board import board_for
from dipserver.engine.kinds.conversion import ConvertToArmy
from dipserver.engine.options import legal_options
from dipserver.engine.parse import OrderError, parse_order
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook
from dipserver.engine.turn import play_phase, read_orders
from dipserver.engine.types import PhaseType
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant, load_variant
from tests.engine.turn_cases import map_before, position

# --- whole games ---------------------------------------------------------------------------------------

# The last year a game may reach: Wall of Ice plays on until Tunis and North Africa decide it, unless the
# game takes the 1915 house limit.
LAST_YEAR = {"wall_of_ice": 1915, "sahara": 1911, "deluge": 1908}


def last_year(slug: str, game_options: dict[str, Any]) -> int:
    return LAST_YEAR[slug] if slug != "wall_of_ice" or game_options.get("house_limit_1915") else 9999


def random_orders(board: Any, pos: Position, rng: random.Random) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power in board.variant.powers:
        options = legal_options(board, pos, power)
        if pos.phase.type is not PhaseType.ADJUSTMENTS:
            orders[power] = [rng.choice(choices).text for choices in options.units.values() if choices]
        elif options.adjustment.due < 0:
            units = sorted(options.units)
            orders[power] = [options.units[loc][0].text for loc in rng.sample(units, -options.adjustment.due)]
        elif options.adjustment.due > 0:
            builds, used, chosen = list(options.adjustment.builds), set(), []
            rng.shuffle(builds)
            for option in builds:
                site = getattr(option.order, "location", "").split("/")[0]
                if site and site not in used and len(chosen) < options.adjustment.due:
                    used.add(site)
                    chosen.append(option.text)
            orders[power] = chosen
    return orders


@pytest.mark.parametrize(
    ("slug", "game_options", "seed"),
    [
        ("wall_of_ice", {"mode": "exact"}, 1),
        ("wall_of_ice", {"mode": "random", "house_limit_1915": True}, 2),
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
            assert turn.phase.year <= last_year(slug, game_options)
            assert len(turn.outcome.powers) == (
                1 if turn.outcome.result == "win" else len(turn.outcome.powers)
            )
            return
    assert undecided_by_the_seed(slug, game_options, turn), f"{slug} did not end within 200 phases"


def undecided_by_the_seed(slug: str, game_options: dict[str, Any], turn: Any) -> bool:
    """Wall of Ice without the house limit ends only in a win or a two-way draw over Tunis and North
    Africa: a board where they are the last centres and not both owned plays on (E18)."""
    if slug != "wall_of_ice" or game_options.get("house_limit_1915"):
        return False
    owners = [turn.position.owners.get(p) for p in ("TUN", "NAF")]
    return turn.map_state.supply_centres == {"TUN", "NAF"} and None in owners


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
