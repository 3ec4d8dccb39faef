"""The rule modules on the map: blizzards, supply lines, depots and supply marks.

``render_svg(..., modules=data)`` takes the modules' plain data as the engine produces it:

- ``Opened.to_data()`` (a phase as it opens: ``blizzards``, ``supply`` = depots and marks, ``lines`` = the
  supply report), or
- a game snapshot's ``modules`` (``games.mappers.modules_json``: ``state``, the report as ``supply``), or
- ``Played.to_data()`` (after a phase: ``state`` and ``check``, the supply check made after it), or
- any mapping with some of the keys ``blizzards`` (provinces), ``supply`` (``SupplyState.to_data()``) and
  ``lines`` (``SupplyReport.to_data(state)``).

Nothing here knows the rules; it draws what the data says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Any

from dipserver.render.picture import Picture, n

DEPOT_SIZE = 9.0
UNSUPPLIED_RADIUS = 15.0


@dataclass(frozen=True, slots=True)
class ModuleView:
    """What the modules put on one picture, read from their data."""

    blizzards: frozenset[str] = frozenset()
    depots: Mapping[str, str] = field(default_factory=dict)  # province -> owner
    lines: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # unit province -> its line
    depot_lines: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # depot province -> its line
    marks: Mapping[str, int] = field(default_factory=dict)  # unit province -> consecutive failed checks

    @property
    def any(self) -> bool:
        return bool(self.blizzards or self.depots or self.lines)


def module_view(data: Mapping[str, Any] | None) -> ModuleView:
    """The modules' data (see the module docstring) as what to draw; ``None`` draws nothing."""
    if not data:
        return ModuleView()
    if "state" in data:
        # A game snapshot's "modules" (games.mappers.modules_json): the supply report as the phase opened
        # under "supply"; or Played.to_data(): only the check made after the phase.
        state = data["state"] or {}
        opened = data.get("supply")
        report = opened if isinstance(opened, Mapping) and "units" in opened else data.get("check")
    else:
        state, report = data, data.get("lines")
    supply = state.get("supply") or {}
    report = report or {}
    marks = {p: int(c) for p, c in (supply.get("marks") or {}).items()}
    marks.update({p: int(line.get("marks", 0)) for p, line in (report.get("units") or {}).items()})
    return ModuleView(
        blizzards=frozenset(state.get("blizzards") or ()),
        depots={p: d["power"] for p, d in (supply.get("depots") or {}).items()},
        lines=dict(report.get("units") or {}),
        depot_lines=dict(report.get("depots") or {}),
        marks={p: c for p, c in marks.items() if c},
    )


def blizzards(p: Picture, view: ModuleView) -> list[str]:
    """Snow over each blizzard province (its unit can only hold; nothing enters)."""
    out = []
    for code in sorted(view.blizzards):
        if code not in p.geometry.shapes:
            continue
        name = p.variant.provinces[code].name if code in p.variant.provinces else code
        title = escape(f"{name}: blizzard (units only hold, nothing enters)")
        out.append(f'<path class="blizzard" data-province="{code}" d="{p.geometry.shape(code).path}">')
        out.append(f"<title>{title}</title></path>")
    return out


def supply_lines(p: Picture, view: ModuleView) -> list[str]:
    """Each supplied unit's traced path, unit to source, as a thin line in its power's colour; depots'
    own lines to their source dotted."""
    out = []
    for css, lines in (("supply-line", view.lines), ("supply-line depot-line", view.depot_lines)):
        for code, line in sorted(lines.items()):
            path = [c for c in line.get("path") or () if c in p.geometry.shapes]
            if not line.get("supplied") or len(path) < 2:
                continue
            # from the unit to the source's centre or depot marker, where the line's purpose is drawn
            points = [p.geometry.shape(c).unit for c in path[:-1]] + [p.geometry.shape(path[-1]).sc]
            d = "M" + "L".join(f"{n(x)} {n(y)}" for x, y in points)
            colour = p.colours.get(line.get("power", ""), "#444")
            source = line.get("source") or path[-1]
            out.append(
                f'<path class="{css}" data-unit="{code}" data-source="{source}" stroke="{colour}" d="{d}"/>'
            )
            x, y = points[-1]
            out.append(f'<circle class="supply-source" cx="{n(x)}" cy="{n(y)}" r="2.6" fill="{colour}"/>')
    return out


def depots(p: Picture, view: ModuleView) -> list[str]:
    """A square in the owner's colour where each depot stands; dashed if it traces to no source."""
    out = []
    for code, owner in sorted(view.depots.items()):
        if code not in p.geometry.shapes:
            continue
        x, y = p.geometry.shape(code).sc
        cut = view.depot_lines.get(code)
        css = "depot" + (" cut" if cut is not None and not cut.get("supplied") else "")
        colour = p.colours.get(owner, "#888")
        half = DEPOT_SIZE / 2
        name = p.variant.powers[owner].name if owner in p.variant.powers else owner.title()
        out.append(
            f'<rect class="{css}" data-province="{code}" x="{n(x - half)}" y="{n(y - half)}" '
            f'width="{n(DEPOT_SIZE)}" height="{n(DEPOT_SIZE)}" fill="{colour}">'
            f"<title>{escape(name)} depot</title></rect>"
        )
    return out


def supply_marks(p: Picture, view: ModuleView) -> list[str]:
    """Units out of supply ringed, with their count of failed checks (removed in Winter at the limit)."""
    out = []
    for code, line in sorted(view.lines.items()):
        unit = p.position.units.get(code)
        if line.get("supplied") or unit is None:
            continue
        x, y = p.anchor(unit.location)
        out.append(
            f'<circle class="unsupplied" data-unit="{code}" cx="{n(x)}" cy="{n(y)}" r="{UNSUPPLIED_RADIUS}"/>'
        )
    for code, count in sorted(view.marks.items()):
        unit = p.position.units.get(code)
        if unit is None:
            continue
        x, y = p.anchor(unit.location)
        out.append(
            f'<g class="supply-mark" data-unit="{code}"><circle cx="{n(x - 12)}" cy="{n(y - 12)}" r="7"/>'
            f'<text x="{n(x - 12)}" y="{n(y - 11.5)}">{count}</text></g>'
        )
    return out


def keys(view: ModuleView) -> list[tuple[str, str, str]]:
    """The legend entries the picture needs: (shape, CSS class, words)."""
    out = []
    if view.blizzards:
        out.append(("rect", "blizzard", "Blizzard: units only hold"))
    if any(line.get("supplied") for line in view.lines.values()):
        out.append(("line", "supply-line", "Supply line"))
    if any(not line.get("supplied") for line in view.lines.values()) or view.marks:
        out.append(("ring", "unsupplied", "Out of supply (n: failed checks)"))
    if view.depots:
        out.append(("square", "depot", "Depot"))
    return out
