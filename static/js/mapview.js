// How the game page shows its map, beside what the map means: names big enough to read at the size the
// map is drawn, pan and pinch-zoom with fingers on a touch screen, and the province list (every
// province in words: its full name, terrain this season, centre and owner, unit), for readers who
// cannot see the map or want the names in full. The map's SVG is role="img", so this list is what a
// screen reader reads.

import Panzoom from "../vendor/panzoom/panzoom.es.js";
import { el } from "./orders/dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// --- names readable without zooming -----------------------------------------------------------------

// The SVG draws its labels in its own units; shrunk to the page's column they came out at 7 px. The map
// element carries how many SVG units one CSS pixel is (a custom property, set through the CSSOM, which
// the Content-Security-Policy allows), and game.css sizes the labels from it.
let observed = null; // the map's <svg> being watched: the last one shown
const sizer = new ResizeObserver((entries) => entries.forEach((entry) => fitLabels(entry.target)));

// A custom property of `node`, set only when it changes: an unchanged value restyles nothing.
function setVar(node, name, value) {
  if (node && node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}

// The <svg>'s CSS width, as placed (placeMap) or last seen by the sizer: a zoom needs no layout to know it.
const widths = new WeakMap();

function fitLabels(svg, width = svg.clientWidth) {
  const units = svg.viewBox?.baseVal?.width;
  if (!width || !units) return;
  widths.set(svg, width);
  setVar(svg.closest(".map"), "--svg-units-per-px", (units / width).toFixed(3));
  fitStrokes(svg, width);
}

// Arrows keep a width a finger's screen can show: --units-per-screen-px is SVG units per CSS pixel as
// the map is drawn now, pinch-zoom included, and game.css widens thin strokes by it.
function fitStrokes(svg, width = widths.get(svg) || svg.clientWidth) {
  const units = svg.viewBox?.baseVal?.width;
  if (!width || !units) return;
  const scale = view && view.svg === svg ? view.panzoom.getScale() : 1;
  setVar(svg.closest(".map"), "--units-per-screen-px", (units / width / scale).toFixed(3));
}

// --- pan and pinch-zoom on a touch screen -----------------------------------------------------------

const touch = window.matchMedia("(pointer: coarse)");
const MAX_SCALE = 8;
let view = null; // {panzoom, svg}: the map being panned
let kept = null; // {scale, x, y}: carried over when the next phase's map replaces this one

function touchAction(scale) {
  // Unzoomed, a finger moving up or down scrolls the page; zoomed in, it pans the map.
  return scale > 1.01 ? "none" : "pan-y";
}

// Where the first map on a phone starts, when the board is larger than its frame: centred on `focus` (SVG
// points: the player's own part of the board), else on the board's middle, as far as the board's edges let
// it. Panzoom's x and y are CSS px at scale 1.
function centred(svg, plan, frame, focus) {
  if (!plan.height || !frame) return { scale: 1, x: 0, y: 0 };
  const box = svg.viewBox.baseVal;
  const perUnit = plan.width / box.width;
  const size = { x: plan.width, y: box.height * perUnit };
  const room = { x: frame.width, y: plan.height - frame.borderY };
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const at = (axis) => (focus.length ? focus.reduce((sum, point) => sum + point[axis === "x" ? 0 : 1], 0) / focus.length : middle[axis]);
  const pan = (axis) => {
    const origin = axis === "x" ? box.x : box.y;
    const wanted = room[axis] / 2 - (at(axis) - origin) * perUnit;
    return Math.min(0, Math.max(room[axis] - size[axis], wanted));
  };
  return { scale: 1, x: pan("x"), y: pan("y") };
}

function attachPanzoom(svg, onScale, plan, frame, focus) {
  if (view) {
    kept = { scale: view.panzoom.getScale(), ...view.panzoom.getPan() };
    view.panzoom.destroy();
    view = null;
  }
  if (!touch.matches) return;
  const start = kept || centred(svg, plan, frame, focus);
  const panzoom = Panzoom(svg, {
    minScale: 1,
    maxScale: MAX_SCALE,
    contain: "outside",
    startScale: start.scale,
    startX: start.x,
    startY: start.y,
    touchAction: touchAction(start.scale),
    // Panzoom's default cancels the pointerdown; then a tap would no longer select a unit.
    handleStartEvent: () => {},
  });
  svg.addEventListener("panzoomchange", (event) => {
    const action = touchAction(event.detail.scale);
    if (panzoom.getOptions().touchAction !== action) panzoom.setOptions({ touchAction: action });
    svg.closest(".map").dataset.scale = event.detail.scale.toFixed(2);
    fitStrokes(svg);
    onScale(event.detail.scale, MAX_SCALE);
  });
  onScale(panzoom.getScale(), MAX_SCALE);
  svg.closest(".map").dataset.panzoom = "on";
  svg.closest(".map").dataset.scale = panzoom.getScale().toFixed(2);
  view = { panzoom, svg };
  addTapHalos(svg);
  fitStrokes(svg, plan.width);
}

// --- taps big enough for a finger (WCAG 2.5.5: 44 by 44 CSS px) --------------------------------------

// A finger's target is at least TAP_UNITS SVG units across: each unit gets an invisible halo that wide
// (game.css widens the coast rings to match), and a tap on a map zoomed out further than one SVG unit to
// a CSS pixel first zooms it there, centred on the finger; the next tap chooses.
const TAP_UNITS = 46;

// Each halo is centred on the unit's letter, which the server draws in the middle of the unit (half a
// unit low): read from its attributes, so no layout of the map is needed.
function addTapHalos(svg) {
  for (const group of svg.querySelectorAll("#units .unit-group")) {
    const letter = group.querySelector(".unit-letter");
    if (group.querySelector(".tap-halo") || !letter) continue;
    const halo = document.createElementNS(SVG_NS, "circle");
    halo.setAttribute("class", "tap-halo");
    halo.setAttribute("cx", letter.getAttribute("x"));
    halo.setAttribute("cy", String(Number(letter.getAttribute("y")) - 0.5));
    halo.setAttribute("r", String(TAP_UNITS / 2));
    group.prepend(halo);
  }
}

function tapScale(svg) {
  return Math.min(MAX_SCALE, (svg.viewBox.baseVal.width / svg.clientWidth) * 1.05);
}

// Zooms the map in on a tap that lands where its targets are still too small; true when it did.
export function zoomToTap(event) {
  if (!view || !event.target.closest?.("svg")) return false;
  const wanted = tapScale(view.svg);
  if (view.panzoom.getScale() >= wanted - 0.01) return false;
  view.panzoom.zoomToPoint(wanted, { clientX: event.clientX, clientY: event.clientY });
  // The map takes the screen, from its top; a unit's orders come in a sheet under it (game.css).
  view.svg.closest(".map").scrollIntoView({ block: "start" });
  return true;
}

// Zoom buttons on a touch screen zoom the panned map; elsewhere the caller widens the map instead.
export function zoomTouch(step) {
  if (!view) return false;
  if (step > 0) view.panzoom.zoomIn();
  else if (step < 0) view.panzoom.zoomOut();
  return true;
}

// --- the board on the screen, its key beside it ------------------------------------------------------

// The server's picture ends in a legend band whose words, shrunk with the map, came out at 8 px, and made
// the map taller than a laptop's screen. The page shows the board alone (its viewBox cut above the band)
// and the band's keys as a list under it, in the page's own type. Reads attributes only, no layout.
function cropToBoard(svg) {
  const band = svg.querySelector("#legend > rect");
  const box = svg.viewBox?.baseVal;
  if (!band || !box) return;
  const top = Number(band.getAttribute("y"));
  if (top > 0 && top < box.height) svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${top}`);
}

// Where the map's frame is on the page, read before a map goes in: the page's layout is then clean and
// cheap to read, and the map's own layout is needed by nothing before the browser draws it (a forced
// layout of the whole map cost as much as drawing it, four times over). A touch screen's frame takes its
// panning shape first (edge to edge on a phone, game.css).
export function measureFrame(map) {
  if (!map) return null;
  if (touch.matches) map.dataset.panzoom = "on";
  const grid = map.closest(".game-grid");
  const rect = map.getBoundingClientRect();
  const border = map.offsetWidth - map.clientWidth;
  return {
    top: rect.top + window.scrollY + border / 2,
    width: map.clientWidth,
    border,
    borderY: map.offsetHeight - map.clientHeight,
    grid: grid ? grid.clientWidth : 0,
    gap: grid ? parseFloat(getComputedStyle(grid).columnGap) || 0 : 0,
    rem: parseFloat(getComputedStyle(document.documentElement).fontSize) || 16,
    screen: { width: window.innerWidth, height: window.innerHeight },
  };
}

// The map's column on a laptop: as wide as lets the whole board show below the map's top on this screen,
// but never so narrow that names fall under 11 CSS px (game.css draws them at most 19 SVG units): a short
// screen scrolls instead. The side panels take the rest (at least 21rem, game.css). On a phone the map
// takes the screen below its top (the orders come in a sheet over it): the board fills the frame's height
// and pans sideways, or fills its width when the board is the taller. `width` is the <svg>'s CSS width.
const NAMES_LEGIBLE = 11 / 19;
const SIDE_REM = 21;
const narrow = window.matchMedia("(max-width: 1000px)");
const phone = window.matchMedia("(max-width: 720px) and (pointer: coarse)");

function planMap(svg, frame) {
  const box = svg.viewBox.baseVal;
  const aspect = box.width / box.height;
  const room = Math.max(frame.screen.height - frame.top - 12, 0);
  if (phone.matches) {
    const height = Math.round(Math.max(room, 0.6 * frame.screen.height));
    const fill = frame.width / height < aspect ? "height" : "width";
    const inside = height - frame.borderY; // the <svg>'s height: the frame's, inside its border
    return { width: fill === "height" ? Math.round(inside * aspect) : frame.width, height, fill };
  }
  const zoom = Number(svg.closest(".map")?.dataset.zoom || 1);
  if (narrow.matches || !frame.grid) return { width: frame.width * zoom };
  const legible = Math.ceil(box.width * NAMES_LEGIBLE + frame.border) + 1;
  const mapWidth = Math.ceil(Math.max(room * aspect, legible));
  const column = Math.max(Math.min(mapWidth, frame.grid - SIDE_REM * frame.rem - frame.gap), 0);
  return { width: (column - frame.border) * zoom, mapWidth };
}

function placeMap(svg, frame) {
  const map = svg.closest(".map");
  const grid = map?.closest(".game-grid");
  const plan = planMap(svg, frame);
  if (plan.mapWidth && grid) {
    setVar(grid, "--map-width", `${plan.mapWidth}px`);
    grid.classList.add("fitted");
  }
  if (plan.height) {
    setVar(map, "--map-height", `${plan.height}px`);
    setVar(map, "--svg-width", `${plan.width}px`);
    map.dataset.fill = plan.fill;
  } else if (map) delete map.dataset.fill;
  fitLabels(svg, plan.width);
  return plan;
}

let placed = null; // {svg, width, top}: the map last placed, the screen width and the top it was placed for

function place(svg, frame, focus = []) {
  const plan = placeMap(svg, frame);
  placed = { svg, focus, width: frame.screen.width, top: frame.top };
  return plan;
}

window.addEventListener("resize", () => {
  if (!placed || !placed.svg.isConnected) return;
  // A phone's bars coming and going change the screen's height only: the map stays as it is.
  if (phone.matches && window.innerWidth === placed.width) return;
  place(placed.svg, measureFrame(placed.svg.closest(".map")), placed.focus);
});

// Places the map again if what came above it since (the phase's name and deadline filled in, a notice)
// moved its top: the page calls it once every panel is filled.
export function refitMap() {
  if (!placed || !placed.svg.isConnected) return;
  const frame = measureFrame(placed.svg.closest(".map"));
  if (Math.abs(frame.top - placed.top) < 1) return;
  const { svg, focus } = placed;
  const plan = place(svg, frame, focus);
  // An unzoomed phone's map shows the same part of the board again, in its new size.
  if (view && view.svg === svg && view.panzoom.getScale() < 1.01 && plan.height) {
    const start = centred(svg, plan, frame, focus);
    view.panzoom.pan(start.x, start.y, { force: true });
  }
}

// Each key of the legend band (its marks, then its words) as an item of the list #map-key.
function renderKey(svg) {
  const list = document.getElementById("map-key");
  const legend = svg.querySelector("#legend");
  if (!list || !legend) return;
  const items = [];
  let marks = [];
  for (const node of legend.children) {
    if (node.matches("text.legend-title")) marks = [];
    else if (node.matches("text.legend-text")) {
      items.push(keyItem(marks, node.textContent));
      marks = [];
    } else marks.push(node);
  }
  list.replaceChildren(...items);
}

function keyItem(marks, words) {
  const mark = document.createElementNS(SVG_NS, "svg");
  mark.setAttribute("class", "key-mark");
  mark.setAttribute("aria-hidden", "true");
  const boxes = marks.map((m) => m.getBBox());
  if (boxes.length) {
    const x = Math.min(...boxes.map((b) => b.x)) - 3;
    const y = Math.min(...boxes.map((b) => b.y)) - 3;
    const width = Math.max(...boxes.map((b) => b.x + b.width)) - x + 3;
    const height = Math.max(...boxes.map((b) => b.y + b.height)) - y + 3;
    mark.setAttribute("viewBox", `${x} ${y} ${width} ${height}`);
    mark.setAttribute("width", String(Math.round(width)));
    mark.setAttribute("height", String(Math.round(height)));
    mark.append(...marks.map((m) => m.cloneNode(true)));
    mark.querySelectorAll("title").forEach((t) => t.remove()); // a sample unit names no one
  }
  return el("li", {}, mark, el("span", {}, words));
}

// `onScale(scale, max)` hears of each zoom by fingers or buttons on a touch screen. `frame` is the map's
// frame measured before the svg went in (measureFrame); without it the frame is measured now. `focus`
// (SVG points) is the part of the board a phone's first map shows, when the board is larger than the screen.
export function attachMap(svg, onScale, frame = null, focus = []) {
  cropToBoard(svg);
  frame ||= measureFrame(svg.closest(".map"));
  const plan = place(svg, frame, focus);
  if (observed !== svg) {
    if (observed) sizer.unobserve(observed); // the map of another phase replaced it
    observed = svg;
    sizer.observe(svg);
  }
  attachPanzoom(svg, onScale, plan, frame, focus);
  // The key under the map waits for the map's first drawing: it measures the band's marks.
  afterPaint(() => renderKey(svg));
}

// Runs `job` once the browser has drawn what is on the page now (its layout then costs nothing to read).
export function afterPaint(job) {
  requestAnimationFrame(() => setTimeout(job, 0));
}

// --- the province list --------------------------------------------------------------------------------

const TERRAIN = { land: "land", sea: "sea", impassable: "impassable", absent: "not on the board" };

function terrainWords(terrain, path) {
  const word = TERRAIN[terrain] || terrain || "";
  if (path.classList.contains("dried")) return `${word} (dried out: was sea)`;
  if (path.classList.contains("drowned")) return `${word} (flooded: was land)`;
  return word;
}

function unitWords(unit, powerName, dislodged) {
  if (!unit) return "";
  const coast = unit.location.includes("/") ? ` (${unit.location.split("/")[1]})` : "";
  const kind = unit.type === "F" ? "Fleet" : "Army";
  return `${kind}${coast}, ${powerName(unit.power)}${dislodged ? ", dislodged" : ""}`;
}

// `phase` is GET .../phases/<i> for the phase the map shows; `powerName` gives a power's display name.
export function renderProvinceList(svg, phase, powerName) {
  const body = document.getElementById("province-body");
  if (!body) return;
  const caption = document.getElementById("province-caption");
  if (!svg || !phase || (svg.dataset.phase && phase.name && svg.dataset.phase !== phase.name)) {
    body.replaceChildren();
    return;
  }
  const byProvince = (units) => new Map((units || []).map((u) => [u.location.split("/")[0], u]));
  const units = byProvince(phase.units);
  const dislodged = byProvince(phase.dislodged);
  const centres = new Set(phase.map?.supply_centres || []);
  const owners = phase.owners || {};
  const rows = [...svg.querySelectorAll("#provinces path.province[id]")].map((path) => {
    const code = path.id;
    const name = path.querySelector("title")?.textContent || code;
    const centre = centres.has(code) ? (owners[code] ? `${powerName(owners[code])}'s centre` : "neutral centre") : "";
    const unit = [unitWords(units.get(code), powerName, false), unitWords(dislodged.get(code), powerName, true)]
      .filter(Boolean)
      .join("; ");
    return el(
      "tr",
      { "data-province": code },
      el("th", { scope: "row" }, el("span", { class: "code" }, code), " ", name),
      el("td", {}, terrainWords(phase.map?.terrain?.[code], path)),
      el("td", {}, centre),
      el("td", {}, unit),
    );
  });
  rows.sort((a, b) => a.dataset.province.localeCompare(b.dataset.province));
  body.replaceChildren(...rows);
  if (caption) caption.textContent = `${rows.length} provinces, ${svg.getAttribute("aria-label")?.replace(/^Map of /, "") || ""}`;
}

// The map's own stylesheet is adopted as a constructed stylesheet, and its <style> element cut out of
// the text before it is parsed: the policy refuses inline <style> (no 'unsafe-inline'). Every phase's map has the same sheet (plain CSS, no markup characters).
const STYLE_ELEMENT = /<style>([\s\S]*?)<\/style>/g;
const mapSheets = new Map();
export function mapOf(text) {
  for (const [, css] of text.matchAll(STYLE_ELEMENT)) {
    if (!mapSheets.has(css)) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      mapSheets.set(css, sheet);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }
  }
  // Parsed by the page's own HTML parser, straight into this document: an XML document's nodes had to be
  // copied over one by one (importNode), which took as long again as parsing them.
  const range = document.createRange();
  range.selectNodeContents(document.body);
  return range.createContextualFragment(text.replace(STYLE_ELEMENT, "")).querySelector("svg");
}
