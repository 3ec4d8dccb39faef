// The map changes coming: the timeline of the variant's changes still to happen, the blizzards
// announced for the open phase, and the conversions those changes ask of my units.

import { call } from "../api.js";
import { el } from "../orders/dom.js";
import { changeWords, comingChanges, hookWords, phaseTitle, whenWords } from "../words.js";
import { highlightComing } from "./marks.js";
import { showMine } from "./ordersheet.js";
import { $, config, state } from "./page.js";

export async function loadTimeline() {
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

export function renderChanges() {
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
