"""The band under the map: phase, terrain key, coming changes, centres per power, unit and order key."""

from __future__ import annotations

from html import escape

from dipserver.engine import Season, Unit, UnitType, load_timeline
from dipserver.render.picture import Picture, n
from dipserver.render.style import CHANGE_WORDS, TERRAIN_STYLES

LEGEND_HEIGHT = 88
MODULE_ROW = 26  # px added under the band when the rule modules have something on the map
SEASON_WORDS = {Season.SPRING: "Spring", Season.FALL: "Autumn", Season.WINTER: "Winter"}


def legend(
    p: Picture,
    styles: set[str],
    change_kinds: list[str],
    module_keys: list[tuple[str, str, str]] | None = None,
) -> list[str]:
    """The legend band; ``module_keys`` (``render.modules.keys``) adds a row for the rule modules."""
    top = p.geometry.height
    phase = p.position.phase
    season = load_timeline(p.variant).season_label(phase.season, phase.year)  # Sahara's summers
    title = f"{season or SEASON_WORDS[phase.season]} {phase.year} {phase.type.name.title()}"
    out = [
        f'<rect x="0" y="{top}" width="{p.width}" height="{legend_height(module_keys)}" fill="#faf8f2"/>',
        f'<text class="legend-title" x="12" y="{top + 18}">{escape(p.variant.name)} - {title}</text>',
    ]
    x = 12.0
    for name in TERRAIN_STYLES:
        if name not in styles:
            continue
        style = TERRAIN_STYLES[name]
        out.append(
            f'<rect class="province {name}" x="{n(x)}" y="{top + 36}" width="22" height="16"/>'
            f'<text class="legend-text" x="{n(x + 28)}" y="{top + 44}">{escape(style.legend)}</text>'
        )
        x += 40 + 6.4 * len(style.legend)
    for change in change_kinds:
        words = "Next: " + CHANGE_WORDS.get(change, change)
        out.append(
            f'<rect class="change change-{escape(change)}" x="{n(x)}" y="{top + 37}"'
            ' width="20" height="14"/>'
            f'<text class="legend-text" x="{n(x + 26)}" y="{top + 44}">{escape(words)}</text>'
        )
        x += 38 + 6.4 * len(words)
    out.extend(centre_counts(p, top + 18))
    out.extend(order_key(p, top + 70))
    out.extend(module_key(module_keys or [], top + LEGEND_HEIGHT + MODULE_ROW / 2 - 6))
    return out


def legend_height(module_keys: list[tuple[str, str, str]] | None) -> int:
    return LEGEND_HEIGHT + (MODULE_ROW if module_keys else 0)


def module_key(entries: list[tuple[str, str, str]], y: float) -> list[str]:
    """One row: blizzard, supply line, out of supply, depot — what this picture shows of the modules."""
    out = []
    x = 12.0
    for shape, css, words in entries:
        if shape == "rect":
            out.append(f'<rect class="{css} key-swatch" x="{n(x)}" y="{n(y - 8)}" width="22" height="16"/>')
        elif shape == "line":
            out.append(f'<path class="{css}" stroke="#333" d="M{n(x)} {n(y)}H{n(x + 22)}"/>')
        elif shape == "ring":
            out.append(f'<circle class="{css}" cx="{n(x + 11)}" cy="{n(y)}" r="8"/>')
            out.append(
                f'<g class="supply-mark"><circle cx="{n(x + 4)}" cy="{n(y - 4)}" r="5"/>'
                f'<text x="{n(x + 4)}" y="{n(y - 3.5)}">1</text></g>'
            )
        elif shape == "conversion":
            out.append(
                f'<rect class="{css}" stroke="#333" x="{n(x + 2)}" y="{n(y - 8)}" width="18" height="16"/>'
            )
        else:
            out.append(
                f'<rect class="{css}" x="{n(x + 6)}" y="{n(y - 5)}" width="10" height="10" fill="#888"/>'
            )
        out.append(f'<text class="legend-text" x="{n(x + 28)}" y="{n(y)}">{escape(words)}</text>')
        x += 44 + 6.4 * len(words)
    return out


def centre_counts(p: Picture, y: float) -> list[str]:
    """Centres per power, right-aligned on the title line."""
    counts = dict.fromkeys(p.variant.powers, 0)
    for code, owner in p.position.owners.items():
        if owner in counts and code in p.map_state.supply_centres:
            counts[owner] += 1
    out = []
    x = p.width - 12.0 - 98 * len(counts)
    for power, count in counts.items():
        name = escape(p.variant.powers[power].name)
        out.append(
            f'<circle cx="{n(x + 6)}" cy="{y}" r="5.5" fill="{p.colours[power]}" stroke="#222"/>'
            f'<text class="legend-text" x="{n(x + 15)}" y="{y}">{name} {count}</text>'
        )
        x += 98
    return out


def order_key(p: Picture, y: float) -> list[str]:
    """What the unit symbols and order lines mean."""
    grey = Unit("", UnitType.ARMY, "")
    out = [
        p.unit(grey, (20, y)),
        f'<text class="legend-text" x="34" y="{y}">Army</text>',
        p.unit(Unit("", UnitType.FLEET, ""), (88, y)),
        f'<text class="legend-text" x="104" y="{y}">Fleet</text>',
    ]
    x = 150.0
    for css, words in (
        ("order move", "Move"),
        ("order support", "Support"),
        ("order convoy", "Convoy"),
        ("order retreat", "Retreat"),
        ("order move failed", "Failed"),
        ("retreat-option", "Retreat option"),
    ):
        out.append(f'<path class="{css} key" d="M{n(x)} {y}H{n(x + 30)}"/>')
        if words == "Failed":
            out.append(p.cross((x + 15, y), 4.0))
        out.append(f'<text class="legend-text" x="{n(x + 36)}" y="{y}">{words}</text>')
        x += 50 + 6.4 * len(words)
    out.append(f'<circle class="hold key" cx="{n(x + 10)}" cy="{y}" r="8"/>')
    out.append(f'<text class="legend-text" x="{n(x + 24)}" y="{y}">Hold / supported</text>')
    x += 140
    out.append(p.unit(grey, (x + 10, y), " dislodged"))
    out.append(f'<text class="legend-text" x="{n(x + 24)}" y="{y}">Dislodged</text>')
    return out
