// The last turn on the new phase's map: after a phase is processed, its orders and results (as the
// history map draws them: arrows, crosses on what failed) lie over the live map, with one line saying who
// took what, until the player hides them. Hidden is remembered per game and phase in this browser.

import { call } from "../api.js";
import { el } from "../orders/dom.js";
import { phaseTitle } from "../words.js";
import { $, API, config, provinceOf, state } from "./page.js";

const LAYER = "last-turn-orders";
const STYLE_ELEMENT = /<style>[\s\S]*?<\/style>/g;
const hiddenKey = (index) => `dip:last-turn:${API}:${index}`;
const names = Object.fromEntries(config.powers.map((p) => [p.name, p.display]));
const nameOf = (power) => names[power] || power;

function isHidden(index) {
  try {
    return localStorage.getItem(hiddenKey(index)) === "hidden";
  } catch {
    return false; // storage refused: the last turn shows until the next phase
  }
}

// Who took what: each centre a power's move or retreat entered that it did not own, each centre whose
// owner changed between the two phases, and each unit dislodged.
export function summary(phase, now) {
  const centres = new Set(phase.map?.supply_centres || []);
  const before = phase.owners || {};
  const took = new Map();
  const add = (power, province) => {
    if (!took.has(power)) took.set(power, new Set());
    took.get(power).add(province);
  };
  for (const r of phase.results || []) {
    const to = provinceOf(r.to);
    if (r.outcome === "success" && (r.kind === "move" || r.kind === "retreat") && centres.has(to) && before[to] !== r.power) {
      add(r.power, to);
    }
  }
  for (const [province, owner] of Object.entries(now?.owners || {})) {
    if (owner && before[province] !== owner && centres.has(province)) add(owner, province);
  }
  const parts = [...took].sort().map(([power, provinces]) => `${nameOf(power)} took ${[...provinces].sort().join(", ")}`);
  const lost = (phase.results || []).filter((r) => r.dislodged).map((r) => `${nameOf(r.power)}'s ${r.order.split(/\s+/).slice(0, 2).join(" ")}`);
  if (lost.length) parts.push(`dislodged: ${lost.join(", ")}`);
  return `${phaseTitle(phase.name)}: ${parts.length ? parts.join("; ") : "no centre changed hands"}.`;
}

function hide(index) {
  try {
    localStorage.setItem(hiddenKey(index), "hidden");
  } catch {
    // storage refused: hidden for this page only
  }
  clearLastTurn();
}

export function clearLastTurn() {
  $("map").querySelector(`#${LAYER}`)?.remove();
  const bar = $("last-turn");
  if (bar) {
    bar.hidden = true;
    bar.replaceChildren();
  }
}

// The processed phase's own orders layer and its arrowheads, copied into the live map's SVG.
function overlay(svg, text) {
  const doc = new DOMParser().parseFromString(text.replace(STYLE_ELEMENT, ""), "image/svg+xml");
  const orders = doc.querySelector("#orders");
  if (!orders) return;
  const defs = svg.querySelector("defs") || svg.insertBefore(document.createElementNS(svg.namespaceURI, "defs"), svg.firstChild);
  for (const marker of doc.querySelectorAll("defs marker")) {
    if (!svg.querySelector(`[id="${marker.id}"]`)) defs.append(document.importNode(marker, true));
  }
  const layer = document.importNode(orders, true);
  layer.id = LAYER;
  layer.setAttribute("class", "last-turn");
  layer.setAttribute("aria-hidden", "true");
  const units = svg.querySelector("#units");
  if (units) units.before(layer);
  else svg.append(layer);
}

// Shows the turn before the live phase `index` over its map, unless hidden; the map must be in place.
export async function showLastTurn(index) {
  clearLastTurn();
  if (!index || isHidden(index - 1)) return;
  const previous = index - 1;
  const [picture, phase] = await Promise.all([
    fetch(`${API}/phases/${previous}/map.svg`, { credentials: "same-origin" }).then((r) => (r.ok ? r.text() : null)),
    call(`${API}/phases/${previous}`).then((answer) => answer.body),
  ]);
  const svg = $("map").querySelector("svg");
  if (state.shown !== index || !svg || !phase || phase.status !== "processed") return;
  if (picture) overlay(svg, picture);
  const bar = $("last-turn");
  if (!bar) return;
  const now = state.report?.index === index ? state.report : null;
  bar.replaceChildren(
    el("p", { id: "last-turn-summary" }, el("strong", {}, "Last turn: "), summary(phase, now)),
    el("button", { type: "button", class: "secondary", id: "last-turn-hide", onclick: () => hide(previous) }, "Hide last turn"),
  );
  bar.hidden = false;
}
