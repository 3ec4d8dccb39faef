"""Pictures of the board: pure Python, no Django. The API views call these three functions."""

from dipserver.render.geometry import GeometryError, geometry_json, load_geometry
from dipserver.render.png import render_png
from dipserver.render.svg import render_svg

__all__ = ["GeometryError", "geometry_json", "load_geometry", "render_png", "render_svg"]
