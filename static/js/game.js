// The game page: the phase map, ordering by click or by keyboard, my orders with their validation,
// the ready toggle, press, the history slider and the map changes coming. Everything goes through the
// REST API (/api/v1/); the page polls the game with ETags and refreshes itself when a phase is processed.

import { ApiError, call } from "./api.js";
import { renderMine } from "./coming.js";
import { drawOrders, highlightOrder } from "./orders/arrows.js";
import { buildRefusal, buildRuleWords, buildsOffered } from "./orders/builds.js";
import { MODE_KEYS, renderChooser, renderQuestion } from "./orders/chooser.js";
import { interpret, modesOf, optionsInMode, unitName } from "./orders/clicks.js";
import { askBeforeReady, readyProblems } from "./orders/ready.js";
import { loadChannels, loadPress, sendPress } from "./press.js";
import { attachMap, renderProvinceList, zoomTouch } from "./mapview.js";
import { showDeadline } from "./time.js";
import { changeWords, comingChanges, eventWords, hookWords, phaseTitle, savedWords, whenWords } from "./words.js";

const config = JSON.parse(document.getElementById("game-config").textContent);
const API = config.api; // /api/v1/games/<id>
const POLL_MS = 4000;
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    // Through the CSSOM: the policy refuses style attributes (no 'unsafe-inline'), not this.
    else if (key === "style") node.style.cssText = value;
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const provinceOf = (location) => (location || "").split("/")[0];
const colours = Object.fromEntries(config.powers.map((p) => [p.name, p.colour]));

const state = {
  game: null,
  etag: null,
  live: null, // index of the phase taking orders (or the last phase)
  shown: null, // index of the phase on the map
  options: null, // {units: {loc: [option]}, builds, conversions, module_orders} for the live phase
  timeline: null, // GET .../timeline: {entries, undrawn, blizzards}
  orders: [], // [{key, text, valid, reason}]
  selected: null, // location of the unit whose options are shown
  selection: null, // {unit, mode, target}: what the next click on the map means (orders/clicks.js)
  byText: new Map(), // option text (upper case) -> option, for drawing my orders
};

// --- notices ------------------------------------------------------------------------------------

function notice(message, kind = "info") {
  const box = $("notice");
  box.textContent = message;
  box.className = `notice ${kind}`;
  box.hidden = !message;
}

async function guarded(action) {
  try {
    await action();
  } catch (error) {
    notice(error.message, "error");
  }
}

// --- the game -----------------------------------------------------------------------------------

async function loadGame() {
  const { status, body, etag } = await call(API, { etag: state.etag });
  if (status === 304) return false;
  const previous = state.game;
  state.game = body;
  state.etag = etag;
  // The page's other panels (actions.js) read the same answer instead of asking the server again.
  document.dispatchEvent(new CustomEvent("dip:game", { detail: body }));
  renderHead();
  renderPowers();
  if (state.report) renderReport(state.report); // civil disorder is known from the game
  const phase = body.current_phase;
  const live = phase ? phase.index : null;
  $("history").max = Math.max(0, (body.phases || 1) - 1);
  if (!previous && live === state.live) {
    renderChanges(); // the first answer: start() fetches the phase's map, options and orders meanwhile
    return true;
  }
  if (live !== state.live) {
    const followingLive = state.shown === null || state.shown === state.live;
    state.live = live;
    if (previous && previous.current_phase && phase) notice(`The game has moved on: now ${phaseTitle(phase.name)}.`);
    await enterLivePhase(followingLive);
  }
  return true;
}

function renderHead() {
  const { game } = state;
  const phase = game.current_phase;
  const over = game.status === "finished";
  $("phase-title").textContent = over
    ? `Game over${game.winners.length ? `: ${game.winners.join(", ")} won` : ""}`
    : phase
      ? phaseTitle(phase.name) + (game.status === "paused" ? " (paused)" : "")
      : "Waiting for players";
  const due = phase && phase.status === "open" && !over ? phase.deadline : null;
  $("deadline-wrap").hidden = !due;
  showDeadline($("deadline"), due);
  const toggle = $("ready-toggle");
  if (toggle) {
    const mine = game.powers.find((p) => p.power && p.power === game.me.power);
    toggle.checked = Boolean(mine && mine.ready);
    toggle.disabled = !mine || !phaseOpen() || over;
  }
  $("game").dataset.state = game.status;
}

function renderPowers() {
  const body = $("powers-body");
  body.replaceChildren(
    ...state.game.powers
      .map((p) => {
        // The API says whether a power has orders to give and whether it gave some, never which.
        const orders = !p.power
          ? "—"
          : p.status === "civil_disorder"
            ? "civil disorder"
            : !phaseOpen() || !p.needs_orders
            ? "nothing to order"
            : p.ready
              ? "ready"
              : p.has_orders
                ? "done"
                : "waiting";
        return el(
          "tr",
          { class: p.power === state.game.me.power ? "me" : "" },
          el("td", {}, el("span", { class: "swatch", style: `--power: ${colours[p.power] || "#999"}` }), p.power || "to be drawn"),
          el("td", {}, p.player || "—"),
          el("td", {}, String(p.centres)),
          el("td", {}, String(p.units)),
          el("td", { class: `state-${orders.replaceAll(" ", "-")}` }, orders),
        );
      }),
  );
}

