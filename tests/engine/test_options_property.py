"""Every option a player is offered is an order the engine takes: a property over random positions.

For every variant (the generated Ice Lords board too) and its maps through the timeline, random positions
are dealt from a fixed seed; for each power, every option offered — unit orders and the variant's
conversions — must read back to the same order and, given alone while every other unit holds, must never
be judged illegal (it may fail or be void: that depends on the others).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board, MapState, board_for
from dipserver.engine.conversions import parse_conversion
from dipserver.engine.icelords import generate
from dipserver.engine.kinds.conversion import ConversionOrder
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Outcome
from dipserver.engine.parse import parse_order
from dipserver.engine.position import Position
from dipserver.engine.timeline import walk
from dipserver.engine.types import Phase, Terrain, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant

SEED = 15
POSITIONS_PER_MAP = 2


def variants() -> list[Variant]:
    return [load_variant(s) for s in ("standard", "wall_of_ice", "sahara", "deluge")] + [
        generate("options-property", 4).variant
    ]


def maps(variant: Variant) -> list[MapState]:
    """The start map and every fourth map the timeline leaves (the maps differ little in between)."""
    return [variant.map_state, *[step.map_state for _, _, step in walk(variant, {})][3::4]]


def random_position(rng: random.Random, variant: Variant, board: Board) -> Position:
    """About two provinces in five hold a unit of a random power: fleets at sea, armies or fleets on land."""
    units = {}
    powers = sorted(variant.powers)
    for prov in sorted(variant.provinces):
        if rng.random() > 0.4:
            continue
        power, terrain = rng.choice(powers), board.terrain(prov)
        if terrain is Terrain.SEA:
            units[prov] = Unit(power, UnitType.FLEET, prov)
        elif terrain is Terrain.LAND and board.is_coastal(prov) and rng.random() < 0.4:
            coasts = board.coasts(prov)
            units[prov] = Unit(power, UnitType.FLEET, f"{prov}/{rng.choice(coasts)}" if coasts else prov)
        elif terrain is Terrain.LAND:
            units[prov] = Unit(power, UnitType.ARMY, prov)
    return Position(Phase.parse("S1903M"), units, {})


def cases() -> Iterator[tuple[str, int]]:
    for variant in variants():
        for i in range(len(maps(variant))):
            yield variant.slug, i


VARIANTS = {v.slug: v for v in variants()}


@pytest.mark.parametrize(("slug", "map_index"), list(cases()))
def test_every_offered_option_reads_back_and_is_never_illegal(slug: str, map_index: int) -> None:
    variant = VARIANTS[slug]
    board = board_for(variant, maps(variant)[map_index])
    rng = random.Random(f"{SEED}/{slug}/{map_index}")
    checked = 0
    for _ in range(POSITIONS_PER_MAP):
        position = random_position(rng, variant, board)
        for power in sorted(variant.powers):
            offered = legal_options(board, position, power)
            for option in offered.all():
                if isinstance(option.order, ConversionOrder):
                    continue  # read by the conversion reader, below
                assert parse_order(option.text, board, position, power) == option.order, option.text
                result = adjudicate(board, position, {power: [option.order]})
                judged = [r for r in result.results if r.order == option.order and r.power == power]
                assert all(r.outcome is not Outcome.INVALID for r in judged), (option.text, judged)
                checked += 1
            for option in offered.conversions:  # checked by the reader as the phase would read them
                assert parse_conversion(option.text, board, position, power) == option.order, option.text
                checked += 1
    assert checked > 0
