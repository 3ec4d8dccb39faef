"""PNG export: the same picture, rasterised (its speed is measured by scripts/bench_render.py)."""

from __future__ import annotations

import struct

from dipserver.engine.variant import load_variant
from dipserver.render import load_geometry, render_png
from dipserver.render.legend import LEGEND_HEIGHT


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_png_has_the_pictures_size() -> None:
    variant = load_variant("standard")
    data = render_png(variant, variant.map_state, variant.start)
    assert png_size(data) == (1440, load_geometry(variant).height + LEGEND_HEIGHT)


def test_png_can_be_scaled_for_email() -> None:
    variant = load_variant("standard")
    width, height = png_size(render_png(variant, variant.map_state, variant.start, width=720))
    assert width == 720 and 600 < height < 700
