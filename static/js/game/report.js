// The report of the phase on the map: each power's orders and what became of them, the map changes
// that followed, the rule modules' state (blizzards, supply, depots), and the province list in words.

import { call } from "../api.js";
import { botMark, botPowers } from "../botmark.js";
import { afterPaint, renderProvinceList } from "../mapview.js";
import { el } from "../orders/dom.js";
import { eventWords, phaseTitle } from "../words.js";
import { $, API, colours, config, state } from "./page.js";

export async function loadReport(index) {
  const { body } = await call(`${API}/phases/${index}`);
  if (state.shown !== index) return;
  renderReport(body);
}

export function renderReport(phase) {
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
    const bots = botPowers(state.game); // as the powers are held now, like civil disorder
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
              bots.has(power) ? " " : null,
              bots.has(power) ? botMark() : null,
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

// The province list says in words what the map shows, once the map and its phase have both come. It is
// folded away under the map, so it is written after the map is drawn, once for calls that come together.
let listing = false;
export function renderProvinces() {
  if (listing) return;
  listing = true;
  afterPaint(() => {
    listing = false;
    const names = Object.fromEntries(config.powers.map((p) => [p.name, p.display]));
    renderProvinceList($("map").querySelector("svg"), state.report, (power) => names[power] || power);
  });
}
