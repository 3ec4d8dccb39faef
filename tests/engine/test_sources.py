"""Where a game's variant comes from (engine/sources.py): a folder of variants/, or a generator."""

from __future__ import annotations

import pytest

from dipserver.engine.sources import variant_slugs, variant_source
from dipserver.engine.variant import VARIANTS_DIR, VariantError, load_variant


def test_a_folder_is_the_same_variant_for_every_seed() -> None:
    source = variant_source("standard")
    assert not source.generated and source.powers is None and source.default_options == {}
    assert source.variant_for("one") is source.variant_for("two") is load_variant("standard")


def test_a_folder_is_drawn_by_its_own_geometry_file() -> None:
    assert variant_source("standard").geometry_for("seed") is None


def test_a_generated_board_is_dealt_from_its_seed_for_its_powers() -> None:
    source = variant_source("ice_lords")
    assert source.generated and source.powers == (2, 6)
    assert source.variant_for("a", 3).version == source.variant_for("a", 3).version
    assert source.variant_for("a", 3).version != source.variant_for("b", 3).version
    assert len(source.variant_for("a", 3).powers) == 3


def test_a_generated_board_is_drawn_from_its_deal() -> None:
    drawing = variant_source("ice_lords").geometry_for("a", 2)
    assert drawing is not None and drawing["provinces"]


def test_a_generator_refuses_what_it_cannot_deal() -> None:
    with pytest.raises(VariantError, match="Ice Lords"):
        variant_source("ice_lords").variant_for("a", 7)


def test_a_missing_folder_is_refused_when_it_is_loaded() -> None:
    with pytest.raises(VariantError, match="no such variant folder"):
        variant_source("nowhere").variant_for("seed")


def test_the_slugs_are_the_folders_and_the_generators() -> None:
    folders = {p.parent.name for p in VARIANTS_DIR.glob("*/variant.toml")}
    assert set(variant_slugs()) == folders | {"ice_lords"}