async function enterLivePhase(showIt) {
  if (showIt || state.shown === null) await showPhase(state.live ?? 0);
  else updateHistoryControls();
  await loadTimeline();
  if (config.seated && state.game.me.power && state.game.current_phase?.status === "open") {
    await Promise.all([loadOptions(), loadOrders()]);
  } else {
    state.options = null;
    renderOrdersPanel();
  }
}

// --- the map ------------------------------------------------------------------------------------

async function showPhase(index) {
  state.shown = index;
  updateHistoryControls();
  await Promise.all([loadMap(index), loadReport(index)]);
}

// The map's own stylesheet is adopted as a constructed stylesheet, and its <style> element cut out of
// the text before it is parsed: the policy refuses inline <style> (no 'unsafe-inline'), even in a
// DOMParser document. Every phase's map has the same sheet (plain CSS, no markup characters).
const STYLE_ELEMENT = /<style>([\s\S]*?)<\/style>/g;
const mapSheets = new Map();
function mapOf(text) {
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

// Power colours come as data-power-colour (a style attribute is refused by the policy).
for (const chip of document.querySelectorAll("[data-power-colour]")) {
  chip.style.setProperty("--power", chip.dataset.powerColour);
}

async function loadMap(index) {
  const mapUrl = `${API}/phases/${index}/map.svg`;
  $("dl-svg").href = mapUrl;
  $("dl-png").href = `${API}/phases/${index}/map.png?width=1600`;
  const response = await fetch(mapUrl, { credentials: "same-origin" });
  const text = response.ok ? await response.text() : null;
  if (state.shown !== index) return; // the player moved the slider on meanwhile
  const map = $("map");
  if (text) {
    map.replaceChildren(mapOf(text));
    const svg = map.querySelector("svg");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Map of ${phaseTitle(svg.dataset.phase || "")}`);
    map.dataset.phase = svg.dataset.phase || "";
    attachMap(svg, zoomButtons);
  } else {
    map.replaceChildren(el("p", { class: "error" }, "This map cannot be drawn."));
  }
  map.setAttribute("aria-busy", "false");
  decorateMap();
  renderProvinces();
}

// The province list says in words what the map shows, once the map and its phase have both come.
function renderProvinces() {
  const names = Object.fromEntries(config.powers.map((p) => [p.name, p.display]));
  renderProvinceList($("map").querySelector("svg"), state.report, (power) => names[power] || power);
}

async function loadReport(index) {
  const { body } = await call(`${API}/phases/${index}`);
  if (state.shown !== index) return;
  renderReport(body);
}

function phaseOpen() {
  return state.game ? state.game.current_phase?.status === "open" && state.game.status === "active" : config.phaseOpen;
}

function isLive() {
  return state.shown === state.live && phaseOpen();
}

function decorateMap() {
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
function drawMine() {
  const svg = $("map").querySelector("svg");
  if (!svg) return;
  if (!isLive() || !state.options || !config.power) {
    svg.querySelector("#live-orders")?.remove();
    return;
  }
  const entries = state.orders
    .filter((o) => o.valid !== false && !o.shadowed)
    .map((o) => ({ key: o.key, option: state.byText.get(o.text.toUpperCase()) || null }));
  drawOrders(svg, entries, config.power, colours[config.power] || "#777777");
  highlightOrder(svg, state.highlighted ?? null);
}

function unitNode(location) {
  return $("map").querySelector(`#units .unit-group[data-location="${location}"]`);
}

function provinceNode(location) {
  return $("map").querySelector(`#provinces [id="${provinceOf(location)}"]`);
}

function onMapClick(event) {
  if (!isLive() || !state.options) return;
  const location = clickedLocation(event.target);
  if (!location) return;
  const occupant = occupantOf(location);
  if (state.selection) {
    const result = interpret(state.options, state.selection, location, occupant);
    const moving = state.selection.mode === "move" || state.selection.mode === "via";
    if (result.type === "explain" && moving && occupant?.mine) return selectUnit(occupant.location);
    return applyClick(result);
  }
  const mine = findMyUnit(location);
  if (mine) return selectUnit(mine);
  const builds = offeredBuilds().filter((o) => provinceOf(o.location) === provinceOf(location));
  if (builds.length === 1) return chooseOption(builds[0]);
  if (builds.length) return ask(`What do you build in ${provinceOf(location)}?`, builds.map((o) => ({ label: o.text, option: o })));
  return notice(buildRefusal(state.options, state.orders, optionOf, provinceOf(location)) || idleWords(location), "error");
}

// My option named by an order's text (as offered, or as the server wrote it back).
const optionOf = (text) => state.byText.get(text.toUpperCase());

// The builds the server will accept beside my orders so far (a home-centres-first rule holds some back).
const offeredBuilds = () => buildsOffered(state.options, state.orders, optionOf);

function showBuildRule() {
  const line = $("build-rule");
  if (!line) return;
  line.textContent = state.options && phaseOpen() ? buildRuleWords(state.options, state.orders, optionOf) : "";
  line.hidden = !line.textContent;
}

function clickedLocation(target) {
  const unit = target.closest(".unit-group[data-location]");
  const spot = target.closest("[data-location]") || target.closest("#provinces [id]");
  return unit ? unit.dataset.location : spot ? spot.dataset.location || spot.id : null;
}

// The unit standing in `location`'s province on the map shown: {location, name, mine}, or null.
function occupantOf(location) {
  const groups = [...$("map").querySelectorAll("#units .unit-group[data-location]")];
  const group = groups.find((g) => provinceOf(g.dataset.location) === provinceOf(location) && !g.classList.contains("dislodged"));
  if (!group) return null;
  const at = group.dataset.location;
  const letter = group.querySelector(".unit-letter")?.textContent || "";
  const mine = findMyUnit(at);
  return { location: mine || at, name: mine ? unitName(state.options, mine) : `${letter} ${at}`.trim(), mine: Boolean(mine) };
}

// Why a click with nothing selected gives no order.
function idleWords(location) {
  const province = provinceOf(location);
  const units = Object.keys(state.options.units);
  if (units.length) return `${province}: not one of your units. Click one of yours first: ${units.map((u) => unitName(state.options, u)).join(", ")}.`;
  const builds = [...new Set(offeredBuilds().map((o) => provinceOf(o.location)).filter(Boolean))];
  if (builds.length) return `You cannot build in ${province}. You may build in ${builds.join(", ")}.`;
  return "You have nothing to order on the map this phase.";
}

function applyClick(result) {
  if (result.type === "order") return chooseOption(result.option);
  if (result.type === "ask") return ask(result.question, result.choices);
  if (result.type === "step") {
    state.selection = result.selection;
    showChooser(result.prompt);
    return decorateMap();
  }
  return notice(result.message, "error");
}

function ask(question, choices) {
  renderQuestion(
    $("unit-options"),
    question,
    choices,
    (choice) => {
      if (choice.option) return guarded(() => chooseOption(choice.option));
      if (choice.select) return selectUnit(choice.select);
      selectUnit(state.selection.unit, choice.mode);
      return applyClick(interpret(state.options, state.selection, choice.target, occupantOf(choice.target)));
    },
    () => (state.selection ? showChooser() : $("unit-options").replaceChildren()),
  );
}

function findMyUnit(location) {
  if (state.options.units[location]) return location;
  return Object.keys(state.options.units).find((loc) => provinceOf(loc) === provinceOf(location)) || null;
}

// --- orders -------------------------------------------------------------------------------------

async function loadOptions() {
  const { body } = await call(`${API}/options`, { accept: [409] });
  state.options = body && body.units ? body : null;
  state.selected = null;
  state.selection = null;
  state.byText = new Map();
  if (state.options) {
    const { units, builds, conversions, module_orders: modules } = state.options;
    for (const option of Object.values(units).flat().concat(builds || [], conversions || [], modules || [])) {
      state.byText.set(option.text.toUpperCase(), option);
    }
  }
  renderOrdersPanel();
  decorateMap();
  showMine();
}

async function loadOrders() {
  const { body } = await call(`${API}/orders`, { accept: [409] });
  const texts = body && body.orders ? body.orders.map((o) => o.text) : [];
  state.orders = texts.map((text) => ({ key: keyOf(text), text, valid: true, reason: "" }));
  renderOrderList();
}

const CONVERSIONS = new Set(["convert_to_army", "convert_to_fleet", "stay_fleet"]);
const MODULE_KINDS = new Set(["establish_depot", "snow_storm"]);

function keyOf(text) {
  if (state.options) {
    const extra = (state.options.conversions || []).concat(state.options.module_orders || []);
    const known = extra.find((o) => o.text.toUpperCase() === text.toUpperCase());
    if (known) return keyOfOption(known);
    for (const [location, options] of Object.entries(state.options.units)) {
      if (options.some((o) => o.text.toUpperCase() === text.toUpperCase())) return location;
    }
  }
  const words = text.trim().toUpperCase().split(/\s+/);
  if (words.length > 1 && (words[0] === "A" || words[0] === "F")) return words[1];
  return `text:${text.trim().toUpperCase()}`;
}

// A unit's menu: its own orders, then the conversions it may give beside them (Deluge, Wall of Ice,
// Sahara) and the module orders for its province (a depot founded there).
function unitMenu(location) {
  const own = state.options.units[location] || [];
  const conversions = (state.options.conversions || []).filter((o) => o.unit === location);
  const modules = (state.options.module_orders || []).filter((o) => provinceOf(o.province) === provinceOf(location));
  return own.concat(conversions, modules);
}

// Rule orders that belong to no unit of mine with orders: Snow Storms, and Winter conversions.
function ruleOrders() {
  const units = state.options.units;
  const conversions = (state.options.conversions || []).filter((o) => !units[o.unit]);
  const modules = (state.options.module_orders || []).filter((o) => o.kind !== "establish_depot" || !findMyUnit(o.province));
  return conversions.concat(modules);
}

// Selects my unit at `location` for the next click, in `mode` (move by default).
function selectUnit(location, mode) {
  const modes = modesOf(state.options.units[location] || []);
  state.selected = location;
  state.selection = { unit: location, mode: modes.includes(mode) ? mode : modes[0] || "move", target: null };
  showChooser();
  decorateMap();
}

function setMode(mode) {
  if (!state.selection) return;
  state.selection = { ...state.selection, mode, target: null };
  showChooser();
  decorateMap();
}

const PROMPTS = {
  move: "Click where it moves, or the unit itself to hold.",
  via: "Click where the convoy lands it.",
  support: "Click the unit it supports.",
  convoy: "Click the army it convoys.",
  board: "Click the sea of the fleet it boards.",
  land: "Click where the army lands.",
};

function showChooser(prompt) {
  const { unit, mode, target } = state.selection;
  const own = state.options.units[unit] || [];
  const stay = own.filter((o) => o.kind === "hold" || o.kind === "disband");
  const inMode = optionsInMode(own, mode).filter((o) => !target || provinceOf(o.target) === target);
  const extra = unitMenu(unit).filter((o) => !own.includes(o));
  renderChooser($("unit-options"), {
    title: `Orders for ${unitName(state.options, unit)}`,
    current: state.orders.find((o) => o.key === unit && o.valid !== false && !o.shadowed)?.text || null,
    modes: modesOf(own),
    mode,
    prompt: prompt || PROMPTS[mode] || "",
    options: [...new Set([...stay, ...inMode, ...extra])],
    onMode: setMode,
    onChoose: (option) => guarded(() => chooseOption(option)),
  });
}

function renderUnitOptions(location, options, title) {
  const box = $("unit-options");
  const heading = title || `Orders for ${location}`;
  const buttons = options.map((option) =>
    el(
      "button",
      { type: "button", class: `option kind-${option.kind}`, "data-text": option.text, onclick: () => chooseOption(option) },
      option.text,
    ),
  );
  box.replaceChildren(
    el("h3", {}, heading),
    el("div", { class: "option-grid", role: "group", "aria-label": heading }, ...buttons),
    el("p", { class: "hint" }, location ? "Click a highlighted province on the map to move there." : ""),
  );
  buttons[0]?.focus({ preventScroll: true });
}

// Which earlier order a new one replaces: a unit's order its unit's. An army becoming a fleet holds
// meanwhile, so it replaces the unit's order (the server refuses both); a fleet becoming an army or
// staying a fleet is given beside it. Builds, waives and module orders stand beside each other.
function keyOfOption(option) {
  if (option.kind === "convert_to_fleet") return option.unit;
  if (CONVERSIONS.has(option.kind)) return `convert:${option.unit}`;
  if (option.kind === "build" || option.kind === "waive" || MODULE_KINDS.has(option.kind)) return `text:${option.text}`;
  return option.unit;
}

async function chooseOption(option) {
  const key = keyOfOption(option);
  if (option.kind === "waive") state.orders.push({ key: `${key}:${state.orders.length}`, text: option.text });
  else state.orders = state.orders.filter((o) => o.key !== key).concat([{ key, text: option.text }]);
  state.selected = null;
  state.selection = null;
  $("unit-options").replaceChildren();
  decorateMap();
  await saveOrders();
}

async function saveOrders() {
  const phase = state.game?.current_phase?.name || state.options?.phase;
  const sent = state.orders.filter((o) => !o.shadowed);
  const texts = sent.map((o) => o.text);
  renderOrderList("saving");
  let answer;
  try {
    answer =
      texts.length === 0
        ? await call(`${API}/orders?phase=${phase}`, { method: "DELETE", accept: [409] })
        : await call(`${API}/orders`, { method: "PUT", json: { phase, orders: texts }, accept: [400, 409, 422] });
  } catch (error) {
    renderOrderList("unsaved");
    const why = error instanceof ApiError ? error.message : "the server could not be reached";
    notice(`Your orders were not saved: ${why} Try again in a moment.`.replace(/([^.!?]) Try/, "$1. Try"), "error");
    return false;
  }
  const { status, body } = answer;
  if (status === 409) {
    renderOrderList("unsaved");
    notice(`Not saved: ${body?.error?.message || "this phase no longer takes orders."} The page now shows the game as it stands.`, "error");
    state.etag = null;
    await loadGame();
    return false;
  }
  if ((status === 400 || status === 422) && !(body?.orders || body?.error?.orders)) {
    renderOrderList("unsaved");
    notice(body?.error?.message || "The orders were refused.", "error");
    return false;
  }
  const results = body?.orders || body?.error?.orders || [];
  sent.forEach((order, i) => {
    const result = results[i];
    order.text = result?.valid ? result.normalised || order.text : order.text;
    order.valid = result ? result.valid : true;
    order.reason = result ? result.reason : "";
  });
  renderOrderList();
  const bad = state.orders.filter((o) => !o.valid).length;
  notice(status === 204 ? "Orders withdrawn." : savedWords(bad, state.orders.length), bad ? "error" : "ok");
  state.etag = null; // "ordered" changed: fetch the game afresh on the next poll
  return true;
}

// A rejected typed order never silently replaces a valid one: the valid order comes back and the
// rejected one stays beside it, marked, until the player removes it. Answers the orders kept.
function keepDisplaced() {
  const kept = [];
  state.orders = state.orders.flatMap((order) => {
    const old = order.replaces;
    delete order.replaces;
    if (!old || order.valid !== false) return [order];
    kept.push({ rejected: order.text, kept: old.text });
    return [old, { ...order, key: `rejected:${order.text}:${state.orders.length}`, shadowed: true, kept: old.text }];
  });
  return kept;
}

function orderState(order, mode) {
  if (mode === "saving" && !order.shadowed) return "saving…";
  if (mode === "unsaved" && !order.shadowed) return "⚠ not saved";
  if (order.valid === false) return `✖ ${order.reason}${order.kept ? ` (not used: ${order.kept} stays)` : ""}`;
  return "✔ accepted";
}

function highlight(key) {
  state.highlighted = key;
  highlightOrder($("map").querySelector("svg"), key);
}

function renderOrderList(mode) {
  const list = $("order-list");
  if (!list) return;
  showBuildRule(); // the orders given change what a home-centres-first rule still lets go elsewhere
  showMine(); // a "stays fleet" button turns into "ordered" once the order is in the list
  if (state.orders.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, "No orders yet."));
    drawMine();
    return;
  }
  list.replaceChildren(
    ...state.orders.map((order, i) =>
      el(
        "li",
        {
          class: `${order.valid === false ? "invalid" : "valid"}${order.shadowed ? " shadowed" : ""}${mode ? ` ${mode}` : ""}`,
          "data-text": order.text,
          "data-key": order.key,
          tabindex: "0",
          onmouseenter: () => highlight(order.key),
          onmouseleave: () => highlight(null),
          onfocus: () => highlight(order.key),
          onblur: () => highlight(null),
        },
        el("span", { class: "order-text" }, order.text),
        el("span", { class: "order-state" }, orderState(order, mode)),
        el("button", {
          type: "button",
          class: "remove",
          "aria-label": `Remove ${order.text}`,
          onclick: () => guarded(async () => {
            state.orders.splice(i, 1);
            await saveOrders();
          }),
        }, "×"),
      ),
    ),
  );
  drawMine();
}

