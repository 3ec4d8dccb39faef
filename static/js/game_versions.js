// The game master's offer of a newer version of the game's studio variant: the versions published since
// the one the game plays, a preview of what one changes (and what refuses it now), and giving it to the
// game from the start of the open phase, through /api/v1/games/<id>/studio-versions as any client would.
import { call } from "./api.js";

const box = document.getElementById("studio-versions");
const base = `/api/v1/games/${box.dataset.game}/studio-versions`;
const $ = (id) => document.getElementById(id);
let chosen = null; // {id, phase} of the version previewed

function item(text) {
  return Object.assign(document.createElement("li"), { textContent: text });
}

function pairs(list) {
  return list.map(([a, b]) => `${a}–${b}`).join(", ");
}

// A problem that refuses the version now; an order it refuses is named: its power, the order, and why.
function problemItem(problem) {
  const li = item(problem.order ? "" : problem.message);
  li.dataset.code = problem.code;
  if (problem.order) {
    const order = Object.assign(document.createElement("code"), { textContent: problem.order });
    li.append(`${problem.power}: `, order, ` would no longer be valid: ${problem.reason}`);
  }
  return li;
}

// The diff in sentences, one per kind of change.
export function diffLines(diff) {
  if (diff.same) return ["Nothing changes on the map, in the timeline or in victory."];
  const lines = [];
  const listed = (label, list) => list.length && lines.push(`${label}: ${list.join(", ")}`);
  listed("Provinces added", diff.provinces.added);
  listed("Provinces removed", diff.provinces.removed);
  for (const c of diff.provinces.changed) lines.push(`${c.province}: ${c.field} ${c.from} → ${c.to}`);
  if (diff.adjacencies.added.length) lines.push(`Borders added: ${pairs(diff.adjacencies.added)}`);
  if (diff.adjacencies.removed.length) lines.push(`Borders removed: ${pairs(diff.adjacencies.removed)}`);
  listed("Supply centres added", diff.centres.added);
  listed("Supply centres removed", diff.centres.removed);
  for (const h of diff.homes) lines.push(`Home centre ${h.province}: ${h.from ?? "none"} → ${h.to ?? "none"}`);
  listed("Powers added", diff.powers.added);
  listed("Powers removed", diff.powers.removed);
  for (const e of diff.timeline.added) lines.push(`New map change: ${e.text}`);
  for (const e of diff.timeline.removed) lines.push(`Map change dropped: ${e.text}`);
  if (diff.timeline.settings_changed) lines.push("The timeline's settings or options change.");
  if (diff.victory) lines.push(`Victory: ${diff.victory.from.centres} → ${diff.victory.to.centres} centres (or its rules change)`);
  return lines;
}

async function preview(version) {
  $("version-result").textContent = "";
  const { body } = await call(`${base}/${version.id}`);
  chosen = { id: version.id, phase: body.phase, number: version.number };
  $("version-preview-title").textContent = `Version ${version.number} (${version.published_at.slice(0, 10)}) against version ${body.from.number}`;
  $("version-diff").replaceChildren(...diffLines(body.diff).map(item));
  $("version-problems").replaceChildren(...body.problems.map(problemItem));
  $("version-apply").disabled = !body.applicable;
  $("version-apply").textContent = body.phase ? `Give the game version ${version.number} from ${body.phase}` : `Give the game version ${version.number}`;
  $("version-preview").hidden = false;
}

async function apply() {
  if (!chosen) return;
  $("version-apply").disabled = true;
  try {
    await call(`${base}/${chosen.id}`, { method: "POST", json: chosen.phase ? { phase: chosen.phase } : {} });
    $("version-result").textContent = `The game plays version ${chosen.number} now. Reloading…`;
    setTimeout(() => location.reload(), 800);
  } catch (error) {
    $("version-result").textContent = error.message;
    $("version-apply").disabled = false;
  }
}

async function load() {
  const { body } = await call(base);
  $("versions-none").hidden = body.offered.length > 0;
  $("versions-offered").replaceChildren(
    ...body.offered.map((version) => {
      const li = item(`Version ${version.number} by ${version.author} `);
      const button = Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: "Preview" });
      button.dataset.version = version.id;
      button.addEventListener("click", () => preview(version).catch((error) => ($("version-result").textContent = error.message)));
      li.append(button);
      return li;
    }),
  );
  if (body.changes.length) {
    $("versions-changes").replaceChildren(
      ...body.changes.map((c) => item(`${c.phase ?? "Before the start"}: version ${c.from.number} → ${c.to.number}, by ${c.by ?? "a game master"} (${c.at.slice(0, 10)})`)),
    );
  }
  box.dataset.ready = "true";
}

$("version-apply").addEventListener("click", apply);
load().catch((error) => ($("version-result").textContent = error.message));
