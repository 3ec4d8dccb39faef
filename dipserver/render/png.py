"""PNG export of the same picture, for forums and email, via resvg (a self-contained wheel: no system
libraries, no network)."""

from __future__ import annotations

from typing import Any

import resvg_py

from dipserver.render.svg import render_svg


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """Rasterise an SVG document; ``width`` scales it (the height follows)."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff"))


def render_png(*args: Any, width: int | None = None, **kwargs: Any) -> bytes:
    """``render_svg`` (same arguments) rasterised to PNG at the map's own size or ``width`` pixels."""
    return svg_to_png(render_svg(*args, **kwargs), width=width)
