"""The generated Ice Lords board: Ice Lords' tile mix on a 9x9 grid, validated, playable and drawable."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import board_for
from dipserver.engine.icelords import (
    DEFAULT_OPTIONS,
    TERRAIN,
    TILES,
    MapGenerationError,
    build_variant,
    deal,
    deal_problems,
    generate,
    geometry,
    layout,
    problems,
    square,
)
from dipserver.engine.modules import Modules, split_options
from dipserver.engine.modules.blizzard import BlizzardOptions
from dipserver.engine.modules.blizzard import draw as blizzard_draw
from dipserver.engine.modules.dice import Dice
from dipserver.engine.modules.phase import ModuleState, open_phase, play
from dipserver.engine.orders import Move, Outcome
from dipserver.engine.parse import parse_order
from dipserver.engine.position import Position
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, PhaseType, Season, Terrain, Unit, UnitType
from dipserver.render.geometry import path_data

SECRETS = [f"game-{n}" for n in range(40)]


def test_the_border_is_sea_and_the_49_inner_squares_are_ice_lords_tile_set() -> None:
    tiles = deal("secret")
    assert len(tiles) == 81
    border = [square(c, r) for c in range(9) for r in range(9) if c in (0, 8) or r in (0, 8)]
    assert {tiles[p] for p in border} == {"sea"} and len(border) == 32
    inner = Counter(kind for p, kind in tiles.items() if p not in border)
    assert inner == Counter(TILES) and sum(inner.values()) == 49


def test_the_deal_is_fixed_by_the_secret() -> None:
    assert deal("secret") == deal("secret")
    assert deal("secret") != deal("another secret")
    assert generate("secret").variant.version == generate("secret").variant.version


def test_squares_touch_orthogonally_never_diagonally() -> None:
    variant = generate("secret").variant
    assert variant.borders["E5"] == {"D5", "F5", "E4", "E6"}
    assert variant.borders["A1"] == {"B1", "A2"}


@pytest.mark.parametrize(
    ("tile", "terrain"),
    [
        ("sea", Terrain.SEA),
        ("water", Terrain.SEA),
        ("village", Terrain.LAND),
        ("tundra", Terrain.LAND),
        ("forest", Terrain.LAND),
        ("hills", Terrain.LAND),
        ("mountains", Terrain.LAND),
        ("glacier", Terrain.LAND),
        ("peaks", Terrain.LAND),
    ],
)
def test_each_tile_has_a_diplomacy_terrain(tile: str, terrain: Terrain) -> None:
    assert TERRAIN[tile] is terrain


@pytest.mark.parametrize("powers", [2, 3, 4, 5, 6])
def test_powers_start_with_one_army_in_a_village_which_is_their_home(powers: int) -> None:
    board_map = generate("secret", powers)
    variant = board_map.variant
    assert len(variant.powers) == powers == len(variant.start.units)
    villages = {p for p, kind in board_map.tiles.items() if kind == "village"}
    assert variant.map_state.supply_centres == villages
    for home, unit in variant.start.units.items():
        assert home in villages and variant.map_state.homes[home] == unit.power
        assert variant.start.owners[home] == unit.power


NO_UNIT_BESIDE = "no unit of its own stands beside it"


def test_recruiting_builds_in_an_owned_village_with_a_unit_of_its_own_beside_it() -> None:
    """RECRUIT (seed 001): units are raised in a village the power holds, in or beside which it has a unit
    (the village itself must be vacant to build in); an occupied, unwatched or foreign one refuses."""
    board_map = generate("secret", 2)
    variant = board_map.variant
    board = board_for(variant, variant.map_state)
    (home, hero), *_ = variant.start.units.items()
    villages = sorted(p for p, kind in board_map.tiles.items() if kind == "village")
    others = [v for v in villages if v not in variant.map_state.homes]
    watched = next(v for v in others if any(board.is_land(p) for p in board.neighbours(v)))
    guard = next(p for p in sorted(board.neighbours(watched)) if board.is_land(p) and p not in villages)
    unwatched = next(v for v in others if v != watched and guard not in board.neighbours(v))
    foreign = next(v for v in others if v not in (watched, unwatched))
    owners = {**variant.start.owners, watched: hero.power, unwatched: hero.power}
    units = {home: hero, guard: Unit(hero.power, UnitType.ARMY, guard)}
    start = Position(Phase.parse("W1901A"), units, owners)
    orders = [f"A {watched} B", f"A {unwatched} B", f"A {home} B", f"A {foreign} B"]
    turn = play_phase(variant, variant.map_state, start, {hero.power: orders})
    outcomes = {r["text"]: (r["outcome"], r["reason"]) for r in turn.results}
    assert outcomes == {
        orders[0]: ("success", ""),
        orders[1]: (
            "invalid",
            f"{hero.power} may not build in Village {unwatched}: no unit of its own stands beside it",
        ),
        orders[2]: ("invalid", f"Village {home} is occupied; units are built only in vacant centres"),
        orders[3]: ("invalid", f"Village {foreign} is not owned by {hero.power}"),
    }
    assert sorted(turn.position.units) == sorted([home, guard, watched])


@pytest.mark.parametrize("secret", SECRETS)
def test_every_generated_board_passes_validation(secret: str) -> None:
    assert problems(generate(secret, 6).variant) == []


@pytest.mark.parametrize("powers", [1, 7, "six"])
def test_a_board_for_too_few_or_too_many_powers_is_refused(powers: object) -> None:
    with pytest.raises(MapGenerationError, match="Ice Lords is played by 2 to 6 powers"):
        generate("secret", powers)  # type: ignore[arg-type]


def test_a_layout_with_a_walled_in_home_or_an_island_is_rejected_with_the_reasons() -> None:
    """A deal is kept as the first boards read it, glacier closed (so every secret deals the board it
    always dealt): a village at C3 ringed by glaciers, whose army could not move and nobody reached, and
    the tundra at G7 walled in by glaciers are reasons to deal again."""
    tiles = {
        square(c, r): ("sea" if c in (0, 8) or r in (0, 8) else "tundra") for c in range(9) for r in range(9)
    }
    for p in ("C2", "B3", "D3", "C4", "G6", "F7", "H7", "G8"):
        tiles[p] = "glacier"
    tiles["C3"] = tiles["E5"] = "village"
    found = deal_problems(tiles, {"C3": "NIFLHEIM", "E5": "JOTUNHEIM"})  # read as the first boards were
    assert "the army of NIFLHEIM in C3 cannot move anywhere" in found
    assert "NIFLHEIM in C3 cannot reach JOTUNHEIM in E5" in found
    assert any(p.startswith("G7 (Tundra G7) cannot be reached") for p in found)


def test_a_bad_deal_is_skipped_for_the_next_one_from_the_same_secret() -> None:
    redealt = [(s, generate(s)) for s in SECRETS if generate(s).attempt > 0]
    assert redealt  # about one deal in four is unplayable
    for secret, board_map in redealt:
        for attempt in range(board_map.attempt):
            variant, tiles = layout(secret, attempt, 6)
            assert deal_problems(tiles, variant.start.owners)
        assert layout(secret, board_map.attempt, 6)[1] == board_map.tiles


def test_the_drawing_is_a_grid_in_the_geometry_file_shape() -> None:
    board_map = generate("secret")
    drawing = json.loads(json.dumps(geometry(board_map)))
    assert (drawing["width"], drawing["height"]) == (720, 720)
    assert set(drawing["provinces"]) == set(board_map.variant.provinces)
    e5 = drawing["provinces"]["E5"]
    assert path_data(e5["polygons"]) == "M320 320l80 0 0 80-80 0z"  # the square 320-400, in relative steps
    assert e5["unit"][0] == 360 and set(e5) >= {"medium", "polygons", "label", "unit", "sc", "coasts"}
    assert {d["medium"] for p, d in drawing["provinces"].items() if board_map.tiles[p] == "water"} == {"sea"}


def test_a_generated_board_plays_with_blizzards_on_by_default() -> None:
    board_map = generate("secret", 2)
    variant = board_map.variant
    board = board_for(variant, variant.map_state)
    modules = Modules.from_options(DEFAULT_OPTIONS)
    assert modules.blizzards is not None
    opened = open_phase(board, variant.start, modules, ModuleState(), "secret")
    assert opened.state.blizzards
    home, unit = next(iter(variant.start.units.items()))
    free = sorted(board.army_moves(home) - opened.state.blizzards)
    snowed = home in opened.state.blizzards
    text = f"A {home} - {free[0]}" if free else f"A {home} H"
    order = parse_order(text, board, variant.start, unit.power)
    played = play(board, variant.start, {unit.power: [order]}, modules, opened.state)
    expected = Outcome.INVALID if snowed and free else Outcome.SUCCESS
    assert played.result.results[0].outcome is expected


def test_game_options_split_into_modules_and_the_variants_own() -> None:
    modules, rest = split_options({"mode": "exact", "blizzards": {"count": "2"}, "supply_lines": False})
    assert rest == {"mode": "exact"}
    assert modules.blizzards is not None and str(modules.blizzards.count) == "2" and modules.supply is None
    assert split_options(None) == (Modules(), {})
    assert split_options(DEFAULT_OPTIONS)[0].blizzards is not None


# --- the seed's terrain and Blizzard Phase (issue 31) ----------------------------------------------


def test_terrain_tile_list_glacier_and_peaks_are_entered_in_one_move() -> None:
    # Glacier costs 2 move points, Peaks 3 (Mountain Walk pays 1): every power's Hero has 3, so an army
    # enters either in one move, as it enters Forest, Hills and Mountains.
    tiles = {
        square(c, r): ("sea" if c in (0, 8) or r in (0, 8) else "tundra") for c in range(9) for r in range(9)
    }
    tiles.update({"C3": "village", "E5": "village", "C4": "glacier", "D3": "peaks"})
    variant = build_variant(tiles, {"C3": "NIFLHEIM", "E5": "JOTUNHEIM"})
    board = board_for(variant, variant.map_state)
    assert {"C4", "D3"} <= board.army_moves("C3")
    for dest in ("C4", "D3"):
        result = adjudicate(board, variant.start, {"NIFLHEIM": [Move("C3", dest)]})
        assert result.position.units[dest] == Unit("NIFLHEIM", UnitType.ARMY, dest)


def test_terrain_tile_list_no_square_of_a_dealt_board_is_impassable() -> None:
    for secret in SECRETS:
        board_map = generate(secret)
        terrain = board_map.variant.map_state.terrain
        assert all(terrain[p] is not Terrain.IMPASSABLE for p in board_map.variant.provinces)
        assert {"glacier", "peaks"} <= set(board_map.tiles.values())


def test_blizzard_phase_2d8_coordinates_name_each_blizzards_square() -> None:
    # "Roll 2D8 to determine coordinates of each blizzard": a d8 for the column (A to H), a d8 for the
    # row (1 to 8), each an auditable draw of the game's secret; sea squares too.
    board_map = generate("secret")
    board = board_for(board_map.variant, board_map.variant.map_state)
    options = BlizzardOptions.from_data(DEFAULT_OPTIONS["blizzards"])
    assert options.coordinates is not None and str(options.coordinates) == "2d8"
    die, hit = Dice(1, 8), set()
    for year in range(1901, 1941):
        phase = Phase(year, Season.SPRING, PhaseType.MOVEMENT)
        count = options.count.roll("game", f"blizzard/{phase}/count")
        expected = {
            f"{'ABCDEFGH'[die.roll('game', f'blizzard/{phase}/{n}/column') - 1]}"
            f"{die.roll('game', f'blizzard/{phase}/{n}/row')}"
            for n in range(1, count + 1)
        }
        drawn = blizzard_draw(board, phase, "game", options)
        assert drawn == expected
        hit |= drawn
    assert {board.terrain(p) for p in hit} == {Terrain.LAND, Terrain.SEA}
    assert not {p for p in hit if p[0] == "I" or p[1:] == "9"}  # beyond a d8
