// The game master's offer of a newer version of the game's studio variant: the versions published since
// the one the game plays, a preview of what one changes (in the API's sentences, diff_lines, and what
// refuses it now), and giving it to the game from the start of the open phase, through
// /api/v1/games/<id>/studio-versions as any client would.
import { call } from "./api.js";

const box = document.getElementById("studio-versions");
const base = `/api/v1/games/${box.dataset.game}/studio-versions`;
const $ = (id) => document.getElementById(id);
let chosen = null; // {id, phase} of the version previewed

function item(text) {
  return Object.assign(document.createElement("li"), { textContent: text });
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

async function preview(version) {
  $("version-result").textContent = "";
  const { body } = await call(`${base}/${version.id}`);
  chosen = { id: version.id, phase: body.phase, number: version.number };
  $("version-preview-title").textContent = `Version ${version.number} (${version.published_at.slice(0, 10)}) against version ${body.from.number}`;
  $("version-diff").replaceChildren(...body.diff_lines.map(item)); // the server's sentences, as the players' news says them
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