function renderOrdersPanel() {
  const picker = $("unit-picker");
  if (!picker) return;
  const live = state.options && phaseOpen();
  $("orders-panel").classList.toggle("inactive", !live);
  if (!live) {
    picker.replaceChildren();
    $("selection-hint").textContent = config.power
      ? "Nothing to order this phase."
      : "You are not playing a power in this game.";
    $("unit-options").replaceChildren();
    renderOrderList();
    return;
  }
  const units = Object.keys(state.options.units);
  const builds = state.options.builds || [];
  $("selection-hint").textContent = units.length
    ? "Click one of your units on the map, or pick it here:"
    : builds.length
      ? `You have ${state.options.adjustment} build(s): click a centre on the map, or pick here:`
      : ruleOrders().length
        ? "You may give these rule orders:"
        : "Nothing to order this phase.";
  const chips = units.map((location) =>
    el("button", { type: "button", class: "unit-chip", "data-unit": location, onclick: () => selectUnit(location) }, location),
  );
  if (builds.length) {
    const offered = () => renderUnitOptions(null, offeredBuilds(), "Builds");
    chips.push(el("button", { type: "button", class: "unit-chip", id: "builds-chip", onclick: offered }, "Builds"));
  }
  const rules = ruleOrders();
  if (rules.length) {
    chips.push(
      el("button", { type: "button", class: "unit-chip", id: "rule-orders", onclick: () => renderUnitOptions(null, rules, "Rule orders") }, "Rule orders"),
    );
  }
  picker.replaceChildren(...chips);
  $("unit-options").replaceChildren();
  showBuildRule();
}

