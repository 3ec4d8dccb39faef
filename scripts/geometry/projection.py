"""Longitude/latitude -> board pixels: a piecewise-linear warp, not a true-scale projection.

A true-scale map makes Britain, the Low Countries and Italy tiny and Russia and the Atlantic huge.
The classic board enlarges the west and centre; we do the same by giving each band of longitude and
latitude its own pixels-per-degree. Each axis is warped on its own, so the warp is monotone and
shapes stay recognisable (coastlines only stretch, never fold).
"""

from __future__ import annotations

import numpy as np

WIDTH = 1440.0

# (degree, relative pixels per degree until the next breakpoint); the last density is unused.
LON_BANDS = [(-27.0, 9.0), (-12.0, 17.0), (-6.0, 27.0), (24.0, 18.0), (34.0, 10.0), (57.0, 0.0)]
LAT_BANDS = [(30.5, 22.0), (35.0, 38.0), (57.5, 24.0), (63.0, 16.0), (72.5, 0.0)]


def _knots(bands: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    degrees = np.array([d for d, _ in bands])
    widths = np.diff(degrees) * np.array([w for _, w in bands[:-1]])
    return degrees, np.concatenate([[0.0], np.cumsum(widths)])


_LON_DEG, _LON_PX = _knots(LON_BANDS)
_LAT_DEG, _LAT_PX = _knots(LAT_BANDS)
SCALE = WIDTH / _LON_PX[-1]
HEIGHT = float(round(_LAT_PX[-1] * SCALE))
LON_RANGE = (float(_LON_DEG[0]), float(_LON_DEG[-1]))
LAT_RANGE = (float(_LAT_DEG[0]), float(_LAT_DEG[-1]))


def project(coords: np.ndarray) -> np.ndarray:
    """Map an (n, 2) array of (lon, lat) to (x, y) board pixels, y growing downwards."""
    x = np.interp(coords[:, 0], _LON_DEG, _LON_PX) * SCALE
    y = HEIGHT - np.interp(coords[:, 1], _LAT_DEG, _LAT_PX) * SCALE
    return np.column_stack([x, y])


def unproject(points: np.ndarray) -> np.ndarray:
    """Inverse of project: (n, 2) board pixels -> (lon, lat). Exact, since each axis is monotone."""
    lon = np.interp(points[:, 0] / SCALE, _LON_PX, _LON_DEG)
    lat = np.interp((HEIGHT - points[:, 1]) / SCALE, _LAT_PX, _LAT_DEG)
    return np.column_stack([lon, lat])
