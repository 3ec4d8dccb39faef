// Before "Ready" is accepted: name my units with no order, my rejected orders and the builds not used,
// and let the player go back to them or be ready anyway.

import { el } from "./dom.js";

// options: GET .../options; orders: [{key, text, valid, option}]. Answers a list of sentences.
export function readyProblems(options, orders) {
  if (!options) return [];
  const given = new Set(orders.filter((o) => o.valid !== false).map((o) => o.key));
  const problems = [];
  const unordered = Object.entries(options.units)
    .filter(([location]) => !given.has(location))
    .map(([location, list]) => (list[0] ? list[0].text.split(/\s+/).slice(0, 2).join(" ") : location));
  if (unordered.length) problems.push(`${unordered.join(", ")} ${unordered.length === 1 ? "has" : "have"} no order (a unit with none holds).`);
  const rejected = orders.filter((o) => o.valid === false).map((o) => o.text);
  if (rejected.length) problems.push(`Rejected: ${rejected.join("; ")}.`);
  if (options.adjustment > 0) {
    const used = orders.filter((o) => o.valid !== false && (o.option?.kind === "build" || o.option?.kind === "waive")).length;
    const left = options.adjustment - used;
    if (left > 0) problems.push(`${left} of your ${options.adjustment} build(s) not ordered.`);
  }
  return problems;
}

// Shows the warning above `before`; resolves true for "Ready anyway", false for "Back to my orders".
export function askBeforeReady(before, problems) {
  document.getElementById("ready-warning")?.remove();
  return new Promise((resolve) => {
    const close = (answer) => {
      box.remove();
      resolve(answer);
    };
    const box = el(
      "section",
      { id: "ready-warning", class: "ready-warning", role: "alertdialog", "aria-labelledby": "ready-warning-title" },
      el("h2", { id: "ready-warning-title" }, "Not ready yet?"),
      el("ul", {}, ...problems.map((p) => el("li", {}, p))),
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", id: "ready-anyway", onclick: () => close(true) }, "Ready anyway"),
        el("button", { type: "button", class: "secondary", id: "ready-back", onclick: () => close(false) }, "Back to my orders"),
      ),
    );
    before.before(box);
    box.querySelector("#ready-back").focus();
  });
}
