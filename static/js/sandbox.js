// The sandbox page: a tree of steps (positions), each ordered for every power with the game page's own
// components (game/*.js, orders/*.js: the same picker, clicks, arrows and order list), played, stepped
// through and branched; the position edited directly ("set up"); shared, copied and deleted. Everything
// goes through the REST API (/api/v1/sandboxes/<id>/...). A shared sandbox's visitor sees it read-only.

import { call } from "./api.js";
import { renderMine } from "./coming.js";
import { loadTimeline } from "./game/changes.js";
import { onMapClick } from "./game/clicking.js";
import { decorateMap } from "./game/marks.js";
import { loadOrders, renderOrderList, saveOrders, submitTyped } from "./game/ordersheet.js";
import { $, config, guarded, notice, page, provinceOf, setApi, state } from "./game/page.js";
import { loadOptions, renderOrdersPanel, selectUnit } from "./game/picker.js";
import { renderReport } from "./game/report.js";
import { attachMap, mapOf, zoomTouch } from "./mapview.js";
import { el } from "./orders/dom.js";
import { phaseTitle } from "./words.js";

const box = { detail: null, step: null, power: config.powers[0]?.name || null, showing: 0 };
const query = config.token ? `?token=${encodeURIComponent(config.token)}` : "";
const stepUrl = (n) => `${config.api}/steps/${n}`;

async function loadDetail() {
  const { body } = await call(config.api + query);
  box.detail = body;
  renderTree();
}

// --- one step -----------------------------------------------------------------------------------

// Shows step `number`; a later call (a second click while the first step still loads) wins.
async function show(number) {
  const asked = ++box.showing;
  const { body } = await call(stepUrl(number) + query);
  if (asked !== box.showing) return;
  box.step = body;
  const open = body.status === "open";
  state.game = {
    status: body.outcome ? "finished" : "active",
    current_phase: { name: body.phase, status: open ? "open" : "processed", index: number },
    powers: config.powers.map((p) => ({ power: p.name, status: "active" })),
    me: { power: box.power },
  };
  state.live = number;
  state.shown = number;
  history.replaceState(null, "", `#step-${number}`);
  $("phase-title").textContent = `Step ${number}: ${phaseTitle(body.phase)}${open ? "" : " (played)"}${body.outcome ? ", game over" : ""}`;
  $("step-back").disabled = body.parent === null;
  $("step-next").disabled = !body.children.length;
  const play = $("play");
  if (play) play.disabled = !open || Boolean(body.outcome);
  await loadMap(number);
  if (asked !== box.showing) return;
  renderReport({ ...body, name: body.phase, status: open ? "open" : "processed" });
  $("history-label").textContent = `Step ${number} · ${phaseTitle(body.phase)}`;
  renderTree();
  await Promise.all([ordersFor(box.power), comingForEvery(number)]);
}

// What the coming map changes do to every power's units and centres, power by power (coming.js words).
async function comingForEvery(number) {
  const { body } = await call(`${stepUrl(number)}/timeline${query}`);
  const names = Object.fromEntries(config.powers.map((p) => [p.name, p.display]));
  const powers = Object.entries(body.powers || {});
  const none = { option: () => null, given: () => false, choose: () => {} };
  $("coming-every-list").replaceChildren(
    ...(powers.length
      ? powers.map(([power, rows]) => {
          const list = el("ul", { class: "coming-mine" });
          renderMine(list, rows, none);
          return el("section", { class: "coming-power", "data-power": power }, el("h3", {}, names[power] || power), list);
        })
      : [el("p", { class: "muted" }, "The coming changes touch nobody's units or centres.")]),
  );
}

// The power whose orders, options and coming changes the page shows. One change at a time, in the order
// asked: the game page's loaders write the page's state when their answers come, so a click on another
// power's unit while a step is still loading must not have its answers overwritten by the step's.
let ordering = Promise.resolve();
function ordersFor(power) {
  const run = ordering.then(() => ordersNow(power));
  ordering = run.catch(() => {});
  return run;
}

