// The game page: the phase map, ordering by click or by keyboard, my orders with their validation,
// the ready toggle, press, the history slider and the map changes coming. Everything goes through the
// REST API (/api/v1/); the page polls the game with ETags and refreshes itself when a phase is processed.
// This module loads the game and the map and wires the page; the parts live in game/.

import { call } from "./api.js";
import { botMark } from "./botmark.js";
import { renderChanges, loadTimeline } from "./game/changes.js";
import { onMapClick } from "./game/clicking.js";
import { announceGame } from "./gamefeed.js";
import { clearLastTurn, showLastTurn } from "./game/lastturn.js";
import { decorateMap } from "./game/marks.js";
import { handToBotButton, wireHandToBot, wireProcessNow } from "./game/mastering.js";
import { chooseOption, loadOrders, renderOrderList, saveOrders, setReady, submitTyped } from "./game/ordersheet.js";
import { $, API, colours, config, guarded, notice, page, phaseOpen, provinceOf, state } from "./game/page.js";
import { loadOptions, renderOrdersPanel, setMode } from "./game/picker.js";
import { loadReport, renderProvinces, renderReport } from "./game/report.js";
import { MODE_KEYS } from "./orders/chooser.js";
import { modesOf } from "./orders/clicks.js";
import { el } from "./orders/dom.js";
import { loadChannels, loadPress, sendPress } from "./press.js";
import { attachMap, mapOf, measureFrame, refitMap, zoomToTap, zoomTouch } from "./mapview.js";
import { showDeadline } from "./time.js";
import { phaseTitle } from "./words.js";
import "./sandbox_open.js"; // the "Open in a sandbox" form

const POLL_MS = 4000;

// --- the game -----------------------------------------------------------------------------------

async function loadGame() {
  const { status, body, etag } = await call(API, { etag: state.etag });
  if (status === 304) return false;
  const previous = state.game;
  state.game = body;
  state.etag = etag;
  // The page's other panels (actions.js, press.js) read the same answer instead of asking the server again.
  announceGame(body);
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

page.refresh = loadGame;

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
  const processNow = $("process-now");
  if (processNow) processNow.hidden = over; // a finished game has nothing left to process
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
          el("td", {}, p.player || "—", p.is_bot ? " " : null, p.is_bot ? botMark() : null, handToBotButton(p)),
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


// Power colours come as data-power-colour (a style attribute is refused by the policy).
for (const chip of document.querySelectorAll("[data-power-colour]")) {
  chip.style.setProperty("--power", chip.dataset.powerColour);
}

// My part of the board, where a phone's first map is centred: my centres (their provinces' unit spots),
// else the units my options name.
function myPart(svg) {
  if (!config.power) return [];
  const provinces = [...svg.querySelectorAll(`#provinces .own-${config.power}[data-anchor]`)];
  const units = Object.keys(state.options?.units || {}).map((at) => svg.querySelector(`#provinces [id="${provinceOf(at)}"]`));
  const mine = provinces.length ? provinces : units;
  return mine.filter((p) => p?.dataset.anchor).map((p) => p.dataset.anchor.split(" ").map(Number));
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
    const frame = measureFrame(map); // before the map goes in (mapview.js)
    const svg = mapOf(text);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Map of ${phaseTitle(svg.dataset.phase || "")}`);
    map.replaceChildren(svg);
    map.dataset.phase = svg.dataset.phase || "";
    attachMap(svg, zoomButtons, frame, myPart(svg));
  } else {
    map.replaceChildren(el("p", { class: "error" }, "This map cannot be drawn."));
  }
  map.setAttribute("aria-busy", "false");
  decorateMap();
  renderProvinces();
  // The live map shows what the last turn did until the player hides it; history maps draw their own.
  if (text && index === state.live) guarded(() => showLastTurn(index));
  else clearLastTurn();
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

async function stepTo(index) {
  const max = Number($("history").max);
  const target = Math.min(Math.max(0, index), max);
  if (target === state.shown) return;
  await showPhase(target);
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
  $("map").addEventListener("click", (e) => zoomToTap(e) || guarded(() => onMapClick(e)));
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
  wireProcessNow(guarded);
  wireHandToBot(guarded);
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
  refitMap(); // the phase's name and deadline, filled in above the map, may have moved it down
  document.body.dataset.loaded = "true"; // every panel filled
  setTimeout(poll, POLL_MS);
}

start();
