"""How each kind of place looks: terrain styles, power tints, and the stylesheet embedded in every SVG.

A province's style comes from its terrain *this phase* and what it is on the real map (its medium):
a sea that dried is drawn differently from land that was always land, and land that sank differently
from open sea, so players see at a glance what the timeline has done.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipserver.engine import MapState, Terrain, Variant


@dataclass(frozen=True, slots=True)
class TerrainStyle:
    name: str  # CSS class
    legend: str  # words in the legend
    css: str  # declarations for the province path


# The plain land and sea every power's colours are checked against (tests/render/test_palette.py).
LAND_FILL = "#efe6cc"
SEA_FILL = "#a9cbe6"

TERRAIN_STYLES = {
    s.name: s
    for s in (
        TerrainStyle("land", "Land", f"fill:{LAND_FILL}"),
        TerrainStyle("sea", "Sea", f"fill:{SEA_FILL}"),
        TerrainStyle("dried", "Dried sea bed (land)", "fill:url(#p-dried)"),
        TerrainStyle("drowned", "Drowned land (sea)", "fill:url(#p-drowned)"),
        TerrainStyle("ice", "Ice (impassable)", "fill:url(#p-ice)"),
        TerrainStyle("desert", "Sahara desert (impassable)", "fill:url(#p-desert)"),
        TerrainStyle("closed", "Impassable", "fill:url(#p-closed)"),
        TerrainStyle("absent", "Not yet on the board", "fill:url(#p-absent);stroke-dasharray:3 3"),
        # Ice Lords' tiles on a generated board (geometry "tile" key); its border squares are plain sea.
        TerrainStyle("tile-tundra", "Tundra", "fill:url(#p-tundra)"),
        TerrainStyle("tile-hills", "Hills", "fill:url(#p-hills)"),
        TerrainStyle("tile-forest", "Forest", "fill:url(#p-forest)"),
        TerrainStyle("tile-mountains", "Mountains", "fill:url(#p-mountains)"),
        TerrainStyle("tile-village", "Village (centre)", "fill:url(#p-village)"),
        TerrainStyle("tile-water", "Water (sea)", "fill:url(#p-water)"),
        TerrainStyle("tile-glacier", "Glacier (closed)", "fill:url(#p-glacier)"),
        TerrainStyle("tile-peaks", "Peaks (closed)", "fill:url(#p-peaks)"),
    )
}
TILE_STYLES = frozenset(name[5:] for name in TERRAIN_STYLES if name.startswith("tile-"))


def terrain_style(
    variant: Variant, map_state: MapState, code: str, medium: str, tile: str | None = None
) -> str:
    """The CSS class of a province; ``tile`` is its Ice Lords tile on a generated board, whose terrain
    never changes in play, so the tile's texture says it all."""
    terrain = map_state.terrain[code]
    if tile in TILE_STYLES:
        return f"tile-{tile}"
    if terrain is Terrain.SEA:
        return "sea" if medium == "sea" else "drowned"
    if terrain is Terrain.LAND:
        return "land" if medium == "land" else "dried"
    if terrain is Terrain.ABSENT:
        return "absent"
    if variant.map_state.terrain.get(code) is Terrain.IMPASSABLE:
        return "closed"
    # A place that *became* impassable looks as its variant says ([drawing] closed in variant.toml);
    # places impassable from the start (Switzerland) are plain "closed", above.
    if variant.closed_look == "medium":
        return "ice" if medium == "sea" else "desert"
    return variant.closed_look


# Patterns for the terrains a plain fill would not tell apart (also legible in greyscale print).
PATTERNS = (
    '<pattern id="p-dried" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#ecdfb8"/><circle cx="2" cy="2" r="0.9" fill="#b9a77a"/>'
    '<circle cx="6" cy="6" r="0.9" fill="#b9a77a"/></pattern>'
    '<pattern id="p-drowned" width="12" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="12" height="6" fill="#86b4d3"/>'
    '<path d="M0 3Q3 0 6 3T12 3" fill="none" stroke="#5d8fb3" stroke-width="0.9"/></pattern>'
    '<pattern id="p-ice" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#f3f9fd"/>'
    '<path d="M0 8L8 0M-2 2L2 -2M6 10L10 6" stroke="#a9c9de" stroke-width="1"/></pattern>'
    '<pattern id="p-desert" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="10" height="10" fill="#e2bd72"/><circle cx="2.5" cy="3" r="1" fill="#b98b3c"/>'
    '<circle cx="7.5" cy="8" r="1" fill="#b98b3c"/></pattern>'
    '<pattern id="p-closed" width="7" height="7" patternUnits="userSpaceOnUse">'
    '<rect width="7" height="7" fill="#bdb4a2"/>'
    '<path d="M0 0L7 7M7 0L0 7" stroke="#968b76" stroke-width="0.8"/></pattern>'
    '<pattern id="p-absent" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="10" height="10" fill="#e9e9e4"/>'
    '<path d="M0 10L10 0M5 10L10 5M0 5L5 0" stroke="#c2c2b8" stroke-width="0.8"/></pattern>'
)