async function ordersNow(power) {
  box.power = power;
  $("power-select").value = power;
  config.power = power;
  if (state.game) state.game.me.power = power;
  const n = box.step.number;
  setApi(`${stepUrl(n)}/powers/${power}`);
  config.timelineUrl = `${stepUrl(n)}/powers/${power}/timeline${query}`;
  if ($("orders-power")) $("orders-power").textContent = config.powers.find((p) => p.name === power)?.display || power;
  const jobs = [loadTimeline()];
  if (config.editable && box.step.status === "open") jobs.push(loadOptions(), loadOrders());
  else {
    state.options = null;
    state.orders = [];
  }
  await Promise.all(jobs);
  renderOrdersPanel();
  renderOrderList();
  decorateMap();
}

async function loadMap(number) {
  const response = await fetch(`${stepUrl(number)}/map.svg${query}`, { credentials: "same-origin" });
  const text = response.ok ? await response.text() : null;
  if (box.step?.number !== number) return; // another step was asked for meanwhile
  const map = $("map");
  if (text === null) {
    map.replaceChildren(el("p", { class: "error" }, "This map cannot be drawn."));
    return;
  }
  map.replaceChildren(mapOf(text));
  const svg = map.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Map of step ${number}`);
  map.setAttribute("aria-busy", "false");
  attachMap(svg, zoomButtons);
}

// --- the tree of steps --------------------------------------------------------------------------

function renderTree() {
  const list = $("step-tree");
  if (!box.detail) return;
  const rows = box.detail.steps;
  const depth = new Map();
  for (const row of rows) depth.set(row.number, row.parent === null ? 0 : (depth.get(row.parent) ?? 0) + 1);
  list.replaceChildren(
    ...rows.map((row) =>
      el(
        "li",
        { class: `step-row${box.step?.number === row.number ? " current" : ""}`, "data-step": String(row.number), "data-depth": String(depth.get(row.number)) },
        el(
          "button",
          { type: "button", class: "link", "aria-current": box.step?.number === row.number ? "step" : "false", onclick: () => guarded(() => show(row.number)) },
          `${"· ".repeat(depth.get(row.number))}${row.number}: ${phaseTitle(row.phase)}`,
        ),
        el("span", { class: "muted small" }, row.status === "played" ? " played" : " open", row.branched_from !== null ? ` (branch of ${row.branched_from})` : ""),
      ),
    ),
  );
}

// --- actions ------------------------------------------------------------------------------------

async function play() {
  const { body } = await call(`${stepUrl(box.step.number)}/play`, { method: "POST" });
  await loadDetail();
  await show(body.number);
  notice(`Adjudicated: now ${phaseTitle(body.phase)}.`, "ok");
}

async function branch() {
  const { body } = await call(`${stepUrl(box.step.number)}/branch`, { method: "POST" });
  await loadDetail();
  await show(body.number);
  notice(`Step ${body.number} is a copy of step ${body.branched_from}: try it differently.`, "ok");
}

// A played step is history: editing it edits a branch of it instead.
async function editable() {
  if (box.step.status === "open") return box.step.number;
  await branch();
  return box.step.number;
}

async function setup(location) {
  const where = (location || $("setup-location").value).trim().toUpperCase();
  if (!where) return notice("Say where: a province such as PAR, or a coast such as SPA/NC.", "error");
  const action = $("setup-action").value;
  const body =
    action === "place"
      ? { place: [{ power: box.power, type: $("setup-type").value, location: where }] }
      : action === "remove"
        ? { remove: [provinceOf(where)] }
        : { owners: { [provinceOf(where)]: action === "owner" ? box.power : null } };
  const number = await editable();
  await call(`${stepUrl(number)}/setup`, { method: "POST", json: body });
  $("setup-location").value = "";
  await show(number);
  notice(`Set up: ${action === "place" ? `${body.place[0].type} ${where} placed` : action === "remove" ? `unit in ${where} removed` : `${provinceOf(where)} ${action === "owner" ? `now ${box.power}'s` : "now nobody's"}`}.`, "ok");
}

async function share() {
  const shared = $("share").getAttribute("aria-pressed") !== "true";
  const { body } = await call(config.api, { method: "PATCH", json: { shared } });
  $("share").setAttribute("aria-pressed", String(body.shared));
  $("share").textContent = body.shared ? "Stop sharing" : "Share";
  $("share-line").hidden = !body.shared;
  if (body.shared) {
    const url = new URL(body.share_url, location.origin).href;
    $("share-link").href = url;
    $("share-link").textContent = url;
  }
  notice(body.shared ? "Anyone with the link can now see this sandbox (read-only)." : "The link no longer works.", "ok");
}

async function copy() {
  const { body } = await call(`${config.api}/copy${query}`, { method: "POST" });
  location.assign(body.page_url);
}

async function remove() {
  if (!window.confirm("Delete this sandbox and all its steps?")) return;
  await call(config.api, { method: "DELETE" });
  location.assign("/sandboxes/");
}

// --- the map ------------------------------------------------------------------------------------

function clicked(target) {
  const unit = target.closest(".unit-group[data-location]");
  const spot = target.closest("[data-location]") || target.closest("#provinces [id]");
  return unit ? unit.dataset.location : spot ? spot.dataset.location || spot.id : null;
}

// Before the game page's click handler: in set-up mode a click edits the position; otherwise a click on
// another power's unit makes that power the one ordered, then selects the unit as the game page does.
function onClick(event) {
  if (!box.step) return;
  const location = clicked(event.target);
  if (!location) return;
  if ($("setup-toggle")?.checked) {
    event.stopImmediatePropagation();
    guarded(() => setup(location));
    return;
  }
  if (!config.editable || state.selection) return;
  const unit = box.step.units.find((u) => provinceOf(u.location) === provinceOf(location))
    || (box.step.dislodged || []).find((u) => provinceOf(u.location) === provinceOf(location));
  if (unit && unit.power !== box.power) {
    event.stopImmediatePropagation();
    guarded(async () => {
      await ordersFor(unit.power);
      if (state.options?.units[unit.location]) selectUnit(unit.location);
    });
  }
}

function zoom(step) {
  if (zoomTouch(step)) return;
  const map = $("map");
  const level = Math.min(3, Math.max(1, Number(map.dataset.zoom || 1) + step));
  map.dataset.zoom = String(level);
  zoomButtons(level, 3);
}

function zoomButtons(level, max) {
  $("zoom-out").disabled = level <= 1.01;
  $("zoom-in").disabled = level >= max - 0.01;
}

const narrow = window.matchMedia("(max-width: 1000px)");
function placeOptions() {
  const options = $("unit-options");
  if (options) (narrow.matches ? $("options-slot") : $("options-home")).append(options);
}

function wire() {
  placeOptions();
  narrow.addEventListener("change", placeOptions);
  $("zoom-in").addEventListener("click", () => zoom(1));
  $("zoom-out").addEventListener("click", () => zoom(-1));
  zoom(0);
  $("map").addEventListener("click", onClick, true);
  $("map").addEventListener("click", (e) => guarded(() => onMapClick(e)));
  $("power-select").addEventListener("change", (e) => guarded(() => ordersFor(e.target.value)));
  $("step-back").addEventListener("click", () => guarded(() => show(box.step.parent)));
  $("step-next").addEventListener("click", () => guarded(() => show(box.step.children.at(-1))));
  $("play")?.addEventListener("click", () => guarded(play));
  $("branch")?.addEventListener("click", () => guarded(branch));
  $("share")?.addEventListener("click", () => guarded(share));
  $("copy")?.addEventListener("click", () => guarded(copy));
  $("delete")?.addEventListener("click", () => guarded(remove));
  $("setup-toggle")?.addEventListener("change", (e) => {
    $("setup-panel").hidden = !e.target.checked;
  });
  $("setup-apply")?.addEventListener("click", () => guarded(() => setup(null)));
  $("typed-form")?.addEventListener("submit", (e) => guarded(() => submitTyped(e)));
  $("clear-orders")?.addEventListener("click", () => guarded(async () => {
    state.orders = [];
    await saveOrders();
  }));
}

// A save refused because the step was played meanwhile (409) asks the page to look again.
page.refresh = async () => {
  await loadDetail();
  await show(box.step.number);
  return true;
};

async function start() {
  wire();
  await guarded(loadDetail);
  const asked = Number((location.hash.match(/^#step-(\d+)$/) || [])[1]);
  const known = box.detail?.steps.some((s) => s.number === asked);
  const first = known ? asked : box.detail?.steps.at(-1)?.number ?? 0;
  await guarded(() => show(first));
  document.body.dataset.ready = "true";
  document.body.dataset.loaded = "true";
}

start();
