"""Ice Lords' board as a generated Diplomacy variant (seed 001; variant-rulings §8.3).

The board is a 9x9 grid of square tiles joined orthogonally (diagonals are not adjacent, as in Ice Lords).
The 32 border squares are Sea; the 49 inner squares are Ice Lords' tile set, shuffled with the game's
auditable randomness. Terrain becomes Diplomacy terrain as follows (see docs/rules/ice-lords.md):

========== ===== =============== ==============================================
tile       count Diplomacy       why
========== ===== =============== ==============================================
sea        32    sea             the border; ships only
water       9    sea             lakes and fjords: ships sail them, armies are convoyed
village     6    land, centre    the only recruiting ground for men and ships
tundra     14    land            cost 1
forest      4    land            cost 2
hills       4    land            cost 2
mountains   4    land            cost 3 (1 with Mountain Walk)
glacier     6    land            cost 2
peaks       2    land            cost 3 (1 with Mountain Walk)
========== ===== =============== ==============================================

Move costs onto Diplomacy: a Diplomacy move is one Ice Lords turn's move into a neighbouring square, made
by a unit that can pay for it. Every power's unit is its Hero's kind (3 move points, ``STRIDE``), and no
land tile costs more than 3 (Mountain Walk pays 1 for Mountains and Peaks), so every land tile is one
Diplomacy land province, whatever it costs; sea and water (cost "(1)", for ships and what they carry)
are seas. No tile is impassable.

Provinces are named like chess squares: columns A to I from the west, rows 1 to 9 from the north ("E5" is the
centre). Each of 2 to 6 powers starts with one army (its Hero) in a village, which is its home centre;
other villages are neutral centres. Builds go in any owned vacant village (Ice Lords recruits wherever a
player holds a village). Blizzards are on by default (``DEFAULT_OPTIONS``).

A layout is kept only if ``problems`` finds nothing: the map is one connected piece, every home army can
move, and every power can reach every other. Otherwise the next attempt is dealt from the same secret, so
a game's map is fixed by its secret alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx

from dipserver.engine.board import FrozenMap, MapState, board_for
from dipserver.engine.definition import Power, ProvinceInfo, Variant, normalise_name
from dipserver.engine.position import Position
from dipserver.engine.randomness import draw
from dipserver.engine.types import Phase, PhaseType, Season, Terrain, Unit, UnitType
from dipserver.engine.validate import movement_graph, validate

SIZE = 9
SLUG = "ice_lords"  # the generated variant's slug: there is no folder of that name in variants/
COLUMNS = "ABCDEFGHI"
TILES = {
    "tundra": 14,
    "glacier": 6,
    "water": 9,
    "village": 6,
    "forest": 4,
    "mountains": 4,
    "peaks": 2,
    "hills": 4,
}
# Each tile's cost in move points to enter (seed 001), and what Mountain Walk pays for it.
MOVE_COST = {
    "sea": 1,
    "water": 1,
    "village": 1,
    "tundra": 1,
    "forest": 2,
    "hills": 2,
    "mountains": 3,
    "glacier": 2,
    "peaks": 3,
}
MOUNTAIN_WALK = {"mountains": 1, "peaks": 1}
STRIDE = 3  # the move points of the Hero, every power's first unit: a land tile costing this is one move
TERRAIN = {
    kind: Terrain.SEA if kind in ("sea", "water") else Terrain.LAND if cost <= STRIDE else Terrain.IMPASSABLE
    for kind, cost in MOVE_COST.items()
}
# How the first boards read glacier and peaks (impassable): a deal is checked on it too, so that every
# game keeps the board its secret dealt before they were opened (``generate``).
FIRST_TERRAIN = {**TERRAIN, "glacier": Terrain.IMPASSABLE, "peaks": Terrain.IMPASSABLE}
# Told apart by everyone, colour-blind players too (tests/render/test_palette.py).
POWERS = (
    Power("NIFLHEIM", "Niflheimer", "#00528b"),
    Power("JOTUNHEIM", "Jotun", "#ae53e6"),
    Power("MIDGARD", "Midgarder", "#4fa300"),
    Power("ALFHEIM", "Alfheimer", "#fec600"),
    Power("VANAHEIM", "Vanir", "#b91c00"),
    Power("MUSPELHEIM", "Muspeller", "#2b1e17"),
)
START = Phase(1901, Season.SPRING, PhaseType.MOVEMENT)
# Ice Lords' Blizzard Phase, and its Snow Storm spell (seed 001: 4 of the spell deck's 36 cards, played in
# a Blizzard Phase to place or remove a blizzard) as one token a power: the deck itself is not played here.
# The blizzards' squares are rolled as the seed's "2D8 ... coordinates" (``blizzard.rolled``).
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "blizzards": {"count": "1d6", "coordinates": "2d8", "snow_storm_tokens": 1}
}
# "Destroy all enemy units" (seed 001): the last power in play wins at once (E17: a power with a village it
# may build on is still in); owning every village wins too (``victory_centres``).
VICTORY: tuple[Mapping[str, Any], ...] = ({"type": "sole_survivor"},)
DEFAULT_END_YEAR = 1915  # a game its master gives no last year ends after Winter 1915 with no winner
MAX_ATTEMPTS = 200
CELL = 80  # pixels per square in the drawing


class MapGenerationError(ValueError):
    """No valid layout, or a request the generator cannot meet (say, seven powers)."""


@dataclass(frozen=True, slots=True)
class IceLordsMap:
    variant: Variant
    tiles: Mapping[str, str]  # province -> tile kind ("sea", "tundra", ...)
    attempt: int  # which deal from the secret was the first valid one


def square(column: int, row: int) -> str:
    """Province code of a square, 0-based: ``square(4, 4) == "E5"``."""
    return f"{COLUMNS[column]}{row + 1}"


def _squares() -> list[tuple[int, int]]:
    return [(c, r) for r in range(SIZE) for c in range(SIZE)]


def _inner(column: int, row: int) -> bool:
    return 0 < column < SIZE - 1 and 0 < row < SIZE - 1


def deal(secret: str, attempt: int = 0) -> dict[str, str]:
    """The tiles of one deal: Sea around, the 49 tiles shuffled (Fisher-Yates, one draw per swap)."""
    bag = [kind for kind, count in TILES.items() for _ in range(count)]
    for i in range(len(bag) - 1, 0, -1):
        j = int(draw(secret, f"icelords/{attempt}/tile/{i}") * (i + 1))
        bag[i], bag[j] = bag[j], bag[i]
    dealt = iter(bag)
    return {square(c, r): next(dealt) if _inner(c, r) else "sea" for c, r in _squares()}


def _borders() -> dict[str, frozenset[str]]:
    borders = {}
    for c, r in _squares():
        near = [(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        borders[square(c, r)] = frozenset(square(x, y) for x, y in near if 0 <= x < SIZE and 0 <= y < SIZE)
    return borders


def build_variant(
    tiles: Mapping[str, str], homes: Mapping[str, str], terrain: Mapping[str, Terrain] = TERRAIN
) -> Variant:
    """The variant for a layout; ``homes`` maps a village to the power that starts there."""
    powers = {p.name: p for p in POWERS if p.name in homes.values()}
    villages = frozenset(p for p, kind in tiles.items() if kind == "village")
    map_state = MapState(
        terrain={p: terrain[kind] for p, kind in tiles.items()},
        coasts={},
        supply_centres=villages,
        homes=dict(homes),
    )
    provinces = {p: ProvinceInfo(p, f"{kind.title()} {p}") for p, kind in tiles.items()}
    names = {}
    for code, info in provinces.items():
        names[normalise_name(code)] = code
        names[normalise_name(info.name)] = code
    layout = (
        ";".join(f"{p}={tiles[p]}" for p in sorted(tiles))
        + "|"
        + ";".join(sorted(f"{v}={w}" for v, w in homes.items()))
    )
    units = {v: Unit(power, UnitType.ARMY, v) for v, power in homes.items()}
    return Variant(
        slug=SLUG,
        name="Ice Lords",
        description=f"A generated {SIZE}x{SIZE} Ice Lords board for {len(powers)} powers, blizzards on.",
        version=hashlib.sha256(f"ice_lords/2\n{layout}".encode()).hexdigest(),  # 2: glacier, peaks open
        base=None,
        powers=FrozenMap(powers),
        provinces=FrozenMap(provinces),
        borders=FrozenMap(_borders()),
        coast_waters=map_state.coasts,
        fleet_exceptions=frozenset(),
        map_state=map_state,
        start=Position(START, units, dict(homes)),
        victory_centres=len(villages),  # holding every village leaves no enemy anything to build with
        build_rule="beside",  # recruiting needs a unit in or beside the village (seed 001)
        names=FrozenMap(names),
        victory=VICTORY,
        default_end_year=DEFAULT_END_YEAR,
    )


def problems(variant: Variant) -> list[str]:
    """Why a generated board cannot be played, in words; empty when it can."""
    board = board_for(variant, variant.map_state)
    found = validate(variant, position=variant.start)
    graph = movement_graph(board)
    homes = sorted(variant.start.units)
    for home in homes:
        if not board.army_moves(home):
            found.append(f"the army of {variant.start.units[home].power} in {home} cannot move anywhere")
    for i, here in enumerate(homes):
        for there in homes[i + 1 :]:
            if not nx.has_path(graph, here, there):
                a, b = variant.start.units[here].power, variant.start.units[there].power
                found.append(f"{a} in {here} cannot reach {b} in {there}")
    return found


def deal_problems(tiles: Mapping[str, str], homes: Mapping[str, str]) -> list[str]:
    """Why a deal is not kept: ``problems`` of it read as the first boards were (glacier and peaks
    closed). The boards are played open, but a deal is kept by the first reading, so that every secret
    still deals the board it always dealt (a game under way keeps its board)."""
    return problems(build_variant(tiles, homes, FIRST_TERRAIN))


def generate(secret: str, powers: int = 6) -> IceLordsMap:
    """The game's board: the first valid deal from its secret, with ``powers`` powers (2 to 6)."""
    if isinstance(powers, bool) or not isinstance(powers, int) or not 2 <= powers <= len(POWERS):
        raise MapGenerationError(f"Ice Lords is played by 2 to {len(POWERS)} powers, not {powers!r}")
    last: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        variant, tiles = layout(secret, attempt, powers)
        last = deal_problems(tiles, variant.start.owners) or problems(variant)
        if not last:
            return IceLordsMap(variant, FrozenMap(tiles), attempt)
    raise MapGenerationError(
        f"no playable Ice Lords board in {MAX_ATTEMPTS} deals; the last: {'; '.join(last)}"
    )


