"""A variant says in its variant.toml how its closed provinces look: ``[drawing] closed``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.engine.variant import VariantError, load_variant
from dipserver.engine.variantfiles import CLOSED_LOOKS


def test_without_a_drawing_table_a_closed_place_is_drawn_by_what_it_was(standard) -> None:
    assert standard.closed_look == "medium"


@pytest.mark.parametrize(
    ("slug", "look"), [("wall_of_ice", "ice"), ("sahara", "desert"), ("deluge", "medium")]
)
def test_each_variant_declares_its_look(slug: str, look: str) -> None:
    assert load_variant(slug).closed_look == look


def test_a_variant_inherits_its_bases_look(variant_copy: Callable[..., Path]) -> None:
    root = variant_copy("wall_of_ice").parent
    variant_copy("standard")
    (root / "thaw").mkdir()
    (root / "thaw" / "variant.toml").write_text('base = "wall_of_ice"\nname = "Thaw"\n')
    assert load_variant("thaw", root).closed_look == "ice"


def test_an_unknown_look_is_refused(variant_copy: Callable[..., Path]) -> None:
    folder = variant_copy(edit={"variant.toml": lambda t: t + '\n[drawing]\nclosed = "lava"\n'})
    with pytest.raises(VariantError, match=r"\[drawing\]: 'closed' must be one of"):
        load_variant("standard", folder.parent)


def test_every_look_is_one_the_pictures_draw() -> None:
    from dipserver.render.style import TERRAIN_STYLES

    assert CLOSED_LOOKS - {"medium"} <= set(TERRAIN_STYLES)