async function submitTyped(event) {
  event.preventDefault();
  const box = $("typed-orders");
  const lines = box.value.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return notice("Type at least one order, e.g. A PAR - BUR.", "error");
  for (const text of lines) {
    const key = keyOf(text);
    const old = state.orders.find((o) => o.key === key && o.valid !== false && !o.shadowed);
    state.orders = state.orders.filter((o) => o.key !== key).concat([{ key, text, replaces: old || null }]);
  }
  box.value = "";
  if (!(await saveOrders())) return;
  const kept = keepDisplaced();
  if (!kept.length) return;
  if (!(await saveOrders())) return;
  notice(kept.map((k) => `${k.rejected} was rejected, so ${k.kept} stays.`).join(" "), "error");
}

async function setReady(event) {
  const ready = event.target.checked;
  if (ready && !(await readyChecked(event.target))) return;
  const phase = state.game.current_phase.name; // a click that arrives after the phase closed gets 409
  try {
    const { body } = await call(`${API}/ready`, { method: "PUT", json: { phase, ready } });
    notice(body.phase_due ? "Everyone is ready: the phase is being processed." : ready ? "You are ready." : "You are no longer ready.", "ok");
  } finally {
    state.etag = null;
    await loadGame(); // also after a refusal: the toggle shows the new phase's state, not the click
  }
}

