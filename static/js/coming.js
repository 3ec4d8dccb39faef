// "What the coming map changes do to my units and centres": the timeline's `mine` rows, as the server
// computed them from the engine, in words. A row whose outcome an order changes names that order, and
// its button gives it through the page's normal order list (the `choose` callback).

import { changeWords, hookWords } from "./words.js";

const KIND = { A: "an army", F: "a fleet" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function what(row) {
  const kindOf = (unit) => KIND[(unit || "").split(" ")[0]] || unit;
  switch (row.kind) {
    case "converted":
      return `your ${row.unit} becomes ${kindOf(row.to)}`;
    case "removed":
      return `your ${row.unit} will be disbanded`;
    case "moved":
      return `your ${row.unit} moves to ${row.to.split(" ").at(-1)}`;
    case "stands":
      return `your ${row.unit} stands there and stays as it is`;
    case "centre_lost":
      return `your centre ${row.province} stops being a centre`;
    case "centre_gained":
      return `${row.province} becomes your centre`;
    default:
      return `${row.unit || row.province}: ${row.kind}`;
  }
}

function cause(row) {
  if (row.kind === "centre_lost" || row.kind === "centre_gained") return "";
  return row.change ? `${changeWords(row)}: ` : `the map changes around ${row.province}: `;
}

const THEN = { removed: "it is disbanded", moved: "it keeps its place", converted: "it changes kind" };

// `option` answers the live phase's option with that text (or null), `given` whether it is among my
// orders already, `choose` gives it.
export function renderMine(list, rows, { option, given, choose }) {
  list.hidden = !rows || !rows.length;
  if (!rows) return;
  list.replaceChildren(
    ...rows.map((row) => {
      const order = row.order ? option(row.order.text) : null;
      return el(
        "li",
        { class: `mine-${row.kind}`, "data-unit": row.unit || row.province },
        el("span", { class: "when" }, `${row.year}, ${hookWords(row.hook)}`),
        `${cause(row)}${what(row)}`,
        row.order ? ` — or order ${row.order.text} (then ${THEN[row.order.then] || row.order.then}) ` : null,
        order && given(order.text) ? el("span", { class: "ordered" }, "✔ ordered") : null,
        order && !given(order.text)
          ? el("button", { type: "button", class: "give-order", onclick: () => choose(order) }, `Order ${row.order.text}`)
          : null,
      );
    }),
  );
}