# Snow laid over a province's own texture: white haze and flakes, still letting the terrain show through.
SNOW_PATTERN = (
    '<pattern id="p-snow" width="16" height="16" patternUnits="userSpaceOnUse">'
    '<rect width="16" height="16" fill="#eef2f7" fill-opacity="0.72"/>'
    '<path d="M4 1V7M1.4 2.5L6.6 5.5M1.4 5.5L6.6 2.5M12 9V15M9.4 10.5L14.6 13.5M9.4 13.5L14.6 10.5"'
    ' stroke="#1f4f7a" stroke-width="1.1" stroke-linecap="round"/></pattern>'
)

# Ice Lords' tiles, one texture each (only put in the SVG when a generated board is drawn).
TILE_PATTERNS = (
    '<pattern id="p-tundra" width="12" height="12" patternUnits="userSpaceOnUse">'
    '<rect width="12" height="12" fill="#dfe4d2"/>'
    '<path d="M2 9l1-2 1 2M8 4l1-2 1 2" fill="none" stroke="#98a57e" stroke-width="0.8"/></pattern>'
    '<pattern id="p-hills" width="16" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="16" height="10" fill="#dccf9f"/>'
    '<path d="M1 8Q4 3 7 8M9 5Q12 0 15 5" fill="none" stroke="#a08d55" stroke-width="1"/></pattern>'
    '<pattern id="p-forest" width="12" height="12" patternUnits="userSpaceOnUse">'
    '<rect width="12" height="12" fill="#a7c995"/>'
    '<path d="M3 1L5.5 6H0.5ZM9 6L11.5 11H6.5Z" fill="#3f7a3a"/></pattern>'
    '<pattern id="p-mountains" width="18" height="14" patternUnits="userSpaceOnUse">'
    '<rect width="18" height="14" fill="#c9b99b"/>'
    '<path d="M1 12L6 3L11 12M9 12L13 6L17 12" fill="none" stroke="#6e5b3e" stroke-width="1.2"/></pattern>'
    '<pattern id="p-village" width="14" height="14" patternUnits="userSpaceOnUse">'
    '<rect width="14" height="14" fill="#ecd7a6"/>'
    '<path d="M3 8H7V11H3ZM2.5 8L5 5.5L7.5 8" fill="#a8613b"/></pattern>'
    '<pattern id="p-water" width="12" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="12" height="6" fill="#7fb0d8"/>'
    '<path d="M0 3Q3 0 6 3T12 3" fill="none" stroke="#4f86b3" stroke-width="0.9"/></pattern>'
    '<pattern id="p-glacier" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="10" height="10" fill="#e6f3fa"/>'
    '<path d="M0 10L10 0M0 3L3 0" stroke="#8fb9d4" stroke-width="1.1"/></pattern>'
    '<pattern id="p-peaks" width="14" height="14" patternUnits="userSpaceOnUse">'
    '<rect width="14" height="14" fill="#8f877c"/>'
    '<path d="M1 13L7 2L13 13Z" fill="#5e574e"/><path d="M5 5.7L7 2L9 5.7Z" fill="#fff"/></pattern>'
)

FONT = "DejaVu Sans,Verdana,Arial,sans-serif"