// Ready with units unordered or orders rejected: name them and ask first.
async function readyChecked(toggle) {
  const orders = state.orders.map((o) => ({ ...o, option: state.byText.get(o.text.toUpperCase()) }));
  const problems = readyProblems(phaseOpen() ? state.options : null, orders);
  if (!problems.length) return true;
  toggle.checked = false;
  if (!(await askBeforeReady($("game").querySelector(".game-grid"), problems))) {
    $("order-list")?.focus?.();
    return false;
  }
  toggle.checked = true;
  return true;
}

// --- history ------------------------------------------------------------------------------------

function updateHistoryControls() {
  const slider = $("history");
  slider.value = state.shown ?? 0;
  $("history-label").textContent = state.shown === state.live ? `${phaseTitle(state.game?.current_phase?.name)} (now)` : "";
  $("hist-prev").disabled = (state.shown ?? 0) <= 0;
  $("hist-next").disabled = (state.shown ?? 0) >= Number(slider.max);
  $("hist-live").hidden = state.shown === state.live;
}

function renderReport(phase) {
  state.report = phase;
  $("history-label").textContent = `${phaseTitle(phase.name)}${state.shown === state.live ? " (now)" : ""}`;
  const report = $("phase-report");
  const parts = [];
  if (phase.status === "processed") {
    const byPower = new Map();
    for (const r of phase.results || []) {
      if (!byPower.has(r.power)) byPower.set(r.power, []);
      byPower.get(r.power).push(r);
    }
    parts.push(el("h3", {}, `Orders and results, ${phaseTitle(phase.name)}`));
    for (const p of state.game?.powers || []) {
      if (p.power && p.status === "civil_disorder" && !byPower.has(p.power)) byPower.set(p.power, []);
    }
    const powers = [...byPower.keys()].sort();
    parts.push(
      el(
        "div",
        { class: "results" },
        ...powers.map((power) =>
          el(
            "div",
            { class: "power-results" },
            el(
              "h4",
              {},
              el("span", { class: "swatch", style: `--power: ${colours[power] || "#999"}` }),
              power,
              inDisorder(power) ? el("span", { class: "disorder" }, " — in civil disorder") : null,
            ),
            el(
              "ul",
              {},
              ...(byPower.get(power).length
                ? byPower.get(power).map(resultLine)
                : [el("li", { class: "muted" }, "No orders: its units hold.")]),
            ),
          ),
        ),
      ),
    );
    if ((phase.events || []).length) {
      parts.push(el("h3", {}, "Then the map changed"));
      parts.push(el("ul", { class: "events" }, ...phase.events.map((e) => el("li", {}, eventWords(e)))));
    }
  } else if (phase.status === "open") {
    parts.push(el("p", { class: "muted" }, "Orders are being given for this phase."));
  }
  report.replaceChildren(...parts);
  renderModules(phase);
  renderProvinces();
}

