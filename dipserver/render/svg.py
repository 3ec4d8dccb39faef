"""A phase snapshot as an SVG picture: terrain, centres, units, orders, results and coming changes.

Layers, bottom to top (each a ``<g>`` with this id): ``provinces`` (one path per province, its code as
the id, so a browser can make it clickable), ``scenery``, ``changes``, ``blizzards``, ``supply-centres``,
``labels``, ``supply`` (supply lines and depots), ``orders``, ``units``, ``supply-marks``, ``coasts`` (an
invisible disc per named coast, id ``STP-NC``, ``data-location`` ``STP/NC``, clickable too), ``legend``.
Everything is built by joining strings over precomputed path data:
the cost is the number of elements, not the map's detail.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dipserver.engine import MapState, Order, OrderResult, Position, Variant
from dipserver.render import layers
from dipserver.render import modules as modules_layer
from dipserver.render.geometry import Geometry, load_geometry
from dipserver.render.layers import Changes
from dipserver.render.legend import legend, legend_height
from dipserver.render.orders import draw_orders
from dipserver.render.picture import Picture
from dipserver.render.style import PATTERNS, SNOW_PATTERN, TILE_PATTERNS, stylesheet


def side_panel(picture: Picture) -> str:
    """The canvas right of a board narrower than the legend (Ice Lords), in the legend's colour."""
    spare = picture.width - picture.geometry.width
    if spare <= 0:
        return ""
    x, height = picture.geometry.width, picture.geometry.height
    return f'<rect class="side-panel" x="{x}" y="0" width="{spare}" height="{height}" fill="#faf8f2"/>'


def group(layer: str, *elements: Iterable[str]) -> str:
    """One layer of the picture: a ``<g>`` with the layer's id around its elements, in order."""
    return f'<g id="{layer}">' + "".join(e for part in elements for e in part) + "</g>"


def render_svg(
    variant: Variant,
    map_state: MapState,
    position: Position,
    orders: Iterable[Order] | None = None,
    results: Iterable[Mapping[str, Any] | OrderResult] | None = None,
    next_changes: Changes | None = None,
    *,
    modules: Mapping[str, Any] | None = None,
    geometry: Geometry | Mapping[str, Any] | None = None,
) -> str:
    """The picture of one phase as an SVG document.

    ``orders`` are drawn as given (each power's colour taken from its unit); ``results`` (the
    adjudicated orders as records, ``dipserver.engine.records``, or as ``OrderResult``) replace them and
    also show what failed: a failed move is faded
    with a cross, a cut support crossed at its unit, a dislodged unit ringed. Units in
    ``position.dislodged`` are drawn beside their province with dotted arrows to their retreat options.
    ``next_changes`` maps province -> change ("land", "sea", "impassable", "sc_gain", "sc_loss") for
    the map changes due before the next phase; those provinces are outlined.

    ``modules`` is the rule modules' data for this phase (``Opened.to_data()`` or ``Played.to_data()``,
    see ``render.modules``): blizzards snowed over, supply lines from unit to source, units out of supply
    ringed with their marks, depots in their owner's colour. ``geometry`` is a drawing built in memory
    (``icelords.geometry(board_map)`` for a generated Ice Lords board) instead of the variant's file.
    """
    drawing = load_geometry(variant, dict(geometry) if isinstance(geometry, Mapping) else geometry)
    picture = Picture(variant, drawing, map_state, position)
    view = modules_layer.module_view(modules)
    provinces, off_board, styles = layers.provinces(picture)
    changes, change_kinds = layers.changes(picture, next_changes)
    order_elements = draw_orders(picture, orders, results)
    units = layers.units(picture)
    module_keys = modules_layer.keys(view)
    if any("conversion-mark" in element for element in order_elements):
        module_keys.append(("conversion", "conversion", "Changes kind: A→F, F→A, stay F"))
    width, height = picture.width, drawing.height + legend_height(module_keys)
    patterns = PATTERNS + (SNOW_PATTERN if view.blizzards else "") + (TILE_PATTERNS if drawing.tiles else "")
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" data-variant="{variant.slug}" data-phase="{position.phase}">',
            f"<defs><style>{stylesheet(variant)}</style>{patterns}{picture.arrow_markers()}</defs>",
            side_panel(picture),
            group("provinces", provinces),
            group("scenery", off_board, layers.scenery(picture)),
            group("changes", changes),
            group("blizzards", modules_layer.blizzards(picture, view)),
            group("supply-centres", layers.supply_centres(picture)),
            group("labels", layers.labels(picture)),
            group("supply", modules_layer.supply_lines(picture, view), modules_layer.depots(picture, view)),
            group("orders", order_elements),
            group("units", units),
            group("supply-marks", modules_layer.supply_marks(picture, view)),
            group("coasts", layers.coast_targets(picture)),
            group("legend", legend(picture, styles, change_kinds, module_keys)),
            "</svg>",
        ]
    )
