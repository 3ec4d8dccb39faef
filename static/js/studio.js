// The variant studio's editor: the draft through /api/v1/studio/ as any client would. Every change is
// kept in localStorage at once (nothing lost on a closed tab) and saved with the revision it was loaded
// at; a save from a stale tab is refused by the server and said so. After each save the engine's check
// runs and each problem is shown beside the provinces it names, and beside the timeline events it concerns.
import { ApiError, call } from "./api.js";
import { importSvg } from "./studio_import.js";
import { Preview } from "./studio_preview.js";
import { RulesEditor } from "./studio_rules.js";
import { TestsEditor } from "./studio_tests.js";
import { TimelineEditor } from "./studio_timeline.js";
import { Placer, unitsDrawn } from "./studio_units.js";
import { VictoryEditor } from "./studio_victory.js";

const config = JSON.parse(document.getElementById("studio-config").textContent);
const draftUrl = `${config.api}drafts/${config.draft}`;
const backupKey = `studio-draft-${config.draft}`;
const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// start: the check's start (terrain, centres, powers, units of the variant as its files make it)
const state = { draft: null, tables: null, geometry: null, selected: null, problems: [], timer: null, start: null };

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

// A province the draft writes whole (its name, terrain, borders): every one of a blank draft; in a draft
// extending a variant, one the base lacks (drawn on its map but not in its files, e.g. an island to open).
function ownProvince(code) {
  if (!extendsBase() || provinces()[code]?.borders !== undefined) return true;
  return Boolean(state.start && !(code in state.start.terrain));
}

// The variant's powers: the draft's own (they replace its base's as a whole), else those the check found.
function powerNames() {
  const own = Object.keys(state.tables?.variant?.powers ?? {});
  return own.length ? own : (state.start?.powers ?? []);
}

function startUnits() {
  return state.tables.start?.units ?? state.start?.units ?? {};
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
  const svg = element("svg", { viewBox: `0 0 ${state.geometry.width} ${state.geometry.height}`, role: "img", "aria-label": "The draft's map" }, holder);
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
  drawUnits(svg);
}

// The units being placed: a test's while its placer is pressed, else the start's (not in a preview).
function drawUnits(svg) {
  const placing = Placer.active();
  if (preview.step() && !placing) return;
  let units = startUnits();
  if (placing === tests.placer) {
    try {
      units = placing.get();
    } catch {
      units = {};
    }
  }
  for (const unit of unitsDrawn(units)) {
    const at = state.geometry.provinces[unit.province]?.unit ?? state.geometry.provinces[unit.province]?.label;
    if (!at) continue;
    const mark = element("text", { x: at[0], y: at[1] + 12, class: "unit", "data-unit": unit.province }, svg);
    mark.textContent = `${unit.type} ${unit.power.slice(0, 3)}`;
  }
}

// --- one province -------------------------------------------------------------------------------------

function provinceClicked(code) {
  if (Placer.click(code) || timeline.pick(code)) return;
  if ($("edit-borders").checked && state.selected && state.selected !== code) {
    toggleBorder(state.selected, code);
    return;
  }
  state.selected = code;
  showProvince();
  drawMap();
}

// A border added or removed on both sides: in the province's own borders, or, for a province of the base
// variant, in add_borders (a derived variant adds borders to the base's; it cannot take one away).
function toggleBorder(a, b) {
  const all = provinces();
  for (const [one, other] of [[a, b], [b, a]]) {
    const own = ownProvince(one);
    const key = own ? "borders" : "add_borders";
    all[one] ??= own ? { name: one, terrain: "land", borders: [] } : {};
    const borders = new Set(all[one][key] ?? []);
    if (borders.has(other)) borders.delete(other);
    else borders.add(other);
    if (borders.size || own) all[one][key] = [...borders].sort();
    else delete all[one][key];
    if (!Object.keys(all[one]).length) delete all[one];
  }
  changed();
}

function coastsText(coasts) {
  return Object.entries(coasts ?? {}).map(([coast, seas]) => `${coast}: ${seas.join(", ")}`).join("; ");
}

// "NC: BAR; SC: BOT, GOL" -> {NC: ["BAR"], SC: ["BOT", "GOL"]}; null when empty.
function coastsOf(text) {
  const coasts = {};
  for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
    const match = part.match(/^([A-Za-z]{2})\s*:\s*(.+)$/);
    if (!match) throw new Error(`Name each coast and its seas, “NC: BAR; SC: BOT”, not “${part}”.`);
    coasts[match[1].toUpperCase()] = match[2].toUpperCase().split(/[\s,]+/).filter(Boolean);
  }
  return Object.keys(coasts).length ? coasts : null;
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
  for (const power of powerNames()) home.append(new Option(power, power));
  home.value = spec.home ?? "";
  const own = ownProvince(code);
  $("province-new").hidden = !(extendsBase() && own);
  $("province-borders").textContent = own
    ? (spec.borders ?? []).join(", ") || "none"
    : `the base variant's${spec.add_borders?.length ? `, and ${spec.add_borders.join(", ")}` : ""}`;
  if (document.activeElement !== $("province-coasts")) $("province-coasts").value = coastsText(spec.coasts);
  const mine = state.problems.filter((p) => p.provinces.includes(code));
  $("province-problems").replaceChildren(...mine.map((p) => Object.assign(document.createElement("li"), { textContent: p.message })));
}

