"""PNG export: the same picture, rasterised, fast enough to answer a request."""

from __future__ import annotations

import struct
import time

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


def test_png_renders_in_under_a_second() -> None:
    variant = load_variant("standard")
    times = []
    for _ in range(3):
        # CPU time, best of three: on a shared machine other work only ever adds wall-clock time
        started = time.process_time()
        render_png(variant, variant.map_state, variant.start)
        times.append(time.process_time() - started)
    assert min(times) < 1.0


def test_png_can_be_scaled_for_email() -> None:
    variant = load_variant("standard")
    width, height = png_size(render_png(variant, variant.map_state, variant.start, width=720))
    assert width == 720 and 600 < height < 700
