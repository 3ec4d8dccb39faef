// Ordering by clicking the map: what a click on a province or a unit means, given the unit selected
// and the mode (orders/clicks.js interprets it), and the question asked when a click could mean several.

import { buildRefusal } from "../orders/builds.js";
import { renderQuestion } from "../orders/chooser.js";
import { interpret, unitName } from "../orders/clicks.js";
import { decorateMap } from "./marks.js";
import { chooseOption } from "./ordersheet.js";
import { selectUnit, showChooser } from "./picker.js";
import { $, findMyUnit, guarded, isLive, notice, offeredBuilds, optionOf, provinceOf, state } from "./page.js";

export function onMapClick(event) {
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
  const name = mine ? unitName(state.options, mine) : `${letter} ${at}`.trim();
  return { location: mine || at, name, mine: Boolean(mine), leaving: Boolean(mine) && leaves(mine) };
}

// Whether my order for the unit at `location` moves it out of its province.
function leaves(location) {
  const order = state.orders.find((o) => o.key === location && o.valid !== false && !o.shadowed);
  const option = order && optionOf(order.text);
  return Boolean(option && (option.kind === "move" || option.kind === "retreat") && provinceOf(option.dest) !== provinceOf(location));
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
