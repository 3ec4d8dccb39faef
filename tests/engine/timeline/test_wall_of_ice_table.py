"""Wall of Ice: every line of the seed's table, and the exact-mode schedule it implies.

A line "Bar: Becomes impassable 75%" in 1903 fires when the entry's random draw lands in the band that
line covers of the cumulative chances (25 % line: [0, .25); 75 % line: [.25, .75); 100 % line: the rest).
For each line we pick a game secret whose draw for that entry lands in its band, play the timeline, and
check the map before and after that Autumn's change.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from dipserver.engine import randomness
from dipserver.engine.board import board_for
from dipserver.engine.timeline import Hook
from dipserver.engine.types import Terrain, UnitType
from dipserver.engine.variant import Variant, load_variant

from .conftest import Steps, before, steps_of
from .seed_tables import WALL_OF_ICE, code

AUTUMN = Hook.AFTER_FALL_RETREATS
CHANGES = {"becomes impassable": "impassable", "gains sc status": "sc_gain", "loses sc status": "sc_loss"}


def seed_lines() -> list[tuple[int, str, str, int]]:
    """(year, province, change, per cent) for every line of the printed table."""
    lines, year = [], 0
    for raw in WALL_OF_ICE.strip().splitlines():
        if m := re.fullmatch(r"(\d{4}):", raw.strip()):
            year = int(m.group(1))
            continue
        m = re.fullmatch(r"(\w+):\s+(.+?)\s+(\d+)\s*%", raw.strip())
        assert m, raw
        lines.append((year, code(m.group(1)), CHANGES[m.group(2).lower()], int(m.group(3))))
    return lines


LINES = seed_lines()


def band(year: int, province: str, change: str) -> tuple[float, float]:
    """The draws for which this line is the one that fires: between the previous line's % and its own."""
    earlier = [p for y, prov, c, p in LINES if prov == province and c == change and y < year]
    own = next(p for y, prov, c, p in LINES if (y, prov, c) == (year, province, change))
    return (max(earlier, default=0) / 100, own / 100)


@cache
def secret_firing(province: str, change: str, low: float, high: float) -> str:
    entry = f"wall_of_ice/{change}/{province}"
    for n in range(10_000):
        secret = f"test-secret-{n}"
        if low <= randomness.draw(secret, entry) < high:
            return secret
    raise AssertionError(f"no test secret draws {entry} into [{low}, {high})")


_STEPS: dict[str, Steps] = {}


def play(variant: Variant, secret: str) -> Steps:
    if secret not in _STEPS:
        _STEPS[secret] = steps_of(variant, {"mode": "random"}, secret)
    return _STEPS[secret]


def test_the_table_has_every_line_of_the_seed() -> None:
    assert len(LINES) == 185
    assert sum(1 for line in LINES if line[3] == 75) == 61  # every entry but NAf has a 75 % line


@pytest.mark.parametrize(
    ("year", "province", "change", "percent"), LINES, ids=[f"{y}-{p}-{c}-{pc}" for y, p, c, pc in LINES]
)
def test_seed_line_fires_in_its_year(
    wall_of_ice: Variant, year: int, province: str, change: str, percent: int
) -> None:
    secret = secret_firing(province, change, *band(year, province, change))
    steps = play(wall_of_ice, secret)
    after, prior = steps[(year, AUTUMN)].map_state, before(steps, year, AUTUMN)
    if change == "impassable":
        assert (prior.terrain[province], after.terrain[province]) == (Terrain.SEA, Terrain.IMPASSABLE)
    elif change == "sc_gain":
        assert province not in prior.supply_centres
        assert province in after.supply_centres
    else:
        assert province in prior.supply_centres
        assert province not in after.supply_centres


# Exact mode (rule 7): every change in its 75 % year; the shared rulings document's section 3.4 lists
# the centre count at each Winter and the seas still open at the end.
EXACT_CENTRES = {
    1902: 34,
    1903: 31,
    1904: 32,
    1905: 31,
    1906: 29,
    1907: 21,
    1908: 13,
    1909: 7,
    1910: 2,
    1911: 2,
}


def test_exact_mode_centre_counts_by_year(wall_of_ice: Variant) -> None:
    steps = steps_of(wall_of_ice, {"mode": "exact"})
    counts = {
        year: len(steps[(year, AUTUMN)].map_state.supply_centres)
        for year in EXACT_CENTRES
        if (year, AUTUMN) in steps
    }
    assert counts == {y: n for y, n in EXACT_CENTRES.items() if y <= 1910}


def test_exact_mode_ends_with_tunis_and_north_africa_and_three_open_seas(wall_of_ice: Variant) -> None:
    final = steps_of(wall_of_ice, {"mode": "exact"})[(1910, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    assert final.supply_centres == {"TUN", "NAF"}
    assert {p for p, t in final.terrain.items() if t is Terrain.SEA} == {"ION", "TYS", "WES"}


def test_north_africa_without_a_75_percent_line_falls_back_to_1906_in_exact_mode(
    wall_of_ice: Variant,
) -> None:
    steps = steps_of(wall_of_ice, {"mode": "exact"})
    assert "NAF" not in steps[(1905, AUTUMN)].map_state.supply_centres
    assert "NAF" in steps[(1906, AUTUMN)].map_state.supply_centres


@pytest.mark.parametrize("n", range(5))
def test_every_random_game_ends_with_the_same_final_map(wall_of_ice: Variant, n: int) -> None:
    steps = steps_of(wall_of_ice, {"mode": "random"}, f"any-game-{n}")
    final = steps[max(steps, key=lambda k: (k[0], list(Hook).index(k[1])))].map_state
    assert final.supply_centres == {"TUN", "NAF"}
    assert {p for p, t in final.terrain.items() if t is Terrain.SEA} == {"ION", "TYS", "WES"}


def test_rule1_the_game_opens_on_the_standard_board(wall_of_ice: Variant) -> None:
    """Seed rule 1: the opening units, centres, home centres and every move are standard's; the timeline
    alone changes the map afterwards."""
    standard = load_variant("standard")
    assert wall_of_ice.start == standard.start
    assert wall_of_ice.map_state == standard.map_state
    assert (wall_of_ice.borders, wall_of_ice.coast_waters) == (standard.borders, standard.coast_waters)
    assert wall_of_ice.fleet_exceptions == standard.fleet_exceptions
    ours, theirs = board_for(wall_of_ice, wall_of_ice.map_state), board_for(standard, standard.map_state)
    locations = [
        *standard.provinces,
        *(f"{p}/{c}" for p, coasts in standard.coast_waters.items() for c in coasts),
    ]
    for kind in UnitType:
        moves = {(a, b) for a in locations for b in locations if theirs.can_move(kind, a, b)}
        assert moves and moves == {(a, b) for a in locations for b in locations if ours.can_move(kind, a, b)}