// What became of an order, in words beside it: a failed order is never shown like a success.
const OUTCOME_WORDS = {
  bounce: "bounced",
  cut: "cut",
  dislodged: "dislodged",
  void: "void",
  no_convoy: "no convoy",
  invalid: "invalid",
};

function resultLine(r) {
  const failed = r.outcome !== "success";
  const tag = failed ? OUTCOME_WORDS[r.outcome] || r.outcome : r.dislodged ? "dislodged" : null;
  return el(
    "li",
    { class: `outcome-${r.outcome}${failed ? " failed" : ""}${r.dislodged ? " was-dislodged" : ""}` },
    el("span", { class: "result-mark", "aria-hidden": "true" }, failed ? "✖" : "✔"),
    el("span", { class: "result-order" }, r.order),
    tag ? el("span", { class: "outcome-tag" }, tag) : null,
    r.reason ? el("span", { class: "muted" }, ` — ${r.reason}`) : null,
  );
}

function inDisorder(power) {
  return (state.game?.powers || []).some((p) => p.power === power && p.status === "civil_disorder");
}

// --- blizzards and supply -------------------------------------------------------------------------

function renderModules(phase) {
  const panel = $("modules-panel");
  if (!panel) return;
  const modules = phase.modules;
  panel.hidden = !modules;
  if (!modules) return;
  $("modules-phase").textContent = phaseTitle(phase.name);
  const snow = modules.blizzards || [];
  $("blizzard-list").replaceChildren(
    snow.length
      ? el("li", {}, `Blizzards over ${snow.join(", ")}: units there only hold, nothing moves in or through.`)
      : el("li", { class: "muted" }, "No blizzards this phase."),
  );
  const supply = Object.entries(modules.supply || {});
  const cut = supply.filter(([, line]) => !line.supplied);
  const depots = Object.entries(modules.depots || {});
  $("supply-list").replaceChildren(
    ...(supply.length
      ? [
          el("li", {}, `${supply.length - cut.length} of ${supply.length} units in supply.`),
          ...cut.map(([province, line]) =>
            el(
              "li",
              { class: "unsupplied", "data-unit": province },
              el("span", { class: "swatch", style: `--power: ${colours[line.power] || "#999"}` }),
              `${province} (${line.power}) out of supply, ${line.marks || 0} failed check(s)`,
            ),
          ),
        ]
      : []),
    ...depots.map(([province, depot]) =>
      el(
        "li",
        { class: "depot", "data-depot": province },
        el("span", { class: "swatch", style: `--power: ${colours[depot.power] || "#999"}` }),
        `Depot at ${province} (${depot.power}, since ${depot.since})`,
      ),
    ),
  );
  $("supply-block").hidden = !supply.length && !depots.length;
}