function provinceEdited() {
  const code = state.selected;
  let coasts;
  try {
    coasts = coastsOf($("province-coasts").value);
  } catch (error) {
    notice(error.message);
    return;
  }
  const own = ownProvince(code);
  const spec = (provinces()[code] ??= {});
  const name = $("province-name").value.trim();
  if (name) spec.name = name;
  else if (own) spec.name ??= code;
  if (own) spec.borders ??= [];
  if (coasts) spec.coasts = coasts;
  else delete spec.coasts;
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
  renderPanels();
  clearTimeout(state.timer);
  state.timer = setTimeout(save, 700);
}

// Whether the edits were saved. One save at a time: the next waits for the one on its way, so it sends
// the revision that one got back (not the one before, which the server would refuse as stale).
async function save() {
  state.timer = null;
  const before = state.saving;
  const mine = (async () => {
    await before;
    return saveNow();
  })();
  state.saving = mine;
  return mine;
}

async function saveNow() {
  try {
    const { body } = await call(draftUrl, { method: "PUT", json: { tables: state.tables, revision: state.draft.revision } });
    state.draft = body;
    // an edit made while this one was on its way waits for its own save (and keeps its backup)
    if (!state.timer) localStorage.removeItem(backupKey);
    $("save-state").textContent = state.timer ? "not saved yet" : `saved (revision ${body.revision})`;
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
  state.start = body.start;
  timeline.render(body.problems);
  tests.render(body.tests ?? []);
  preview.set(body);
  drawMap();
  showProvince();
  renderPanels();
}

// --- loading, the SVG map, publishing -----------------------------------------------------------------

// The draft's own drawing, or its base's: with the shapes the base draws but does not have (off the board
// there, e.g. an island), clickable as absent provinces for the draft to add.
async function loadGeometry() {
  if (state.draft.geometry || !extendsBase()) return state.draft.geometry;
  const { body } = await call(`${config.variants}${state.tables.variant.base}`);
  const geometry = body.geometry;
  if (!geometry) return geometry;
  const offBoard = Object.entries(geometry.off_board ?? {}).map(([code, drawn]) => [code, { ...drawn, medium: "absent" }]);
  return { ...geometry, provinces: { ...geometry.provinces, ...Object.fromEntries(offBoard) } };
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
  if (!file || !(await savePending())) return; // the map is read into the draft as saved
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

// Whether every edit made so far is saved: an edit still waiting for its save is saved now, and a save on
// its way is waited for, so that what is published or tried is what the author sees.
async function savePending() {
  if (state.timer) {
    clearTimeout(state.timer);
    return save();
  }
  return state.saving ? state.saving : true;
}

async function publish() {
  if (!(await savePending())) {
    $("publish-result").textContent = "Not published: the latest edits could not be saved (the notice above says why).";
    return;
  }
  try {
    const { body } = await call(`${draftUrl}/publish`, { method: "POST", json: { revision: state.draft.revision } });
    $("publish-result").textContent = `Published ${body.slug} version ${body.number}.`;
  } catch (error) {
    $("publish-result").textContent = error.message;
  }
}

// The draft as saved (an edit still waiting for its save is saved first) opened in a sandbox of its own.
async function trySandbox() {
  if (!(await savePending())) return;
  try {
    const { body } = await call("/api/v1/sandboxes", { method: "POST", json: { draft: config.draft, revision: state.draft.revision } });
    window.location.assign(body.page_url);
  } catch (error) {
    const problems = error.body?.error?.problems ?? [];
    $("publish-result").textContent = problems.length ? `${error.message}: ${problems.map((p) => p.message).join("; ")}` : error.message;
  }
}

// The panels beside the map, drawn again after each edit.
function renderPanels() {
  timeline.render();
  rules.render();
  victory.render();
  tests.render();
  startPlacer.render();
  $("start-units").replaceChildren(
    ...Object.entries(startUnits()).map(([power, list]) => Object.assign(document.createElement("li"), { textContent: `${power}: ${list.join(", ") || "none"}` })),
  );
}

const tables = () => state.tables;
const timeline = new TimelineEditor({ tables, changed, redraw: () => drawMap(), powers: powerNames });
const preview = new Preview(() => drawMap());
const rules = new RulesEditor({ tables, changed });
const victory = new VictoryEditor({ tables, changed });
const tests = new TestsEditor({ tables, changed, redraw: () => drawMap(), draftUrl, powers: powerNames });
const startPlacer = Placer.add(
  new Placer(document.querySelector("[data-placer=start]"), {
    powers: powerNames,
    get: startUnits,
    set: (units) => {
      state.tables.start ??= {};
      state.tables.start.units = units;
      changed();
    },
    redraw: () => drawMap(),
  }),
);

$("tables").addEventListener("input", () => {
  try {
    state.tables = JSON.parse($("tables").value);
  } catch {
    $("save-state").textContent = "not saved: the JSON is not valid";
    return;
  }
  changed({ fromText: true });
});
for (const id of ["province-name", "province-terrain", "province-sc", "province-home", "province-coasts"]) $(id).addEventListener("change", provinceEdited);
$("svg-form").addEventListener("submit", svgChosen);
$("publish").addEventListener("click", publish);
$("try-sandbox").addEventListener("click", trySandbox);
load().catch((error) => notice(error.message));
