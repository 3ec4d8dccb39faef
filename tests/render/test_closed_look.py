"""A place that became impassable is drawn as its variant's variant.toml says (``[drawing] closed``),
never by the variant's name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dipserver.engine.timeline import Hook
from dipserver.engine.variant import load_variant
from dipserver.render.style import terrain_style

from .snapshots import map_after


@pytest.fixture(scope="module")
def frozen():
    """Wall of Ice after 1903: the Barents Sea is ice."""
    variant = load_variant("wall_of_ice")
    return variant, map_after(variant, 1903, Hook.AFTER_FALL_RETREATS)[0]


def test_the_declared_look_draws_the_closed_sea(frozen) -> None:
    variant, map_state = frozen
    assert terrain_style(variant, map_state, "BAR", "sea") == "ice"


def test_another_declared_look_draws_it_differently(frozen) -> None:
    variant, map_state = frozen
    assert terrain_style(replace(variant, closed_look="desert"), map_state, "BAR", "sea") == "desert"


@pytest.mark.parametrize(("medium", "look"), [("sea", "ice"), ("land", "desert")])
def test_by_medium_a_closed_place_is_drawn_by_what_it_was(frozen, medium: str, look: str) -> None:
    variant, map_state = frozen
    assert terrain_style(replace(variant, closed_look="medium"), map_state, "BAR", medium) == look
