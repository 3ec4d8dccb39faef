// My orders drawn on the live map as I give them, with the history maps' own visual language
// (dipserver/render/orders.py), from each order's drawing as the server gives it (the order kind's own
// drawing data, on every option and stored order): an "arrow" in my colour for a move or retreat, a dashed
// "line" aimed at the middle of the move it helps for a support or convoy, a "ring" for a hold (a
// "hold_line" ends in one: a support to hold), the "unit" built ringed, a "cross" for a disband, a dashed
// square with the "mark"'s words for a conversion. No order kind is named here: a new kind is drawn as
// its drawing says. The SVG's own stylesheet already styles these classes; the server's province paths
// carry data-anchor.

const NS = "http://www.w3.org/2000/svg";
const LAYER = "live-orders";

const provinceOf = (location) => (location || "").split("/")[0];
const n = (value) => String(Math.round(value * 10) / 10);

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, value);
  return node;
}

// Where a unit at `location` stands: a coast's disc, else the province's anchor.
export function anchorOf(svg, location) {
  if (location.includes("/")) {
    const coast = svg.querySelector(`#coasts [data-location="${location}"]`);
    if (coast) return [Number(coast.getAttribute("cx")), Number(coast.getAttribute("cy"))];
  }
  const province = svg.querySelector(`#provinces [id="${provinceOf(location)}"]`);
  const anchor = province?.dataset.anchor;
  if (!anchor) return null;
  return anchor.split(" ").map(Number);
}