async function stepTo(index) {
  const max = Number($("history").max);
  const target = Math.min(Math.max(0, index), max);
  if (target === state.shown) return;
  await showPhase(target);
}

// --- map changes coming ---------------------------------------------------------------------------

async function loadTimeline() {
  const { body } = await call(config.timelineUrl, { accept: [404] });
  state.timeline = body && body.entries ? body : { entries: [], undrawn: 0, blizzards: null };
  renderChanges();
  renderAnnounced();
}

// The blizzards announced when the open phase began (the server draws them as the phase opens).
function renderAnnounced() {
  const box = $("announced");
  if (!box) return;
  const announced = state.timeline?.blizzards;
  box.hidden = !announced;
  if (announced) {
    box.textContent = announced.provinces.length
      ? `Blizzards announced for ${phaseTitle(announced.phase)}: ${announced.provinces.join(", ")}.`
      : `No blizzards in ${phaseTitle(announced.phase)}.`;
  }
}

function renderChanges() {
  showMine();
  const list = $("changes-list");
  const phase = state.game?.current_phase?.name || config.startPhase;
  const entries = state.timeline?.entries || [];
  const groups = comingChanges(entries.filter((e) => !e.happened), phase).slice(0, 4);
  const undrawn = state.timeline?.undrawn || 0;
  const secret = undrawn
    ? el("li", { class: "secret" }, `${undrawn} more change(s) at random times, kept secret until they happen.`)
    : null;
  if (!groups.length) {
    list.replaceChildren(secret || el("li", { class: "muted" }, "No more map changes in this game."));
    highlightComing();
    return;
  }
  list.replaceChildren(
    ...groups.map((group, i) =>
      el(
        "li",
        { class: i === 0 ? "next" : "", "data-provinces": group.rows.map((r) => r.province).filter(Boolean).join(" ") },
        el(
          "strong",
          {},
          group.year === null ? hookWords(group.hook) : `${group.year}, ${hookWords(group.hook)}`,
          group.year === null ? null : el("span", { class: "when" }, whenWords(group, phase)),
        ),
        el("ul", {}, ...group.rows.map((r) => el("li", { class: `change-${r.change}` }, changeWords(r)))),
      ),
    ),
    ...(secret ? [secret] : []),
  );
  highlightComing();
}

function showMine() {
  const option = (text) => (phaseOpen() && state.byText.get(text.toUpperCase())) || null;
  const given = (text) => state.orders.some((o) => o.valid !== false && o.text.toUpperCase() === text.toUpperCase());
  renderMine($("coming-mine"), state.timeline?.mine, { option, given, choose: (o) => guarded(() => chooseOption(o)) });
}

function highlightComing() {
  const map = $("map");
  map.querySelectorAll(".coming").forEach((n) => n.classList.remove("coming"));
  if (!isLive()) return;
  const next = $("changes-list").querySelector("li.next");
  for (const province of (next?.dataset.provinces || "").split(" ").filter(Boolean)) {
    provinceNode(province)?.classList.add("coming");
  }
}

// --- keyboard ---------------------------------------------------------------------------------------

