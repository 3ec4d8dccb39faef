"""The map layers of a picture: provinces by terrain, scenery, coming changes, centres, labels, units."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from dipserver.render.picture import Picture, n
from dipserver.render.style import CHANGE_WORDS, terrain_style

NEUTRAL_SC = "#ffffff"

Changes = Mapping[str, str] | Iterable[tuple[str, str] | Mapping[str, Any]]
EVENT_CHANGES = {"centre_gained": "sc_gain", "centre_lost": "sc_loss"}


def change_items(changes: Changes | None) -> list[tuple[str, str]]:
    """(province, change) pairs from a mapping, pairs, or the timeline's event dicts.

    Event dicts are what ``timeline.apply_hook`` reports ({"kind": "terrain", "province": ..., "to":
    ...}, {"kind": "centre_gained", ...}); kinds that change no province's look are skipped.
    """
    if changes is None:
        return []
    if isinstance(changes, Mapping):
        return sorted(changes.items())
    pairs = set()
    for item in changes:
        if not isinstance(item, Mapping):
            province, change = item
            pairs.add((str(province), str(change)))
        elif item.get("kind") == "terrain":
            pairs.add((item["province"], str(getattr(item["to"], "value", item["to"]))))
        elif item.get("kind") in EVENT_CHANGES:
            pairs.add((item["province"], EVENT_CHANGES[item["kind"]]))
    return sorted(pairs)


def provinces(p: Picture) -> tuple[list[str], list[str], set[str]]:
    """(province paths, off-board paths, terrain styles used)."""
    owners = p.position.owners
    paths, off_board, used = [], [], set()
    for code, shape in p.geometry.shapes.items():
        if code not in p.variant.provinces:  # e.g. Switzerland on the standard board
            css = "offboard-sea" if shape.medium == "sea" else "scenery"
            off_board.append(f'<path class="{css}" d="{shape.path}"/>')
            continue
        style = terrain_style(p.variant, p.map_state, code, shape.medium, p.geometry.tiles.get(code))
        used.add(style)
        classes = f"province {style}"
        owner = owners.get(code)
        if owner in p.colours and code in p.map_state.supply_centres and style in ("land", "dried"):
            classes += f" own-{owner}"
        name = escape(p.variant.provinces[code].name)
        x, y = p.anchor(code)  # where a unit there stands: the browser draws the orders being given
        paths.append(
            f'<path id="{code}" class="{classes}" data-anchor="{n(x)} {n(y)}" d="{shape.path}">'
            f"<title>{name}</title></path>"
        )
    return paths, off_board, used


def scenery(p: Picture) -> list[str]:
    return [f'<path class="scenery" d="{d}"/>' for d in p.geometry.scenery]


def labels(p: Picture) -> list[str]:
    out = []
    for code in p.variant.provinces:
        shape = p.geometry.shape(code)
        water = " water" if p.map_state.terrain[code].value == "sea" else ""
        x, y = shape.label
        out.append(f'<text class="label{water}" x="{n(x)}" y="{n(y)}">{code}</text>')
    return out


def supply_centres(p: Picture) -> list[str]:
    out = []
    for code in sorted(p.map_state.supply_centres):
        x, y = p.geometry.shape(code).sc
        fill = p.colours.get(p.position.owners.get(code, ""), NEUTRAL_SC)
        out.append(f'<circle id="{code}-sc" class="sc" cx="{n(x)}" cy="{n(y)}" r="4.5" fill="{fill}"/>')
    return out


def changes(p: Picture, changes: Changes | None) -> tuple[list[str], list[str]]:
    """(outlines, legend lines) of the changes due before the next phase."""
    items = change_items(changes)
    out = []
    for code, change in items:
        shape = p.geometry.shape(code)
        name = p.variant.provinces[code].name if code in p.variant.provinces else code
        title = escape(f"{name} {CHANGE_WORDS.get(change, change)}")
        out.append(
            f'<path class="change change-{escape(change)}" d="{shape.path}"><title>{title}</title></path>'
        )
    return out, sorted({change for _, change in items})


def coast_targets(p: Picture) -> list[str]:
    """An invisible disc per named coast, so a browser can let a player click "STP/NC"."""
    out = []
    for province, coasts in sorted(p.map_state.coasts.items()):
        spec = p.variant.provinces.get(province)
        for coast in sorted(coasts):
            x, y = p.anchor(f"{province}/{coast}")
            title = escape(f"{spec.name if spec else province} ({coast})")  # it lies over a unit there
            out.append(
                f'<circle id="{province}-{coast}" class="coast-target" data-location="{province}/{coast}"'
                f' cx="{n(x)}" cy="{n(y)}" r="9"><title>{title}</title></circle>'
            )
    return out


def units(p: Picture) -> list[str]:
    out = [p.unit(u, p.anchor(u.location)) for u in p.position.units.values()]
    for dislodged in p.position.dislodged.values():
        at = p.dislodged_point(dislodged.unit.location)
        out.append(p.unit(dislodged.unit, at, " dislodged"))
        out.extend(
            p.arrow_path(at, p.anchor(option), "retreat-option", None, bend=0.0)
            for option in dislodged.retreats
        )
    return out
