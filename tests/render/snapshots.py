"""Helpers for the map tests: a variant's map as its timeline leaves it at a given moment."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dipserver.engine.board import MapState
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, walk
from dipserver.engine.variant import Variant

SVG = "{http://www.w3.org/2000/svg}"


def map_after(variant: Variant, year: int, hook: Hook) -> tuple[MapState, Position]:
    """The exact-mode map and position once the timeline's ``hook`` of ``year`` has run."""
    for step_year, step_hook, result in walk(variant, {"mode": "exact"}):
        if (step_year, step_hook) == (year, hook):
            return result.map_state, result.position
    raise AssertionError(f"{variant.slug}'s timeline never reaches {hook} {year}")


def provinces_by_id(svg: str) -> dict[str, ET.Element]:
    """The ``provinces`` layer's paths by id (the province code)."""
    root = ET.fromstring(svg)
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "provinces")
    return {p.get("id"): p for p in layer.iter(f"{SVG}path")}


def layer(svg: str, name: str) -> ET.Element:
    root = ET.fromstring(svg)
    return next(g for g in root.iter(f"{SVG}g") if g.get("id") == name)


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())