function onKey(event) {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "Escape" && state.selection?.target) {
    setMode(state.selection.mode);
  } else if (event.key === "Escape" && (state.selected || state.selection)) {
    state.selected = null;
    state.selection = null;
    $("unit-options").replaceChildren();
    decorateMap();
  } else if (state.selection && !event.ctrlKey && !event.metaKey && !event.altKey && MODE_KEYS[event.key.toLowerCase()]) {
    const mode = MODE_KEYS[event.key.toLowerCase()];
    if (modesOf(state.options.units[state.selection.unit] || []).includes(mode)) setMode(mode);
  } else if (state.selection && event.key.toLowerCase() === "h") {
    const stay = (state.options.units[state.selection.unit] || []).find((o) => o.kind === "hold");
    if (stay) guarded(() => chooseOption(stay));
  } else if (event.key === "[") guarded(() => stepTo(state.shown - 1));
  else if (event.key === "]") guarded(() => stepTo(state.shown + 1));
}

// --- start ------------------------------------------------------------------------------------------

// On a phone the side panels come after the map: show a unit's options right under the map instead.
const narrow = window.matchMedia("(max-width: 1000px)");
function placeOptions() {
  const box = $("unit-options");
  if (box) (narrow.matches ? $("options-slot") : $("options-home")).append(box);
}

function zoom(step) {
  if (zoomTouch(step)) return; // a touch screen's map is zoomed in place (mapview.js)
  const map = $("map");
  const level = Math.min(3, Math.max(1, Number(map.dataset.zoom || 1) + step));
  map.dataset.zoom = String(level);
  zoomButtons(level, 3);
}

function zoomButtons(level, max) {
  $("zoom-out").disabled = level <= 1.01;
  $("zoom-in").disabled = level >= max - 0.01;
}

function wire() {
  placeOptions();
  narrow.addEventListener("change", placeOptions);
  $("zoom-in").addEventListener("click", () => zoom(1));
  $("zoom-out").addEventListener("click", () => zoom(-1));
  zoom(0);
  $("map").addEventListener("click", (e) => guarded(() => onMapClick(e)));
  $("history").addEventListener("input", (e) => guarded(() => stepTo(Number(e.target.value))));
  $("hist-prev").addEventListener("click", () => guarded(() => stepTo(state.shown - 1)));
  $("hist-next").addEventListener("click", () => guarded(() => stepTo(state.shown + 1)));
  $("hist-live").addEventListener("click", () => guarded(() => stepTo(state.live)));
  $("typed-form")?.addEventListener("submit", (e) => guarded(() => submitTyped(e)));
  $("clear-orders")?.addEventListener("click", () => guarded(async () => {
    state.orders = [];
    await saveOrders();
  }));
  $("ready-toggle")?.addEventListener("change", (e) => guarded(() => setReady(e)));
  $("press-form")?.addEventListener("submit", (e) => guarded(() => sendPress(e)));
  $("press-channel")?.addEventListener("change", () => guarded(loadPress));
  $("process-now")?.addEventListener("click", () => guarded(async () => {
    await call(`${API}/process`, { method: "POST" });
    notice("The phase is being processed.", "ok");
    state.etag = null;
    await loadGame();
  }));
  document.addEventListener("keydown", onKey);
}

async function poll() {
  if (!document.hidden) {
    await guarded(async () => {
      await loadGame();
      if (config.seated && state.game?.me?.power && $("press-log")) {
        await loadChannels();
        await loadPress();
      }
    });
  }
  setTimeout(poll, POLL_MS);
}

async function start() {
  wire();
  // The page knows its phase from the server's HTML, so the map, my options and my orders (all that
  // ordering needs) are fetched at once; the game's state, the phase report and press follow.
  state.live = config.phaseIndex;
  state.shown = state.live;
  const playing = config.seated && config.power;
  const critical = [];
  if (state.live !== null) critical.push(guarded(() => loadMap(state.live)));
  if (playing && config.phaseOpen) critical.push(guarded(loadOptions), guarded(loadOrders));
  // The rest waits for them: on a small server the requests would otherwise compete for its workers.
  const rest = () => {
    const jobs = [guarded(loadGame), guarded(loadTimeline)];
    if (state.live !== null) jobs.push(guarded(() => loadReport(state.live)));
    if (playing && $("press-log")) {
      jobs.push(guarded(async () => {
        await loadChannels();
        await loadPress();
      }));
    }
    return Promise.all(jobs);
  };
  await Promise.all(critical);
  if (state.live === null) {
    // Not started: the variant's start map, and the changes to come counted from the first phase.
    $("map").replaceChildren(
      config.startMap
        ? el("img", { class: "start-map", src: config.startMap, alt: "The map at the start", width: 1440, height: 1312 })
        : el("p", { class: "muted" }, "This game's board is dealt for it: the map appears when the last seat is taken."),
    );
    $("map").setAttribute("aria-busy", "false");
  }
  renderOrdersPanel();
  renderOrderList();
  decorateMap();
  document.body.dataset.ready = "true"; // the page is interactive (tests and scripts/bench_page.py wait for it)
  performance.mark("dip-interactive");
  await rest();
  updateHistoryControls();
  decorateMap();
  document.body.dataset.loaded = "true"; // every panel filled
  setTimeout(poll, POLL_MS);
}

start();
