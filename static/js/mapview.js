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

function fitLabels(svg) {
  const width = svg.clientWidth;
  const units = svg.viewBox?.baseVal?.width;
  if (!width || !units) return;
  svg.closest(".map")?.style.setProperty("--svg-units-per-px", (units / width).toFixed(3));
  fitStrokes(svg);
}

// Arrows keep a width a finger's screen can show: --units-per-screen-px is SVG units per CSS pixel as
// the map is drawn now, pinch-zoom included, and game.css widens thin strokes by it.
function fitStrokes(svg) {
  const width = svg.clientWidth;
  const units = svg.viewBox?.baseVal?.width;
  if (!width || !units) return;
  const scale = view && view.svg === svg ? view.panzoom.getScale() : 1;
  svg.closest(".map")?.style.setProperty("--units-per-screen-px", (units / width / scale).toFixed(3));
}

// --- pan and pinch-zoom on a touch screen -----------------------------------------------------------

const touch = window.matchMedia("(pointer: coarse)");
const MAX_SCALE = 8;
let view = null; // {panzoom, svg}: the map being panned
let kept = { scale: 1, x: 0, y: 0 }; // carried over when the next phase's map replaces this one

function touchAction(scale) {
  // Unzoomed, a finger moving up or down scrolls the page; zoomed in, it pans the map.
  return scale > 1.01 ? "none" : "pan-y";
}

function attachPanzoom(svg, onScale) {
  if (view) {
    kept = { scale: view.panzoom.getScale(), ...view.panzoom.getPan() };
    view.panzoom.destroy();
    view = null;
  }
  if (!touch.matches) return;
  const panzoom = Panzoom(svg, {
    minScale: 1,
    maxScale: MAX_SCALE,
    contain: "outside",
    startScale: kept.scale,
    startX: kept.x,
    startY: kept.y,
    touchAction: touchAction(kept.scale),
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
  fitStrokes(svg);
}

// --- taps big enough for a finger (WCAG 2.5.5: 44 by 44 CSS px) --------------------------------------

// A finger's target is at least TAP_UNITS SVG units across: each unit gets an invisible halo that wide
// (game.css widens the coast rings to match), and a tap on a map zoomed out further than one SVG unit to
// a CSS pixel first zooms it there, centred on the finger; the next tap chooses.
const TAP_UNITS = 46;

function addTapHalos(svg) {
  for (const group of svg.querySelectorAll("#units .unit-group")) {
    if (group.querySelector(".tap-halo")) continue;
    const box = group.getBBox();
    const halo = document.createElementNS(SVG_NS, "circle");
    halo.setAttribute("class", "tap-halo");
    halo.setAttribute("cx", String(box.x + box.width / 2));
    halo.setAttribute("cy", String(box.y + box.height / 2));
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
// and the band's keys as a list under it, in the page's own type.
function cropToBoard(svg) {
  const band = svg.querySelector("#legend > rect");
  const box = svg.viewBox?.baseVal;
  if (!band || !box) return;
  const top = Number(band.getAttribute("y"));
  if (top > 0 && top < box.height) svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${top}`);
  // The board's shape, so that the page can give the map a column as wide as a screen's height allows.
  svg.closest(".game-grid")?.style.setProperty("--board-aspect", (box.width / top).toFixed(4));
  fitColumn();
}

// The map's column: as wide as lets the whole board show below the map's top on this screen, but never
// so narrow that names fall under 11 CSS px (game.css draws them at most 19 SVG units): a short screen
// scrolls instead. The side panels take the rest.
const NAMES_LEGIBLE = 11 / 19;
function fitColumn() {
  const grid = document.querySelector(".game-grid");
  const svg = document.querySelector("#map svg");
  const aspect = Number(grid?.style.getPropertyValue("--board-aspect"));
  if (!grid || !svg || !aspect) return;
  const top = svg.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight - top - 12, 0);
  const frame = svg.closest(".map").offsetWidth - svg.getBoundingClientRect().width; // its border
  const legible = Math.ceil(svg.viewBox.baseVal.width * NAMES_LEGIBLE + frame) + 1;
  grid.style.setProperty("--map-width", `${Math.ceil(Math.max(room * aspect, legible))}px`);
  grid.classList.add("fitted");
}
window.addEventListener("resize", fitColumn);


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

// `onScale(scale, max)` hears of each zoom by fingers or buttons on a touch screen.
export function attachMap(svg, onScale) {
  renderKey(svg);
  cropToBoard(svg);
  if (observed !== svg) {
    if (observed) sizer.unobserve(observed); // the map of another phase replaced it
    observed = svg;
    sizer.observe(svg);
  }
  fitLabels(svg);
  attachPanzoom(svg, onScale);
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
// the text before it is parsed: the policy refuses inline <style> (no 'unsafe-inline'), even in a
// DOMParser document. Every phase's map has the same sheet (plain CSS, no markup characters).
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
  const doc = new DOMParser().parseFromString(text.replace(STYLE_ELEMENT, ""), "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}
