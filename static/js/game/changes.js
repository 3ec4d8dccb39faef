// The map changes coming: the timeline of the variant's changes still to happen, the blizzards
// announced for the open phase, and the conversions those changes ask of my units. Below them, the
// changes that wait on a condition of the game instead of a date ("when GERMANY controls WAR"), each
// marked when its condition holds now; pointing at one, or its "Show on the map", outlines the
// provinces its condition names.

import { call } from "../api.js";
import { el } from "../orders/dom.js";
import { changeWords, comingChanges, hookWords, phaseTitle, whenWords } from "../words.js";
import { highlightComing, highlightWatched } from "./marks.js";
import { showMine } from "./ordersheet.js";
import { $, config, state } from "./page.js";

export async function loadTimeline() {
  const { body } = await call(config.timelineUrl, { accept: [404] });
  state.timeline = body && body.entries ? body : { entries: [], undrawn: 0, blizzards: null, conditions: [] };
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

export function renderChanges() {
  showMine();
  const waiting = renderConditions();
  const list = $("changes-list");
  const phase = state.game?.current_phase?.name || config.startPhase;
  const entries = state.timeline?.entries || [];
  const groups = comingChanges(entries.filter((e) => !e.happened), phase).slice(0, 4);
  const undrawn = state.timeline?.undrawn || 0;
  const secret = undrawn
    ? el("li", { class: "secret" }, `${undrawn} more change(s) at random times, kept secret until they happen.`)
    : null;
  if (!groups.length) {
    const none = waiting ? "No more map changes on set dates." : "No more map changes in this game.";
    list.replaceChildren(secret || el("li", { class: "muted" }, none));
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

// The conditional changes (GET .../timeline's `conditions`) in the server's words; how many there are.
function renderConditions() {
  const block = $("conditions-block");
  // A finished game has no changes to come: its conditions are history (the phases' events say which fired).
  const conditions = state.game?.status === "finished" ? [] : state.timeline?.conditions || [];
  if (!block) return conditions.length;
  block.hidden = !conditions.length;
  const shown = new Set(conditions.map((c) => c.event));
  if (state.watched.pinned !== null && !shown.has(state.watched.pinned)) watch("pinned", null);
  $("conditions-list").replaceChildren(...conditions.map(conditionItem));
  return conditions.length;
}

function conditionItem(row) {
  const provinces = row.condition.provinces || [];
  const pinned = state.watched.pinned === row.event;
  return el(
    "li",
    {
      class: row.made ? "made" : row.holds ? "holds" : "",
      "data-event": String(row.event),
      "data-provinces": provinces.join(" "),
      onmouseenter: () => watch("hovered", row.event),
      onmouseleave: () => watch("hovered", null),
    },
    row.made
      ? el("strong", { class: "made" }, "Done: the map has this change. ")
      : row.holds
        ? el("strong", { class: "holds-now" }, `Holds now: comes at the next hook, ${hookWords(row.hook)}. `)
        : null,
    row.words,
    provinces.length
      ? el(
          "button",
          {
            type: "button",
            class: "secondary show-condition",
            "aria-pressed": pinned ? "true" : "false",
            onclick: (event) => {
              const on = state.watched.pinned !== row.event;
              watch("pinned", on ? row.event : null);
              for (const b of $("conditions-list").querySelectorAll(".show-condition")) b.setAttribute("aria-pressed", "false");
              event.currentTarget.setAttribute("aria-pressed", on ? "true" : "false");
            },
          },
          `Show ${provinces.join(", ")} on the map`,
        )
      : null,
  );
}

// Outline the provinces of the condition pointed at, else of the one picked.
function watch(how, eventNumber) {
  state.watched[how] = eventNumber;
  const number = state.watched.hovered ?? state.watched.pinned;
  const row = (state.timeline?.conditions || []).find((c) => c.event === number);
  state.watched.provinces = row ? row.condition.provinces || [] : [];
  highlightWatched();
}
