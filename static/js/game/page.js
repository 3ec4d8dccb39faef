// What every part of the game page shares: its configuration, its state, the notice line, and the
// questions about the phase shown that the map and the orders both ask.

import { buildsOffered } from "../orders/builds.js";

export const config = JSON.parse(document.getElementById("game-config").textContent);
export let API = config.api; // /api/v1/games/<id>
// The sandbox page (sandbox.js) orders one power of one step at a time through these same components.
export function setApi(url) {
  API = url;
}
export const $ = (id) => document.getElementById(id);
export const provinceOf = (location) => (location || "").split("/")[0];
export const colours = Object.fromEntries(config.powers.map((p) => [p.name, p.colour]));

export const state = {
  game: null,
  etag: null,
  live: null, // index of the phase taking orders (or the last phase)
  shown: null, // index of the phase on the map
  report: null, // GET .../phases/<shown>: the phase on the map, with its results
  options: null, // {units: {loc: [option]}, builds, conversions, module_orders} for the live phase
  timeline: null, // GET .../timeline: {entries, undrawn, blizzards, conditions}
  // the conditional change pointed at and the one picked (event numbers), and its condition's provinces
  watched: { hovered: null, pinned: null, provinces: [] },
  orders: [], // [{key, text, valid, reason}]
  selected: null, // location of the unit whose options are shown
  selection: null, // {unit, mode, target}: what the next click on the map means (orders/clicks.js)
  highlighted: null, // key of the order the pointer or focus is on
  byText: new Map(), // option text (upper case) -> option, for drawing my orders
};

// Set by game.js: fetch the game afresh (the parts that find it has moved on, e.g. a save refused
// with 409, call it without importing the page's entry module).
export const page = { refresh: async () => false };

// `action` {label, run} shows one button beside the message (Undo after an order given by a click);
// any later notice takes it away.
let noticeAction = null;
export function notice(message, kind = "info", action = null) {
  const box = $("notice");
  box.textContent = message;
  box.className = `notice ${kind}`;
  box.hidden = !message;
  const button = $("notice-action");
  if (!button) return;
  noticeAction = action;
  button.hidden = !action || !message;
  button.textContent = action ? action.label : "";
  if (!button.dataset.wired) {
    button.dataset.wired = "true";
    button.addEventListener("click", () => noticeAction && guarded(noticeAction.run));
  }
}

export async function guarded(action) {
  try {
    await action();
  } catch (error) {
    notice(error.message, "error");
  }
}

export function phaseOpen() {
  return state.game ? state.game.current_phase?.status === "open" && state.game.status === "active" : config.phaseOpen;
}

export function isLive() {
  return state.shown === state.live && phaseOpen();
}

export function unitNode(location) {
  return $("map").querySelector(`#units .unit-group[data-location="${location}"]`);
}

export function provinceNode(location) {
  return $("map").querySelector(`#provinces [id="${provinceOf(location)}"]`);
}

// My option named by an order's text (as offered, or as the server wrote it back).
export const optionOf = (text) => state.byText.get(text.toUpperCase());

// The builds the server will accept beside my orders so far (a home-centres-first rule holds some back).
export const offeredBuilds = () => buildsOffered(state.options, state.orders, optionOf);

// My unit in `location`'s province, by the location my options name it with, or null.
export function findMyUnit(location) {
  if (state.options.units[location]) return location;
  return Object.keys(state.options.units).find((loc) => provinceOf(loc) === provinceOf(location)) || null;
}
