"""Pictures of the board: pure Python, no Django. The API views call these functions."""

from dipserver.render.geometry import GeometryError, geometry_json, load_geometry
from dipserver.render.png import render_png, svg_to_png
from dipserver.render.svg import render_svg

__all__ = ["GeometryError", "geometry_json", "load_geometry", "render_png", "render_svg", "svg_to_png"]
