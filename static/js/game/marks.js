// What the live map shows beside the phase's own drawing: my units, the selected one and where the
// next click may land, my orders as arrows, and the provinces the next map change touches.

import { drawOrders, highlightOrder } from "../orders/arrows.js";
import { optionsInMode } from "../orders/clicks.js";
import { $, colours, config, isLive, offeredBuilds, provinceNode, provinceOf, state, unitNode } from "./page.js";

export function decorateMap() {
  const map = $("map");
  map.classList.toggle("history-view", !isLive());
  map.querySelectorAll(".mine, .selected, .target").forEach((n) => n.classList.remove("mine", "selected", "target"));
  map.querySelectorAll(".coast-label").forEach((n) => n.remove());
  if (isLive() && state.options) {
    for (const location of Object.keys(state.options.units)) {
      unitNode(location)?.classList.add("mine");
    }
    if (state.selection) {
      unitNode(state.selection.unit)?.classList.add("selected");
      if (state.selection.target) unitNode(state.selection.target)?.classList.add("selected");
      for (const location of clickTargets(state.selection)) markTarget(location);
    } else {
      for (const option of offeredBuilds()) if (option.location) markTarget(option.location);
    }
  }
  highlightComing();
  drawMine();
}

// What the next click may land on, for the highlight: destinations, or the units to support or convoy.
function clickTargets({ unit, mode, target }) {
  const own = optionsInMode(state.options.units[unit] || [], mode);
  if ((mode === "support" || mode === "convoy") && !target) return own.map((o) => o.target);
  if (target) {
    const helped = own.filter((o) => provinceOf(o.target) === target);
    return helped.map((o) => (o.kind === "support_hold" ? o.target : o.dest));
  }
  const moves = optionsInMode(state.options.units[unit] || [], "move");
  return (moves.length ? moves : own).map((o) => o.dest).concat(mode === "move" ? optionsInMode(state.options.units[unit] || [], "via").map((o) => o.dest) : []);
}

function markTarget(location) {
  provinceNode(location)?.classList.add("target");
  const coast = location.includes("/") && $("map").querySelector(`#coasts [data-location="${location}"]`);
  if (!coast || coast.classList.contains("target")) return;
  coast.classList.add("target");
  // the coast's name beside its disc, so "SPA/NC" can be told from "SPA/SC" at a glance
  const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
  label.setAttribute("class", "coast-label");
  label.setAttribute("x", String(Number(coast.getAttribute("cx")) + 11));
  label.setAttribute("y", String(Number(coast.getAttribute("cy"))));
  label.textContent = location.split("/")[1];
  coast.after(label);
}

// My orders on the live map, as the history maps draw them, before adjudication.
export function drawMine() {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  if (!isLive() || !state.options || !config.power) {
    svg.querySelector("#live-orders")?.remove();
    return;
  }
  // each order's own drawing, as the server gave it (an order given by a click: its option's, at once)
  const entries = state.orders
    .filter((o) => o.valid !== false && !o.shadowed)
    .map((o) => {
      const option = state.byText.get(o.text.toUpperCase());
      return { key: o.key, text: option?.text || o.text, drawing: o.drawing || option?.drawing || null };
    });
  drawOrders(svg, entries, config.power, colours[config.power] || "#777777");
  highlightOrder(svg, state.highlighted ?? null);
}

// The order under the pointer or focus, picked out on the map.
export function highlight(key) {
  state.highlighted = key;
  highlightOrder($("map").querySelector("svg"), key);
}

// The provinces of the next map change listed under "changes coming".
export function highlightComing() {
  const map = $("map");
  map.querySelectorAll(".coming").forEach((n) => n.classList.remove("coming"));
  highlightWatched();
  if (!isLive()) return;
  const next = $("changes-list").querySelector("li.next");
  for (const province of (next?.dataset.provinces || "").split(" ").filter(Boolean)) {
    provinceNode(province)?.classList.add("coming");
  }
}

// The provinces a conditional change's condition names, while the player points at it or has it picked.
export function highlightWatched() {
  const map = $("map");
  map.querySelectorAll(".watched").forEach((n) => n.classList.remove("watched"));
  for (const province of state.watched.provinces) provinceNode(province)?.classList.add("watched");
}
