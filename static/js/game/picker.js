// Choosing an order: my legal options for the live phase, the unit chips, a unit's menu by mode
// (move, support, convoy...), the builds and the rule orders that belong to no unit.

import { call } from "../api.js";
import { renderChooser } from "../orders/chooser.js";
import { modesOf, optionsInMode, unitName } from "../orders/clicks.js";
import { el } from "../orders/dom.js";
import { decorateMap } from "./marks.js";
import { chooseOption, renderOrderList, showBuildRule, showMine } from "./ordersheet.js";
import { $, API, config, findMyUnit, guarded, offeredBuilds, phaseOpen, provinceOf, state } from "./page.js";

export async function loadOptions() {
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
export function selectUnit(location, mode) {
  const modes = modesOf(state.options.units[location] || []);
  state.selected = location;
  state.selection = { unit: location, mode: modes.includes(mode) ? mode : modes[0] || "move", target: null };
  showChooser();
  decorateMap();
}

export function setMode(mode) {
  if (!state.selection) return;
  state.selection = { ...state.selection, mode, target: null };
  showChooser();
  decorateMap();
}

const PROMPTS = {
  move: "Click where it moves, or the unit itself to hold.",
  retreat: "Click where it retreats, or the unit itself to disband it.",
  via: "Click where the convoy lands it.",
  support: "Click the unit it supports.",
  convoy: "Click the army it convoys.",
  board: "Click the sea of the fleet it boards.",
  land: "Click where the army lands.",
};

// A dislodged unit's own province means disband, not hold: its prompt says so.
function promptOf(own, mode) {
  return mode === "move" && own.some((o) => o.kind === "retreat" || o.kind === "disband") ? "retreat" : mode;
}

export function showChooser(prompt) {
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
    prompt: prompt || PROMPTS[promptOf(own, mode)] || "",
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

export function renderOrdersPanel() {
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
