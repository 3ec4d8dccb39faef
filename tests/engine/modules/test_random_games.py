"""Seeded random games with both modules on, on the standard map, a mutating map and an Ice Lords board.

Every power gives random legal orders (``legal_options`` on the open map, so many of them walk into
blizzards and must be refused). Each phase is opened and played through the module pipeline and the
timeline hooks run between phases, as a server would. After every movement phase: a unit snowed in is
exactly where it was, no unit entered a blizzard, every order has one answer, and the position is valid.
"""

from __future__ import annotations

import random

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.icelords import generate
from dipserver.engine.modules import Modules
from dipserver.engine.modules.phase import ModuleState, open_phase, play
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Order
from dipserver.engine.position import Position
from dipserver.engine.timeline import apply_hook, hooks_between
from dipserver.engine.types import PhaseType, province_of
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant, load_variant

MODULES = Modules.from_options({"blizzards": {"count": "2d4"}, "supply_lines": {"range": 2}})


def random_orders(
    variant: Variant, board: Board, position: Position, rng: random.Random
) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power in variant.powers:
        options = legal_options(board, position, power)
        if position.phase.type is not PhaseType.ADJUSTMENTS:
            orders[power] = [rng.choice(c).order for c in options.units.values() if c]
        elif options.adjustment.due < 0:
            orders[power] = [
                options.units[loc][0].order for loc in sorted(options.units)[: -options.adjustment.due]
            ]
    return orders


def play_game(variant: Variant, options: dict[str, object], seed: int, last_year: int) -> int:
    rng = random.Random(seed)
    secret = f"secret-{seed}"
    map_state, position, state = variant.map_state, variant.start, ModuleState()
    snowed_in = 0
    while position.phase.year <= last_year:
        board = board_for(variant, map_state)
        opened = open_phase(board, position, MODULES, state, secret)
        orders = random_orders(variant, board, position, rng)
        played = play(board, position, orders, MODULES, opened.state)
        assert len(played.result.results) >= sum(len(o) for o in orders.values())
        after = played.result.position
        if position.phase.type is PhaseType.MOVEMENT:
            snow = opened.state.blizzards
            # A Fall ends with the removal of the units long out of supply (at Winter): that is no move.
            starved = {
                province_of(r.order.unit) for r in played.result.results if "Out of supply" in r.reason
            }
            for prov in snow & set(position.units):
                if prov not in starved:
                    assert after.units.get(prov) == position.units[prov], (position.phase, prov)
                snowed_in += 1
            entered = {p for p in after.units if after.units[p] != position.units.get(p)}
            assert not entered & snow, (position.phase, entered & snow)
        state = played.state
        for year, hook in hooks_between(position.phase, after.phase):
            step = apply_hook(variant, options, map_state, after, hook, year, secret=secret)
            map_state, after = step.map_state, step.position
        problems = [p for p in validate(variant, map_state, after) if "cannot be reached" not in p]
        assert not problems, (after.phase, problems)
        position = after
    return snowed_in


@pytest.mark.parametrize(
    ("slug", "options", "seed"),
    [("standard", {}, 1), ("wall_of_ice", {"mode": "exact"}, 2), ("sahara", {}, 3), ("deluge", {}, 4)],
)
def test_random_games_keep_the_blizzard_and_supply_rules(
    slug: str, options: dict[str, object], seed: int
) -> None:
    assert play_game(load_variant(slug), options, seed, 1906) > 0  # some unit was snowed in at least once


def test_a_random_game_on_a_generated_ice_lords_board() -> None:
    board_map = generate("secret-ice", 6)
    play_game(board_map.variant, {}, 5, 1908)
