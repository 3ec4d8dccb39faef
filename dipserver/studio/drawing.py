"""An uploaded SVG map made safe: parsed with ``defusedxml`` (no DTD, no entities, no external
references), bounded in bytes, elements and depth, then written afresh from a strict allow-list of SVG
elements and attributes. Nothing else survives: no ``<script>``, ``<style>``, ``<foreignObject>``,
``<image>``, ``<use>`` or links, no ``on*`` event attribute, no ``href``, no ``url(...)`` or ``data:``
value. What was dropped is reported, so the game master knows their file was changed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from dipserver.studio.errors import StudioError

SVG_NS = "http://www.w3.org/2000/svg"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
MAX_SVG_BYTES = 1_500_000
MAX_ELEMENTS = 5_000  # every element of the upload, kept or dropped
MAX_DEPTH = 32

ELEMENTS = frozenset(
    {"svg", "g", "path", "rect", "circle", "ellipse", "polygon", "polyline", "line", "title", "desc"}
)
ATTRIBUTES = frozenset(
    {"id", "class", "d", "points", "x", "y", "width", "height", "cx", "cy", "r", "rx", "ry"}
    | {"x1", "y1", "x2", "y2", "transform", "viewBox", "version", "data-terrain", "data-name"}
    | {"fill", "stroke", "stroke-width", "fill-rule", "fill-opacity", "stroke-opacity", "opacity"}
)
SHAPES = frozenset({"path", "rect", "circle", "ellipse", "polygon", "polyline", "line"})
# Inkscape keeps a shape's own name in inkscape:label; it is kept as data-name.
RENAMED = {f"{{{INKSCAPE_NS}}}label": "data-name"}
_HOSTILE_VALUES = ("url(", "javascript", "data:", "expression(", "@import")


@dataclass(frozen=True, slots=True)
class CleanSvg:
    text: str  # the SVG written afresh from what the allow-list kept
    dropped: tuple[str, ...]  # what was removed, e.g. "element script", "attribute onclick"
    shapes: int = 0  # the shapes kept (paths, rectangles ...): each is read as a province or scenery


def sanitised(raw: bytes) -> CleanSvg:
    """The upload made safe, or ``StudioError`` (``too_large``, ``invalid_svg``) saying why not."""
    if len(raw) > MAX_SVG_BYTES:
        raise StudioError(
            f"An SVG map is at most {MAX_SVG_BYTES} bytes; this one is {len(raw)}", code="too_large"
        )
    try:
        root = fromstring(raw, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise StudioError(
            f"The SVG may not declare a DTD or entities ({type(exc).__name__})", code="invalid_svg"
        ) from None
    except ET.ParseError as exc:
        raise StudioError(f"Not a well-formed SVG file: {exc}", code="invalid_svg") from None
    if _local(root.tag) != "svg" or _namespace(root.tag) not in ("", SVG_NS):
        raise StudioError("The file's root element is not <svg>", code="invalid_svg")
    copier = _Copier()
    clean = copier.copy(root, 0)
    assert clean is not None  # the root is an allowed element
    clean.set("xmlns", SVG_NS)
    return CleanSvg(ET.tostring(clean, encoding="unicode"), tuple(sorted(copier.dropped)), copier.shapes)


class _Copier:
    def __init__(self) -> None:
        self.dropped: set[str] = set()
        self.count = 0
        self.shapes = 0

    def copy(self, element: ET.Element, depth: int) -> ET.Element | None:
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise StudioError(f"An SVG map has at most {MAX_ELEMENTS} elements", code="too_large")
        if depth > MAX_DEPTH:
            raise StudioError(f"An SVG map nests elements at most {MAX_DEPTH} deep", code="too_large")
        name = _local(element.tag)
        if _namespace(element.tag) not in ("", SVG_NS) or name not in ELEMENTS:
            self.dropped.add(f"element {name}")
            return None
        out = ET.Element(name, self._attributes(element))
        self.shapes += name in SHAPES
        if name in ("title", "desc") and element.text:
            out.text = element.text[:200]
        for child in element:
            kept = self.copy(child, depth + 1)
            if kept is not None:
                out.append(kept)
        return out

    def _attributes(self, element: ET.Element) -> dict[str, str]:
        kept = {}
        for key, value in element.attrib.items():
            name = RENAMED.get(key, key)
            if name not in ATTRIBUTES:
                self.dropped.add(f"attribute {_local(key)}")
            elif any(word in value.lower() for word in _HOSTILE_VALUES):
                self.dropped.add(f"value of {name}")
            else:
                kept[name] = value
        return kept


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _namespace(tag: str) -> str:
    return tag[1:].partition("}")[0] if tag.startswith("{") else ""