def layout(secret: str, attempt: int, powers: int) -> tuple[Variant, dict[str, str]]:
    """Deal number ``attempt`` from the secret, the powers placed on villages by further draws; unchecked."""
    tiles = deal(secret, attempt)
    villages = sorted(p for p, kind in tiles.items() if kind == "village")
    for i in range(len(villages) - 1, 0, -1):
        j = int(draw(secret, f"icelords/{attempt}/home/{i}") * (i + 1))
        villages[i], villages[j] = villages[j], villages[i]
    homes = {v: POWERS[n].name for n, v in enumerate(villages[:powers])}
    return build_variant(tiles, homes), tiles


def geometry(board_map: IceLordsMap) -> dict[str, Any]:
    """The drawing of a generated board, in the shape of ``variants/standard/geometry.json``: one square
    per province, its unit in the middle, its name below, the centre marker in a corner."""
    provinces: dict[str, dict[str, Any]] = {}
    for c, r in _squares():
        code = square(c, r)
        x0, y0 = c * CELL, r * CELL
        ring = [[x0, y0], [x0 + CELL, y0], [x0 + CELL, y0 + CELL], [x0, y0 + CELL], [x0, y0]]
        kind = board_map.tiles[code]
        provinces[code] = {
            "medium": "sea" if TERRAIN[kind] is Terrain.SEA else "land",
            "tile": kind,
            "polygons": [[[[float(x), float(y)] for x, y in ring]]],
            "label": [x0 + CELL / 2, y0 + CELL - 12.0],
            "unit": [x0 + CELL / 2, y0 + CELL / 2 - 6.0],
            "sc": [x0 + CELL - 14.0, y0 + 14.0],
            "coasts": {},
        }
    return {
        "about": "Generated by dipserver.engine.icelords.geometry for one game's board; a 9x9 grid.",
        "width": SIZE * CELL,
        "height": SIZE * CELL,
        "provinces": provinces,
        "scenery": [],
    }
