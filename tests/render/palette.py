"""Whether a variant's power colours can be told apart: by everyone, and under the three common
colour-blindness simulations (protanopia, deuteranopia, tritanopia), measured as CIEDE2000 distances
(coloraide). Checked: every pair of powers' units, every power's units against plain land and sea (its
arrows and convoy lines are drawn on them), every pair of the fills of the land powers own, and each such
fill against unowned land. ``problems`` names each pair closer than its minimum."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from coloraide import Color

from dipserver.render.style import LAND_FILL, SEA_FILL, territory

VISIONS = (None, "protan", "deutan", "tritan")  # None: typical colour vision
# Minimum distances: (typical vision, each simulation). A ΔE2000 of 10 or more reads as another colour at a
# glance; simulated vision loses most of a hue's difference, so its floors are lower.
UNITS_APART = (20.0, 9.0)
ON_GROUND = (15.0, 10.0)
OWNED_APART = (10.0, 5.0)
OWNED_ON_LAND = (8.0, 5.0)


def distance(one: str, other: str, vision: str | None = None) -> float:
    a, b = Color(one), Color(other)
    if vision:
        a, b = a.filter(vision), b.filter(vision)
    return float(a.delta_e(b, method="2000"))


def _floor(minimum: tuple[float, float], vision: str | None) -> float:
    return minimum[0] if vision is None else minimum[1]


def problems(
    colours: Mapping[str, str],
    land: str = LAND_FILL,
    sea: str = SEA_FILL,
    owned: Mapping[str, str] | None = None,
) -> list[str]:
    """Every pair closer than its minimum, in words, for ``colours`` (power -> #rrggbb); ``owned`` is the
    fill of each power's land as drawn (by default as the server's stylesheet derives it)."""
    found = []
    owned = owned or {power: territory(colour) for power, colour in colours.items()}
    for vision in VISIONS:
        seen = vision or "typical vision"
        checks = [
            *(
                ("units", p, q, colours[p], colours[q], UNITS_APART)
                for p, q in itertools.combinations(colours, 2)
            ),
            *(("units on land", p, "land", colours[p], land, ON_GROUND) for p in colours),
            *(("units on sea", p, "sea", colours[p], sea, ON_GROUND) for p in colours),
            *(
                ("owned land", p, q, owned[p], owned[q], OWNED_APART)
                for p, q in itertools.combinations(colours, 2)
            ),
            *(("owned land", p, "unowned", owned[p], land, OWNED_ON_LAND) for p in colours),
        ]
        for what, p, q, one, other, minimum in checks:
            apart = distance(one, other, vision)
            if apart < _floor(minimum, vision):
                found.append(
                    f"{what}: {p} {one} / {q} {other} ΔE2000 {apart:.1f} < {_floor(minimum, vision)} ({seen})"
                )
    return found
