"""Issue 33, "colours players know": every variant's powers (set in its variant.toml), and the powers of
Ice Lords' generated boards, are told apart from each other and from land and sea, by everyone and under
the colour-blindness simulations (tests/render/palette.py says what is measured)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipserver.engine import load_variant
from dipserver.engine.icelords import POWERS as ICE_LORDS_POWERS
from tests.render.palette import problems

VARIANTS = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "variants").iterdir() if p.is_dir())


@pytest.mark.parametrize("slug", VARIANTS)
def test_every_variants_powers_are_told_apart_by_everyone(slug):
    colours = {name: power.colour for name, power in load_variant(slug).powers.items()}
    assert not problems(colours), "\n".join(problems(colours))


def test_ice_lords_powers_are_told_apart_by_everyone():
    colours = {power.name: power.colour for power in ICE_LORDS_POWERS}
    assert not problems(colours), "\n".join(problems(colours))


def test_the_check_finds_the_old_standard_greys_and_blues():
    """The palette issue 33 was about: Russia's and Germany's owned land both grey, England and France
    both blue, France's light blue lost on the sea under tritanopia."""
    old = {
        "ENGLAND": "#1f4fa3",
        "FRANCE": "#5fa8e8",
        "GERMANY": "#4a4a4a",
        "RUSSIA": "#e6e6e6",
    }
    found = "\n".join(problems(old))
    assert "owned land: GERMANY #" in found and "RUSSIA" in found
    assert "units on land: RUSSIA" in found
