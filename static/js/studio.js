// The variant studio's editor: the draft through /api/v1/studio/ as any client would. Every change is
// kept in localStorage at once (nothing lost on a closed tab) and saved with the revision it was loaded
// at; a save from a stale tab is refused by the server and said so. After each save the engine's check
// runs and each problem is shown beside the provinces it names, and beside the timeline events it concerns.
import { ApiError, call } from "./api.js";
import { importSvg } from "./studio_import.js";
import { Preview } from "./studio_preview.js";
import { TimelineEditor } from "./studio_timeline.js";

const config = JSON.parse(document.getElementById("studio-config").textContent);
const draftUrl = `${config.api}drafts/${config.draft}`;
const backupKey = `studio-draft-${config.draft}`;
const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = { draft: null, tables: null, geometry: null, selected: null, problems: [], timer: null };

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function provinces() {
  state.tables.map ??= {};
  state.tables.map.provinces ??= {};
  return state.tables.map.provinces;
}

function extendsBase() {
  return Boolean(state.tables.variant?.base);
}

// --- the map ------------------------------------------------------------------------------------------

function pathOf(polygons) {
  return polygons
    .flatMap((polygon) => polygon.map((ring) => `M${ring.map(([x, y]) => `${x} ${y}`).join("L")}Z`))
    .join("");
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  parent.append(node);
  return node;
}

function terrainOf(code, drawn) {
  const step = preview.step();
  if (step) return step.terrain[code] ?? "absent";
  return provinces()[code]?.terrain ?? drawn.medium ?? "land";
}

function isCentre(code) {
  const step = preview.step();
  return step ? step.centres.includes(code) : Boolean(provinces()[code]?.sc);
}

function drawMap() {
  const holder = $("studio-map");
  holder.replaceChildren();
  if (!state.geometry) {
    holder.textContent = "No drawing yet: import an SVG map below.";
    return;
  }
  const svg = element("svg", { viewBox: `0 0 ${state.geometry.width} ${state.geometry.height}`, role: "img" }, holder);
  for (const polygons of state.geometry.scenery ?? []) element("path", { d: pathOf(polygons), class: "scenery" }, svg);
  const flagged = new Set(state.problems.flatMap((p) => p.provinces));
  const chosen = state.selected && provinces()[state.selected];
  const neighbours = new Set(chosen?.borders ?? []);
  const picked = timeline.picked();
  holder.classList.toggle("previewing", Boolean(preview.step()));
  holder.classList.toggle("picking", Boolean(timeline.pickInto));
  for (const [code, drawn] of Object.entries(state.geometry.provinces)) {
    const classes = ["province", terrainOf(code, drawn)];
    if (code === state.selected) classes.push("selected");
    if (picked.has(code)) classes.push("picked");
    if (neighbours.has(code)) classes.push("neighbour");
    if (flagged.has(code)) classes.push("problem");
    const shape = element("path", { d: pathOf(drawn.polygons), class: classes.join(" "), "data-province": code }, svg);
    element("title", {}, shape).textContent = provinces()[code]?.name ?? code;
    shape.addEventListener("click", () => provinceClicked(code));
    if (isCentre(code)) element("circle", { cx: drawn.sc[0], cy: drawn.sc[1], r: 3, class: "centre" }, svg);
    element("text", { x: drawn.label[0], y: drawn.label[1] }, svg).textContent = code;
  }
}

// --- one province -------------------------------------------------------------------------------------

function provinceClicked(code) {
  if (timeline.pick(code)) return;
  if ($("edit-borders").checked && state.selected && state.selected !== code && !extendsBase()) {
    toggleBorder(state.selected, code);
    return;
  }
  state.selected = code;
  showProvince();
  drawMap();
}

function toggleBorder(a, b) {
  const all = provinces();
  for (const [one, other] of [[a, b], [b, a]]) {
    all[one] ??= { name: one, terrain: "land", borders: [] };
    const borders = new Set(all[one].borders ?? []);
    if (borders.has(other)) borders.delete(other);
    else borders.add(other);
    all[one].borders = [...borders].sort();
  }
  changed();
}

function showProvince() {
  const code = state.selected;
  $("province-panel").hidden = !code;
  if (!code) return;
  const spec = provinces()[code] ?? {};
  $("province-code").textContent = code;
  $("province-name").value = spec.name ?? "";
  $("province-terrain").value = spec.terrain ?? state.geometry?.provinces[code]?.medium ?? "land";
  $("province-sc").checked = Boolean(spec.sc);
  const home = $("province-home");
  home.replaceChildren(new Option("nobody", ""));
  for (const power of Object.keys(state.tables.variant?.powers ?? {})) home.append(new Option(power, power));
  home.value = spec.home ?? "";
  $("province-borders").textContent = extendsBase()
    ? "as the base variant draws them"
    : (spec.borders ?? []).join(", ") || "none";
  $("edit-borders").disabled = extendsBase();
  const mine = state.problems.filter((p) => p.provinces.includes(code));
  $("province-problems").replaceChildren(...mine.map((p) => Object.assign(document.createElement("li"), { textContent: p.message })));
}

function provinceEdited() {
  const code = state.selected;
  const spec = (provinces()[code] ??= {});
  const name = $("province-name").value.trim();
  if (name) spec.name = name;
  spec.terrain = $("province-terrain").value;
  if ($("province-sc").checked) spec.sc = true;
  else delete spec.sc;
  if ($("province-home").value) spec.home = $("province-home").value;
  else delete spec.home;
  changed();
}

