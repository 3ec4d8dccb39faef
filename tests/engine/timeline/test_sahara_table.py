"""Sahara: every row of the seed's four tables, checked on the map right after it fires (errata on)."""

from __future__ import annotations

import pytest

from dipserver.engine.timeline import Hook
from dipserver.engine.types import Terrain
from dipserver.engine.variant import Variant

from .conftest import Steps, steps_of
from .seed_tables import (
    SAHARA_IMPASSABLE,
    SAHARA_SC_GAINED,
    SAHARA_SC_LOST,
    SAHARA_SEA_TO_LAND,
    code,
    table_rows,
)

ERRATA = {("gained", "S06", "Tri"): "TYR"}  # E28: the printed "Tri" is Tyrolia


def when(step: str) -> tuple[int, Hook]:
    """``"A02"`` -> Autumn 1902's hook; ``"S03"`` -> Spring 1903's."""
    hook = Hook.AFTER_SPRING_RETREATS if step[0] == "S" else Hook.AFTER_FALL_RETREATS
    return 1900 + int(step[1:]), hook


def rows(name: str, table: str) -> list[tuple[str, str, list[str]]]:
    return [(name, step, tokens) for step, tokens in table_rows(table)]


ROWS = [
    *rows("to_land", SAHARA_SEA_TO_LAND),
    *rows("lost", SAHARA_SC_LOST),
    *rows("gained", SAHARA_SC_GAINED),
    *rows("impassable", SAHARA_IMPASSABLE),
]


@pytest.fixture(scope="module")
def steps(sahara: Variant) -> Steps:
    return steps_of(sahara)


@pytest.mark.parametrize(("table", "step", "tokens"), ROWS, ids=[f"{t}-{s}" for t, s, _ in ROWS])
def test_seed_row_holds_on_the_map_after_it_fires(
    steps: Steps, table: str, step: str, tokens: list[str]
) -> None:
    after = steps[when(step)].map_state
    if tokens == ["All the rest except Ice"]:
        assert after.supply_centres == {"ICE"}
        return
    for token in tokens:
        prov = ERRATA.get((table, step, token), code(token))
        if table == "to_land":
            assert after.terrain[prov] is Terrain.LAND, prov
        elif table == "lost":
            assert prov not in after.supply_centres, prov
        elif table == "gained":
            assert prov in after.supply_centres, prov
            assert after.terrain[prov] is Terrain.LAND, prov
        else:
            assert after.terrain[prov] is Terrain.IMPASSABLE, prov
            assert prov not in after.supply_centres, prov  # E10


def test_no_water_is_left_after_spring_1906(steps: Steps) -> None:
    after = steps[(1906, Hook.AFTER_SPRING_RETREATS)].map_state
    assert not [p for p, t in after.terrain.items() if t is Terrain.SEA]


def test_centre_totals_follow_the_tables(steps: Steps) -> None:
    totals = {step: len(steps[when(step)].map_state.supply_centres) for step in ("A05", "S09", "A10", "A11")}
    assert totals == {"A05": 32, "S09": 30, "A10": 13, "A11": 1}
