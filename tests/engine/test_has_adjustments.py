"""Whether a Winter is played: ``has_adjustments`` against its definition.

A winter has something to decide when some power owns fewer centres than it has units (it must remove
one), or owns more and has a vacant centre where the build rule lets it build (``build_sites``). The
function searches all powers in one pass for speed; here it is held to that definition on random
positions, under both build rules, on the standard map and on one whose centres have frozen shut.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from dipserver.engine.board import Board, board_for
from dipserver.engine.buildsites import adjustment_counts, build_sites, has_adjustments
from dipserver.engine.types import HOME, OWNED, Terrain, Unit, UnitType
from dipserver.engine.variant import load_variant

STANDARD = load_variant("standard")
OPEN = board_for(STANDARD, STANDARD.map_state)
# Two home centres and a neutral one closed: a power may own a centre it cannot build in.
_STATE = STANDARD.map_state
CLOSED = board_for(
    STANDARD,
    dataclasses.replace(
        _STATE,
        terrain={
            **_STATE.terrain,
            "MUN": Terrain.IMPASSABLE,
            "LON": Terrain.IMPASSABLE,
            "BEL": Terrain.IMPASSABLE,
        },
    ),
)
POWERS = sorted(STANDARD.powers)
CENTRES = sorted(OPEN.supply_centres)
LANDS = sorted(p for p in OPEN.provinces if OPEN.is_land(p))


def _by_definition(board: Board, units: dict[str, Unit], owners: dict[str, str], rule: str) -> bool:
    return any(
        delta < 0 or (delta > 0 and bool(build_sites(board, units, owners, power, rule)))
        for power, delta in adjustment_counts(units, owners).items()
    )


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, Unit], dict[str, str]]:
    places = draw(st.lists(st.sampled_from(LANDS), unique=True, max_size=34))
    units = {p: Unit(draw(st.sampled_from(POWERS)), UnitType.ARMY, p) for p in places}
    owned = draw(st.lists(st.sampled_from(CENTRES), unique=True, max_size=34))
    owners = {p: draw(st.sampled_from(POWERS)) for p in owned}
    return units, owners


@settings(max_examples=400, deadline=None)
@given(positions(), st.sampled_from([OPEN, CLOSED]), st.sampled_from([HOME, OWNED]))
def test_a_winter_is_played_exactly_when_some_power_must_remove_or_can_build(
    position: tuple[dict[str, Unit], dict[str, str]], board: Board, rule: str
) -> None:
    units, owners = position
    assert has_adjustments(board, units, owners, rule) is _by_definition(board, units, owners, rule)


def test_a_power_with_a_spare_centre_but_only_foreign_or_closed_sites_has_no_winter() -> None:
    # Germany owns Munich (closed), Holland and its army's Berlin: one centre to spare, and no home centre
    # it may build in under the standard rule; under the "owned" rule vacant Holland will do.
    units = {"BER": Unit("GERMANY", UnitType.ARMY, "BER"), "KIE": Unit("GERMANY", UnitType.ARMY, "KIE")}
    owners = {"BER": "GERMANY", "KIE": "GERMANY", "MUN": "GERMANY", "HOL": "GERMANY"}
    assert not has_adjustments(CLOSED, units, owners, HOME)
    assert has_adjustments(CLOSED, units, owners, OWNED)
    assert has_adjustments(OPEN, units, owners, HOME)  # Munich open: a home build


def test_a_power_with_more_units_than_centres_always_has_a_winter() -> None:
    units = {"PAR": Unit("FRANCE", UnitType.ARMY, "PAR"), "BUR": Unit("FRANCE", UnitType.ARMY, "BUR")}
    assert has_adjustments(OPEN, units, {"PAR": "FRANCE"}, HOME)
    assert not has_adjustments(OPEN, units, {"PAR": "FRANCE", "BEL": "FRANCE"}, HOME)
