// The selected unit's chooser under the map or in the side panel: the order kinds it may give (a mode
// switch with keys H, M, V, S, C), one line saying what the next click does, and every legal order of
// the current kind as a button, so that the keyboard alone can give each order. Also the small question
// asked when a click could mean several orders (a coast, my own unit in the way).

import { el } from "./dom.js";

export const MODE_LABELS = {
  move: "Move",
  via: "Move by convoy",
  support: "Support",
  convoy: "Convoy",
  board: "Board a fleet", // the Abstraction A/F rules (Deluge)
  land: "Land the army",
};
export const MODE_KEYS = { m: "move", v: "via", s: "support", c: "convoy", b: "board", l: "land" };
const KEY_OF = Object.fromEntries(Object.entries(MODE_KEYS).map(([key, mode]) => [mode, key.toUpperCase()]));

function optionButton(option, onChoose) {
  return el(
    "button",
    { type: "button", class: `option kind-${option.kind}`, "data-text": option.text, onclick: () => onChoose(option) },
    option.text,
  );
}

// {title, current (the unit's order now, or null), modes, mode, prompt, options, onMode, onChoose}
export function renderChooser(box, view) {
  const modeButtons = view.modes.map((mode) =>
    el(
      "button",
      {
        type: "button",
        class: "mode",
        "data-mode": mode,
        "aria-pressed": String(mode === view.mode),
        "aria-keyshortcuts": KEY_OF[mode],
        onclick: () => view.onMode(mode),
      },
      MODE_LABELS[mode],
      el("kbd", {}, KEY_OF[mode]),
    ),
  );
  const buttons = view.options.map((option) => optionButton(option, view.onChoose));
  // replaceChildren would write a missing part as the text "null": only the parts there are go in.
  const parts = [
    el("h3", {}, view.title),
    view.current ? el("p", { class: "current-order" }, "Now: ", el("span", { class: "order-text" }, view.current)) : null,
    modeButtons.length ? el("div", { class: "mode-bar", role: "group", "aria-label": "Kind of order" }, ...modeButtons) : null,
    el("p", { class: "click-prompt", id: "click-prompt", role: "status" }, view.prompt),
    el("div", { class: "option-grid", role: "group", "aria-label": view.title }, ...buttons),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  // Enter on the first order (hold) gives it; the keys H, M, V, S, C switch the kind from anywhere.
  (buttons[0] || modeButtons[0])?.focus({ preventScroll: true });
}

// choices: [{label, ...}]; onPick(choice); onCancel()
export function renderQuestion(box, question, choices, onPick, onCancel) {
  const buttons = choices.map((choice) =>
    el("button", { type: "button", class: `option choice${choice.option ? " kind-" + choice.option.kind : ""}`, "data-text": choice.option?.text, onclick: () => onPick(choice) }, choice.label),
  );
  box.replaceChildren(
    el(
      "div",
      { class: "question", role: "alertdialog", "aria-label": question },
      el("h3", {}, question),
      el("div", { class: "option-grid" }, ...buttons),
      el("button", { type: "button", class: "secondary cancel", onclick: onCancel }, "Cancel (Esc)"),
    ),
  );
  buttons[0]?.focus({ preventScroll: true });
}
