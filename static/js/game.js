// The game page: the phase map, ordering by click or by keyboard, my orders with their validation,
// the ready toggle, press, the history slider and the map changes coming. Everything goes through the
// REST API (/api/v1/); the page polls the game with ETags and refreshes itself when a phase is processed.

import { call } from "./api.js";
import { loadChannels, loadPress, sendPress } from "./press.js";
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
  timeline: null, // GET .../timeline/: {entries, undrawn, blizzards}
  orders: [], // [{key, text, valid, reason}]
  selected: null, // location of the unit whose options are shown
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
  renderHead();
  renderPowers();
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

async function loadMap(index) {
  const mapUrl = `${API}/phases/${index}/map.svg`;
  $("dl-svg").href = mapUrl;
  $("dl-png").href = `${API}/phases/${index}/map.png?width=1600`;
  const response = await fetch(mapUrl, { credentials: "same-origin" });
  const text = response.ok ? await response.text() : null;
  if (state.shown !== index) return; // the player moved the slider on meanwhile
  const map = $("map");
  if (text) {
    map.innerHTML = text;
    const svg = map.querySelector("svg");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Map of ${phaseTitle(svg.dataset.phase || "")}`);
    map.dataset.phase = svg.dataset.phase || "";
  } else {
    map.replaceChildren(el("p", { class: "error" }, "This map cannot be drawn."));
  }
  map.setAttribute("aria-busy", "false");
  decorateMap();
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
  if (isLive() && state.options) {
    for (const location of Object.keys(state.options.units)) {
      unitNode(location)?.classList.add("mine");
    }
    if (state.selected) {
      unitNode(state.selected)?.classList.add("selected");
      for (const option of state.options.units[state.selected] || []) {
        if (option.dest) provinceNode(option.dest)?.classList.add("target");
      }
    }
    for (const option of state.options.builds || []) {
      if (option.location) provinceNode(option.location)?.classList.add("target");
    }
  }
  highlightComing();
}

function unitNode(location) {
  return $("map").querySelector(`#units .unit-group[data-location="${location}"]`);
}

function provinceNode(location) {
  return $("map").querySelector(`#provinces [id="${provinceOf(location)}"]`);
}

function onMapClick(event) {
  if (!isLive() || !state.options) return;
  const unit = event.target.closest(".unit-group[data-location]");
  const spot = event.target.closest("[data-location]") || event.target.closest("#provinces [id]");
  const location = unit ? unit.dataset.location : spot ? spot.dataset.location || spot.id : null;
  if (!location) return;
  const mine = state.options.units[location] ? location : findMyUnit(location);
  if (state.selected) {
    if (provinceOf(location) === provinceOf(state.selected)) {
      const hold = (state.options.units[state.selected] || []).find((o) => o.kind === "hold" || o.kind === "disband");
      if (hold) return chooseOption(hold);
    }
    const chosen = targetOption(state.selected, location);
    if (chosen) return chooseOption(chosen);
    const related = (state.options.units[state.selected] || []).filter(
      (o) => provinceOf(o.dest) === provinceOf(location) || provinceOf(o.target) === provinceOf(location),
    );
    if (related.length && !mine) return renderUnitOptions(state.selected, related);
  }
  if (mine) return selectUnit(mine);
  const builds = (state.options.builds || []).filter((o) => provinceOf(o.location) === provinceOf(location));
  if (builds.length) return renderUnitOptions(null, builds, `Builds in ${provinceOf(location)}`);
  return undefined;
}

function findMyUnit(location) {
  return Object.keys(state.options.units).find((loc) => provinceOf(loc) === provinceOf(location)) || null;
}

// The move (or retreat) that the click on `location` means: an exact coast first, then the province.
function targetOption(unit, location) {
  const options = (state.options.units[unit] || []).filter((o) => o.kind === "move" || o.kind === "retreat");
  const exact = options.filter((o) => o.dest === location);
  const province = options.filter((o) => provinceOf(o.dest) === provinceOf(location));
  const pool = exact.length ? exact : province;
  return pool.find((o) => !o.via_convoy) || pool[0] || null;
}

// --- orders -------------------------------------------------------------------------------------

async function loadOptions() {
  const { body } = await call(`${API}/options`, { accept: [409] });
  state.options = body && body.units ? body : null;
  state.selected = null;
  renderOrdersPanel();
  decorateMap();
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

function selectUnit(location) {
  state.selected = location;
  renderUnitOptions(location, unitMenu(location));
  decorateMap();
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
  $("unit-options").replaceChildren();
  decorateMap();
  await saveOrders();
}

async function saveOrders() {
  const phase = state.game.current_phase.name;
  const texts = state.orders.map((o) => o.text);
  renderOrderList("saving");
  const { status, body } =
    texts.length === 0
      ? await call(`${API}/orders?phase=${phase}`, { method: "DELETE" })
      : await call(`${API}/orders`, { method: "PUT", json: { phase, orders: texts }, accept: [400] });
  if (status === 400 && !(body?.orders || body?.error?.orders)) throw new Error(body?.error?.message || "The orders were refused.");
  const results = body?.orders || body?.error?.orders || [];
  state.orders = state.orders.map((order, i) => ({
    ...order,
    text: results[i]?.valid ? results[i].normalised || order.text : order.text,
    valid: results[i] ? results[i].valid : true,
    reason: results[i] ? results[i].reason : "",
  }));
  renderOrderList();
  const bad = state.orders.filter((o) => !o.valid).length;
  notice(status === 204 ? "Orders withdrawn." : savedWords(bad, state.orders.length), bad ? "error" : "ok");
  state.etag = null; // "ordered" changed: fetch the game afresh on the next poll
}

function renderOrderList(mode) {
  const list = $("order-list");
  if (!list) return;
  if (state.orders.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, "No orders yet."));
    return;
  }
  list.replaceChildren(
    ...state.orders.map((order, i) =>
      el(
        "li",
        { class: order.valid === false ? "invalid" : "valid", "data-text": order.text },
        el("span", { class: "order-text" }, order.text),
        el(
          "span",
          { class: "order-state" },
          mode === "saving" ? "saving…" : order.valid === false ? `✖ ${order.reason}` : "✔ accepted",
        ),
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
    chips.push(el("button", { type: "button", class: "unit-chip", onclick: () => renderUnitOptions(null, builds, "Builds") }, "Builds"));
  }
  const rules = ruleOrders();
  if (rules.length) {
    chips.push(
      el("button", { type: "button", class: "unit-chip", id: "rule-orders", onclick: () => renderUnitOptions(null, rules, "Rule orders") }, "Rule orders"),
    );
  }
  picker.replaceChildren(...chips);
  $("unit-options").replaceChildren();
}

async function submitTyped(event) {
  event.preventDefault();
  const box = $("typed-orders");
  const lines = box.value.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return notice("Type at least one order, e.g. A PAR - BUR.", "error");
  for (const text of lines) {
    const key = keyOf(text);
    state.orders = state.orders.filter((o) => o.key !== key).concat([{ key, text }]);
  }
  box.value = "";
  await saveOrders();
}

async function setReady(event) {
  const ready = event.target.checked;
  const { body } = await call(`${API}/ready`, { method: "PUT", json: { ready } });
  notice(body.phase_due ? "Everyone is ready: the phase is being processed." : ready ? "You are ready." : "You are no longer ready.", "ok");
  state.etag = null;
  await loadGame();
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
    const powers = [...byPower.keys()].sort();
    parts.push(
      el(
        "div",
        { class: "results" },
        ...powers.map((power) =>
          el(
            "div",
            { class: "power-results" },
            el("h4", {}, el("span", { class: "swatch", style: `--power: ${colours[power] || "#999"}` }), power),
            el(
              "ul",
              {},
              ...byPower.get(power).map((r) =>
                el("li", { class: `outcome-${r.outcome}` }, `${r.order}`, r.reason ? el("span", { class: "muted" }, ` — ${r.reason}`) : null),
              ),
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
  if (event.key === "Escape" && state.selected) {
    state.selected = null;
    $("unit-options").replaceChildren();
    decorateMap();
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
  const map = $("map");
  const level = Math.min(3, Math.max(1, Number(map.dataset.zoom || 1) + step));
  map.dataset.zoom = String(level);
  $("zoom-out").disabled = level === 1;
  $("zoom-in").disabled = level === 3;
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