// --- saving and checking ------------------------------------------------------------------------------

function changed({ fromText = false } = {}) {
  if (!fromText) $("tables").value = JSON.stringify(state.tables, null, 2);
  localStorage.setItem(backupKey, JSON.stringify({ revision: state.draft.revision, tables: state.tables }));
  $("save-state").textContent = "not saved yet";
  drawMap();
  showProvince();
  timeline.render();
  clearTimeout(state.timer);
  state.timer = setTimeout(save, 700);
}

// Whether the edits were saved.
async function save() {
  state.timer = null;
  try {
    const { body } = await call(draftUrl, { method: "PUT", json: { tables: state.tables, revision: state.draft.revision } });
    state.draft = body;
    localStorage.removeItem(backupKey);
    $("save-state").textContent = `saved (revision ${body.revision})`;
    notice("");
    await check();
    return true;
  } catch (error) {
    const stale = error instanceof ApiError && error.status === 409;
    $("save-state").textContent = "not saved";
    notice(stale ? `${error.message} Your edits are kept in this browser until you reload.` : error.message);
    return false;
  }
}

async function check() {
  const { body } = await call(`${draftUrl}/check`);
  state.problems = body.problems;
  $("check-summary").textContent = body.ok ? "No problems: ready to publish." : `${body.problems.length} problem(s)`;
  $("check-problems").replaceChildren(
    ...body.problems.map((problem) => {
      const item = document.createElement("li");
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: `${problem.at}: ${problem.message}` });
      // to its province on the map, or else to its timeline event in the form
      if (problem.provinces.length) button.addEventListener("click", () => provinceClicked(problem.provinces[0]));
      else button.addEventListener("click", () => timeline.edit(problem.events[0] - 1));
      item.append(problem.provinces.length || problem.events?.length ? button : problem.message);
      return item;
    }),
  );
  $("check-timeline").replaceChildren(
    ...body.timeline.map((moment) => Object.assign(document.createElement("li"), { textContent: `${moment.when}: ${moment.events.map((e) => e.text).join("; ")}` })),
  );
  timeline.render(body.problems);
  preview.set(body);
  drawMap();
  showProvince();
}

// --- loading, the SVG map, publishing -----------------------------------------------------------------

async function loadGeometry() {
  if (state.draft.geometry || !extendsBase()) return state.draft.geometry;
  const { body } = await call(`${config.variants}${state.tables.variant.base}`);
  return body.geometry;
}

async function load() {
  const { body } = await call(draftUrl);
  state.draft = body;
  state.tables = body.tables;
  const backup = JSON.parse(localStorage.getItem(backupKey) ?? "null");
  state.geometry = await loadGeometry();
  $("package").href = `${draftUrl}/package`;
  $("tables").value = JSON.stringify(state.tables, null, 2);
  $("save-state").textContent = `saved (revision ${body.revision})`;
  if (backup && backup.revision === body.revision) {
    state.tables = backup.tables;
    notice("Edits this browser had not saved yet are restored.");
    changed();
  } else {
    localStorage.removeItem(backupKey);
    drawMap();
    await check();
  }
  document.body.dataset.ready = "true";
}

async function svgChosen(event) {
  event.preventDefault();
  const file = $("svg-file").files[0];
  if (!file) return;
  try {
    const job = await importSvg(draftUrl, await file.text(), state.draft.revision, () => notice("Reading the map's shapes and borders…"));
    const body = job.draft;
    state.draft = body;
    state.tables = body.tables;
    state.geometry = body.geometry;
    $("tables").value = JSON.stringify(state.tables, null, 2);
    $("svg-warnings").replaceChildren(...job.warnings.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
    notice("");
    await check();
  } catch (error) {
    const problems = error.body?.error?.problems ?? [];
    notice(problems.length ? problems.map((p) => p.message).join("; ") : error.message);
  }
}

async function publish() {
  try {
    const { body } = await call(`${draftUrl}/publish`, { method: "POST", json: { revision: state.draft.revision } });
    $("publish-result").textContent = `Published ${body.slug} version ${body.number}.`;
  } catch (error) {
    $("publish-result").textContent = error.message;
  }
}

// The draft as saved (an edit still waiting for its save is saved first) opened in a sandbox of its own.
async function trySandbox() {
  if (state.timer) {
    clearTimeout(state.timer);
    if (!(await save())) return;
  }
  try {
    const { body } = await call("/api/v1/sandboxes", { method: "POST", json: { draft: config.draft, revision: state.draft.revision } });
    window.location.assign(body.page_url);
  } catch (error) {
    const problems = error.body?.error?.problems ?? [];
    $("publish-result").textContent = problems.length ? `${error.message}: ${problems.map((p) => p.message).join("; ")}` : error.message;
  }
}

const timeline = new TimelineEditor({ tables: () => state.tables, changed, redraw: () => drawMap() });
const preview = new Preview(() => drawMap());

$("tables").addEventListener("input", () => {
  try {
    state.tables = JSON.parse($("tables").value);
  } catch {
    $("save-state").textContent = "not saved: the JSON is not valid";
    return;
  }
  changed({ fromText: true });
});
for (const id of ["province-name", "province-terrain", "province-sc", "province-home"]) $(id).addEventListener("change", provinceEdited);
$("svg-form").addEventListener("submit", svgChosen);
$("publish").addEventListener("click", publish);
$("try-sandbox").addEventListener("click", trySandbox);
load().catch((error) => notice(error.message));
