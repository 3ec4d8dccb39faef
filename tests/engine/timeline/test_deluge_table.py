"""Deluge: every row of Table 1 (submergences) and Table 2 (new centres) on the map after it fires."""

from __future__ import annotations

import pytest

from dipserver.engine.timeline import Hook
from dipserver.engine.types import Terrain
from dipserver.engine.variant import Variant

from .conftest import Steps, before, steps_of
from .seed_tables import DELUGE_NEW_CENTRES, DELUGE_SUBMERGED, code, table_rows

SUNK = table_rows(DELUGE_SUBMERGED)
NEW = table_rows(DELUGE_NEW_CENTRES)


@pytest.fixture(scope="module")
def steps(deluge: Variant) -> Steps:
    return steps_of(deluge)


@pytest.mark.parametrize(("step", "tokens"), SUNK, ids=[s for s, _ in SUNK])
def test_table_1_row_sinks_after_the_winter_adjustments(steps: Steps, step: str, tokens: list[str]) -> None:
    year = int(step[1:])
    prior = before(steps, year, Hook.AFTER_WINTER_ADJUSTMENTS)
    after = steps[(year, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    for prov in map(code, tokens):
        assert prior.terrain[prov] is Terrain.LAND, prov
        assert after.terrain[prov] is Terrain.SEA, prov
        assert prov not in after.supply_centres and prov not in after.homes, prov


@pytest.mark.parametrize(("step", "tokens"), NEW, ids=[s for s, _ in NEW])
def test_table_2_row_is_a_centre_at_that_winters_adjustments(
    steps: Steps, step: str, tokens: list[str]
) -> None:
    year = int(step[1:])
    prior = before(steps, year, Hook.BEFORE_WINTER_ADJUSTMENTS)
    counted = steps[(year, Hook.BEFORE_WINTER_ADJUSTMENTS)].map_state
    for prov in map(code, tokens):
        assert prov not in prior.supply_centres, prov
        assert prov in counted.supply_centres, prov


def test_every_land_province_sinks_once_and_only_switzerland_remains(steps: Steps) -> None:
    sunk = [code(t) for _, tokens in SUNK for t in tokens]
    assert len(sunk) == len(set(sunk)) == 56
    final = steps[(1907, Hook.AFTER_WINTER_ADJUSTMENTS)].map_state
    assert [p for p, t in final.terrain.items() if t is Terrain.LAND] == ["SWI"]
    assert final.supply_centres == {"SWI"}


def test_centre_totals_at_each_winter(steps: Steps) -> None:
    totals = {
        year: len(steps[(year, Hook.BEFORE_WINTER_ADJUSTMENTS)].map_state.supply_centres)
        for year in range(1902, 1908)
    }
    assert totals == {1902: 33, 1903: 30, 1904: 25, 1905: 17, 1906: 13, 1907: 7}


def test_new_centres_in_a_home_territory_become_home_centres(steps: Steps) -> None:
    homes = steps[(1905, Hook.BEFORE_WINTER_ADJUSTMENTS)].map_state.homes
    assert {p: homes[p] for p in ("BOH", "SIL", "TYR", "PIE", "WAL")} == {
        "BOH": "AUSTRIA",
        "SIL": "GERMANY",
        "TYR": "AUSTRIA",
        "PIE": "ITALY",
        "WAL": "ENGLAND",
    }
    assert "SWI" not in steps[(1906, Hook.BEFORE_WINTER_ADJUSTMENTS)].map_state.homes