// Where the unit in `location`'s province is drawn (a dislodged one beside its victor), else the anchor.
function unitPoint(svg, location, dislodged) {
  const groups = [...svg.querySelectorAll("#units .unit-group[data-location]")].filter(
    (g) => provinceOf(g.dataset.location) === provinceOf(location),
  );
  const group = groups.find((g) => g.classList.contains("dislodged") === Boolean(dislodged)) || groups[0];
  if (group?.classList.contains("dislodged")) {
    const box = group.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
  return anchorOf(svg, group ? group.dataset.location : location);
}

function luminance(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function marker(svg, power, colour) {
  const id = `live-arrow-${power}`;
  if (!svg.querySelector(`[id="${id}"]`)) {
    const defs = svg.querySelector("defs") || svg.insertBefore(svgEl("defs"), svg.firstChild);
    const mark = svgEl("marker", { id, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4.2, markerHeight: 4.2, orient: "auto" });
    mark.append(svgEl("path", { d: "M0 0L10 5L0 10Z", fill: colour }));
    defs.append(mark);
  }
  return `url(#${id})`;
}

// The curve picture.py's arrow_path draws: cut clear of the units, bent to the left of travel.
function curve(start, end, bend) {
  let [x0, y0] = start;
  let [x1, y1] = end;
  const length = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / length;
  const uy = (y1 - y0) / length;
  const cut = Math.min(11, length / 3);
  [x0, y0, x1, y1] = [x0 + ux * cut, y0 + uy * cut, x1 - ux * cut, y1 - uy * cut];
  const cx = (x0 + x1) / 2 + uy * length * bend;
  const cy = (y0 + y1) / 2 - ux * length * bend;
  return `M${n(x0)} ${n(y0)}Q${n(cx)} ${n(cy)} ${n(x1)} ${n(y1)}`;
}

function midpoint(start, end, bend = 0.12) {
  const [[x0, y0], [x1, y1]] = [start, end];
  const length = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / length;
  const uy = (y1 - y0) / length;
  return [(x0 + x1) / 2 + (uy * length * bend) / 2, (y0 + y1) / 2 - (ux * length * bend) / 2];
}

function arrow(pen, start, end, label, { bend = 0.12, head = true } = {}) {
  const d = curve(start, end, bend);
  const out = [];
  if (pen.pale) out.push(svgEl("path", { class: `casing${label === "move" ? "" : ` casing-${label}`}`, d }));
  out.push(svgEl("path", { class: `order ${label}`, stroke: pen.colour, d, "marker-end": head ? pen.marker : null }));
  return out;
}

function ring(pen, [x, y], css, r) {
  return svgEl("circle", { class: css, stroke: pen.colour, cx: n(x), cy: n(y), r });
}

function cross([x, y], size = 9) {
  const d = `M${n(x - size)} ${n(y - size)}L${n(x + size)} ${n(y + size)}M${n(x - size)} ${n(y + size)}L${n(x + size)} ${n(y - size)}`;
  return svgEl("path", { class: "mark", d });
}

function builtUnit(pen, [x, y], type) {
  const group = svgEl("g", { class: "unit-group built" });
  const r = 9;
  group.append(
    type === "F"
      ? svgEl("path", { class: "unit", fill: pen.colour, d: `M${n(x - r - 3)} ${n(y - 5)}H${n(x + r + 3)}L${n(x + r - 1)} ${n(y + 6)}H${n(x - r + 1)}Z` })
      : svgEl("circle", { class: "unit", fill: pen.colour, cx: n(x), cy: n(y), r }),
  );
  const letter = svgEl("text", { class: "unit-letter", fill: pen.pale ? "#111" : "#fff", x: n(x), y: n(y + 0.5) });
  letter.textContent = type;
  group.append(letter, ring(pen, [x, y], "build", 14));
  return [group];
}

function mark(pen, [x, y], drawing) {
  const group = svgEl("g", { class: `conversion-mark ${drawing.label || ""}`.trim() });
  group.append(svgEl("rect", { class: "conversion", stroke: pen.colour, x: n(x - 14), y: n(y - 13), width: 28, height: 26, rx: 4 }));
  const text = svgEl("text", { class: "conversion-text", x: n(x), y: n(y - 19) });
  text.textContent = drawing.words || "";
  group.append(text);
  return [group];
}

// The SVG elements for one order's drawing ({shape, start, end, via, label, dislodged, unit, words}, as
// GET .../options and .../orders give it), or [] when it draws nothing. `moves`: where my units move.
function shapes(svg, pen, drawing, moves) {
  const { shape, start, end, via, label } = drawing;
  const at = (location) => unitPoint(svg, location, drawing.dislodged);
  switch (shape) {
    case "arrow":
      return arrow(pen, at(start), anchorOf(svg, end), label || "move");
    case "hold_line": {
      const target = unitPoint(svg, via);
      return [...arrow(pen, at(start), target, label || "support", { bend: 0, head: false }), ring(pen, target, "hold", 13)];
    }
    case "line": {
      const from = unitPoint(svg, via);
      const to = anchorOf(svg, moves.get(provinceOf(via)) || end || via);
      return arrow(pen, at(start), midpoint(from, to), label || "support", { bend: 0 });
    }
    case "ring":
      return [ring(pen, at(start), "hold", 13)];
    case "unit":
      return drawing.unit ? builtUnit(pen, anchorOf(svg, start), drawing.unit.type) : [];
    case "cross":
      return [cross(at(start))];
    case "mark":
      return mark(pen, at(start), drawing);
    default:
      return []; // "none": waives and module orders are lines in the list only
  }
}

const HELPING = new Set(["line", "hold_line"]); // a unit's help to another: drawn under the moves

// Draws `entries` ([{key, text, drawing}], drawing null for an order the page cannot draw) on the map's
// SVG, replacing what was drawn before. Each order is one <g class="live-order" data-key=...>.
export function drawOrders(svg, entries, power, colour) {
  svg.querySelector(`#${LAYER}`)?.remove();
  const layer = svgEl("g", { id: LAYER, "aria-hidden": "true" });
  const pen = { colour, pale: luminance(colour) > 0.6, marker: marker(svg, power, colour) };
  const drawn = entries.filter((e) => e.drawing && e.drawing.shape !== "none");
  // a support or convoy points at the move it helps: where each of my movers actually goes
  const moves = new Map(
    drawn
      .filter(({ drawing: d }) => d.shape === "arrow" && !d.dislodged && d.start && d.end)
      .map(({ drawing: d }) => [provinceOf(d.start), d.end]),
  );
  // supports and convoys first, so the move arrows lie over them, as on the history maps
  const ordered = [...drawn].sort((a, b) => HELPING.has(b.drawing.shape) - HELPING.has(a.drawing.shape));
  for (const entry of ordered) {
    let parts;
    try {
      parts = shapes(svg, pen, entry.drawing, moves);
    } catch {
      parts = []; // a location the drawing does not know: the order still stands in the list
    }
    if (!parts.length) continue;
    const group = svgEl("g", { class: `live-order shape-${entry.drawing.shape}`, "data-key": entry.key, "data-text": entry.text });
    group.append(...parts);
    layer.append(group);
  }
  const units = svg.querySelector("#units");
  if (units) units.before(layer);
  else svg.append(layer);
  return layer;
}

// Marks the arrow of the order with `key` (or none) as highlighted.
export function highlightOrder(svg, key) {
  if (!svg) return;
  for (const group of svg.querySelectorAll(`#${LAYER} .live-order`)) {
    group.classList.toggle("highlight", key !== null && group.dataset.key === key);
  }
}