BASE_CSS = (
    ".province{stroke:#6b5e48;stroke-width:0.8;stroke-linejoin:round}"
    ".province.sea,.province.drowned,.province.ice{stroke:#7d9bb5}"
    ".scenery{fill:#d8d3c6;stroke:#9c9585;stroke-width:0.5}"
    f".offboard-sea{{fill:{SEA_FILL};stroke:#7d9bb5;stroke-width:0.5}}"
    f"text{{font-family:{FONT}}}"
    ".label{font-size:10.5px;font-weight:bold;fill:#2d2a24;text-anchor:middle;dominant-baseline:central}"
    ".label.water{font-style:italic;fill:#1f4a6e}"
    ".sc{stroke:#222;stroke-width:1.2}"
    ".unit{stroke:#111;stroke-width:1.2}"
    ".unit-letter{font-size:10px;font-weight:bold;text-anchor:middle;dominant-baseline:central}"
    ".unit-af .unit-letter{font-size:7px}"
    ".dislodged .unit{stroke:#d00;stroke-width:2;stroke-dasharray:3 2}"
    ".order{fill:none;stroke-width:2.6;stroke-linecap:round}"
    ".order.support{stroke-width:1.8;stroke-dasharray:6 4}"
    ".order.convoy{stroke-width:1.8;stroke-dasharray:8 3 2 3}"
    ".order.embark,.order.disembark{stroke-dasharray:2 3}"
    ".order.retreat{stroke-width:2.2;stroke-dasharray:7 3}"
    ".order.failed{opacity:0.55}"
    ".key{fill:none;stroke:#333;stroke-width:2}"
    ".casing{fill:none;stroke:#333;stroke-width:4.6;stroke-linecap:round}"
    ".casing-support{stroke-width:3.4;stroke-dasharray:6 4}"
    ".casing-convoy{stroke-width:3.4;stroke-dasharray:8 3 2 3}"
    ".casing-retreat{stroke-dasharray:7 3}.casing-failed{opacity:0.55}"
    ".hold{fill:none;stroke-width:2.4}"
    ".retreat-option{fill:none;stroke:#d00;stroke-width:1.2;stroke-dasharray:2 3}"
    ".mark{stroke:#d00;stroke-width:2.6;stroke-linecap:round;fill:none}"
    ".build{fill:none;stroke-width:2;stroke-dasharray:3 2}"
    ".coast-target{fill:#fff;fill-opacity:0;stroke:none}"
    ".change{fill:none;stroke-width:3;stroke-dasharray:7 4;stroke-linejoin:round}"
    ".change-land{stroke:#8a5a12}.change-sea{stroke:#0b5fa8}.change-impassable{stroke:#b3261e}"
    ".change-sc_gain{stroke:#1b7f2a}.change-sc_loss,.change-sc_loss_all{stroke:#6a1b9a}"
    ".legend-text{font-size:11px;fill:#222;dominant-baseline:central}"
    ".blizzard{fill:url(#p-snow);stroke:#1f4f7a;stroke-width:2.4;stroke-dasharray:7 3}"
    ".supply-line{fill:none;stroke-width:1.4;stroke-opacity:0.85;stroke-linejoin:round}"
    ".supply-line.depot-line{stroke-dasharray:1.5 2.5}"
    ".supply-source{stroke:#222;stroke-width:0.6}"
    ".depot{stroke:#222;stroke-width:1.2}.depot.cut{stroke-dasharray:2 1.5}"
    ".unsupplied{fill:none;stroke:#e07000;stroke-width:2.2;stroke-dasharray:4 2}"
    ".supply-mark circle{fill:#e07000;stroke:#fff;stroke-width:1}"
    ".supply-mark text{font-size:10px;font-weight:bold;fill:#fff;text-anchor:middle;"
    "dominant-baseline:central}"
    ".conversion{fill:none;stroke-width:2;stroke-dasharray:2 2}"
    ".conversion-text{font-size:10px;font-weight:bold;fill:#111;text-anchor:middle;dominant-baseline:central;"
    "paint-order:stroke;stroke:#fff;stroke-width:2.5}"
    ".province.tile-glacier,.province.tile-water{stroke:#7d9bb5}"
    ".legend-title{font-size:13px;font-weight:bold;fill:#222;dominant-baseline:central}"
)

CHANGE_WORDS = {
    "land": "becomes land",
    "sea": "sinks",
    "impassable": "becomes impassable",
    "sc_gain": "gains a centre",
    "sc_loss": "loses its centre",
    "sc_loss_all": "loses its centre",
    "absent": "leaves the board",
}


def tint(colour: str, amount: float = 0.55) -> str:
    """``colour`` mixed with white: the fill of a province whose centre a power owns."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def shade(colour: str, amount: float) -> str:
    """``colour`` mixed with black."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * (1 - amount)):02x}" for c in (r, g, b))


TERRITORY_CONTRAST = 1.6  # a power's units and centres against the land it owns


def territory(colour: str) -> str:
    """The fill of a province whose centre a power owns: its colour mixed with white, or, for a pale
    colour (Russia's near-white, Turkey's yellow) whose tint its own units would vanish on, with black."""
    light = tint(colour)
    if contrast(colour, light) >= TERRITORY_CONTRAST:
        return light
    return shade(colour, 0.3)


def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (unit letters on a pale power's units)."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


def stylesheet(variant: Variant) -> str:
    terrain = "".join(f".province.{s.name}{{{s.css}}}" for s in TERRAIN_STYLES.values())
    owners = "".join(
        f".province.own-{p}{{fill:{territory(power.colour)}}}" for p, power in variant.powers.items()
    )
    return BASE_CSS + terrain + owners
