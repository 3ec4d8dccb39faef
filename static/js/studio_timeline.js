// The studio's timeline editor: the draft's [[events]] of timeline.toml as a list, each with the check's
// problems about it, and a form to add, edit or remove one. Provinces are picked by clicking the map while
// a "Pick on the map" button is pressed (or typed). The editor writes tables.timeline.events and calls
// changed(), which saves the draft with its revision and runs the check, as every other edit does.
// "Only in games" writes if/unless (a game option on or off); keys the form does not show are kept.

const $ = (id) => document.getElementById(id);

export const HOOK_WORDS = {
  after_spring_retreats: "after the Spring retreats",
  after_fall_retreats: "after the Autumn retreats",
  before_winter_adjustments: "before the Winter adjustments",
  after_winter_adjustments: "after the Winter adjustments",
};
// What a change does, said of one province and of several.
const CHANGE_WORDS = {
  land: ["becomes land", "become land"],
  sea: ["becomes sea", "become sea"],
  impassable: ["becomes impassable", "become impassable"],
  sc_gain: ["becomes a supply centre", "become supply centres"],
  sc_loss: ["stops being a supply centre", "stop being supply centres"],
};
const MANAGED = ["year", "chance", "hook", "change", "provinces", "except", "when", "until", "if", "unless"];
const PICKS = ["event-provinces", "event-except", "when-provinces"];

function codes(text) {
  return [...new Set(text.toUpperCase().split(/[\s,;]+/).filter(Boolean))];
}

function conditionText(when) {
  const who = when.power || "some power";
  if ("centres" in when) return `${who} owns ${when.centres} centres or more`;
  if ("controls" in when) return `${who} controls ${(when.controls ?? []).join(", ")}`;
  const where = (when.occupied ?? []).join(", ");
  return when.power ? `${when.power}'s units stand in ${where}` : `units stand in ${where}`;
}

// One event in words, e.g. "1903 after the Spring retreats: AEG, TYS become land".
export function eventText(event) {
  const hook = HOOK_WORDS[event.hook] ?? "at the default hook";
  let moment = `${event.year ?? ""} ${hook}`.trim();
  if (event.chance) moment = `by chance (${Object.entries(event.chance).map(([y, p]) => `${y}: ${p} %`).join(", ")}) ${hook}`;
  if (event.when) {
    const years = [event.year && `from ${event.year}`, event.until && `until ${event.until}`].filter(Boolean).join(" ");
    moment = `when ${conditionText(event.when)}${years ? ` (${years})` : ""}, ${hook}`;
  }
  const what =
    event.change === "sc_loss_all"
      ? `every supply centre is lost${event.except?.length ? ` except ${event.except.join(", ")}` : ""}`
      : `${(event.provinces ?? []).join(", ")} ${CHANGE_WORDS[event.change]?.[event.provinces?.length > 1 ? 1 : 0] ?? event.change}`;
  const only = event.if ? ` (with ${event.if} on)` : event.unless ? ` (with ${event.unless} off)` : "";
  return `${moment}: ${what}${only}`;
}

function whole(id, label, { required = false } = {}) {
  const text = $(id).value.trim();
  if (!text) {
    if (required) throw new Error(`${label} is needed.`);
    return undefined;
  }
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${label} is a whole number, not “${text}”.`);
  return number;
}

function chanceOf(text) {
  const chance = {};
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = pair.match(/^(\d{1,4})\s*[:=]\s*(\d{1,3})\s*%?$/);
    if (!match) throw new Error(`A chance is “year: per cent”, comma-separated, not “${pair}”.`);
    chance[match[1]] = Number(match[2]);
  }
  if (!Object.keys(chance).length) throw new Error("Give the chance per year, e.g. 1902: 25, 1903: 100.");
  return chance;
}

export class TimelineEditor {
  // tables(): the draft's tables as they are now; changed(): save and check; redraw(): the map again;
  // powers(): the variant's powers (a draft extending a variant may not list them).
  constructor({ tables, changed, redraw, powers = () => Object.keys(tables()?.variant?.powers ?? {}) }) {
    Object.assign(this, { tables, changed, redraw, powers, editing: null, pickInto: null, problems: [] });
    $("event-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    $("event-cancel").addEventListener("click", () => this.clear());
    for (const id of ["event-timing", "event-change", "when-kind"]) $(id).addEventListener("change", () => this.showFields());
    for (const button of document.querySelectorAll(".pick-button")) {
      button.addEventListener("click", () => this.pickWith(this.pickInto === button.dataset.pick ? null : button.dataset.pick));
    }
    for (const id of PICKS) $(id).addEventListener("input", () => this.redraw());
    this.showFields();
  }

  events() {
    return this.tables().timeline?.events ?? [];
  }

  // A province clicked on the map: into the pressed "Pick" field, if any (true: the click is used).
  pick(code) {
    if (!this.pickInto) return false;
    const input = $(this.pickInto);
    const chosen = codes(input.value);
    input.value = (chosen.includes(code) ? chosen.filter((c) => c !== code) : [...chosen, code]).join(", ");
    this.redraw();
    return true;
  }

  // The provinces the pressed field holds, drawn picked on the map.
  picked() {
    return new Set(this.pickInto ? codes($(this.pickInto).value) : []);
  }

  pickWith(id) {
    this.pickInto = id;
    for (const button of document.querySelectorAll(".pick-button")) {
      const on = button.dataset.pick === id;
      button.setAttribute("aria-pressed", String(on));
      button.textContent = on ? "Done picking" : "Pick on the map";
    }
    this.redraw();
  }

  showFields() {
    const timing = $("event-timing").value;
    const all = $("event-change").value === "sc_loss_all";
    const kind = $("when-kind").value;
    for (const node of document.querySelectorAll("#event-form [data-timing]")) {
      // a conditional event's year is optional: the first year its condition is looked at
      node.hidden = node.dataset.timing !== timing && !(node.dataset.timing === "year" && timing === "when");
    }
    $("event-year").closest("label").firstChild.textContent = timing === "when" ? "From year " : "Year ";
    for (const node of document.querySelectorAll("#event-form [data-change]")) node.hidden = (node.dataset.change === "all") !== all;
    for (const node of document.querySelectorAll("#event-form [data-kind]")) {
      node.hidden = (node.dataset.kind === "centres") !== (kind === "centres");
    }
    if (this.pickInto && $(this.pickInto).closest("[hidden]")) this.pickWith(null);
  }

  // The list, each event with the check's problems about it (problem.events: 1-based numbers).
  render(problems = this.problems) {
    this.problems = problems;
    const power = $("when-power");
    const chosen = power.value;
    const powers = this.powers();
    power.replaceChildren(new Option("any power", ""), ...powers.map((name) => new Option(name, name)));
    // a power the variant lacks (written in the tables) stays as written, for the check to name it
    if (chosen && !powers.includes(chosen)) power.append(new Option(`${chosen} (not a power)`, chosen));
    power.value = chosen;
    $("timeline-events").replaceChildren(...this.events().map((event, index) => this.item(event, index)));
    if (!this.events().length) $("timeline-events").append(Object.assign(document.createElement("li"), { className: "muted", textContent: "No events: the map never changes." }));
  }

  item(event, index) {
    const item = document.createElement("li");
    item.dataset.event = String(index + 1);
    if (index === this.editing) item.classList.add("editing");
    const text = Object.assign(document.createElement("span"), { textContent: eventText(event) });
    const edit = Object.assign(document.createElement("button"), { type: "button", textContent: "Edit" });
    edit.setAttribute("aria-label", `Edit event ${index + 1}`);
    edit.addEventListener("click", () => this.edit(index));
    const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Remove" });
    remove.setAttribute("aria-label", `Remove event ${index + 1}`);
    remove.addEventListener("click", () => this.remove(index));
    const mine = this.problems.filter((p) => p.events?.includes(index + 1));
    const list = Object.assign(document.createElement("ul"), { className: "problems" });
    list.append(...mine.map((p) => Object.assign(document.createElement("li"), { textContent: `${p.at}: ${p.message}` })));
    item.append(text, " ", edit, " ", remove, list);
    return item;
  }

  edit(index) {
    const event = this.events()[index];
    this.editing = index;
    $("event-timing").value = event.when ? "when" : event.chance ? "chance" : "year";
    $("event-year").value = event.year ?? "";
    $("event-chance").value = Object.entries(event.chance ?? {}).map(([y, p]) => `${y}: ${p}`).join(", ");
    $("event-hook").value = event.hook ?? "";
    $("event-change").value = event.change ?? "land";
    $("event-provinces").value = (event.provinces ?? []).join(", ");
    $("event-except").value = (event.except ?? []).join(", ");
    const when = event.when ?? {};
    $("when-kind").value = ["controls", "centres", "occupied"].find((k) => k in when) ?? "controls";
    if (when.power && ![...$("when-power").options].some((o) => o.value === when.power)) $("when-power").append(new Option(when.power, when.power));
    $("when-power").value = when.power ?? "";
    $("when-centres").value = when.centres ?? "";
    $("when-provinces").value = (when.controls ?? when.occupied ?? []).join(", ");
    $("when-until").value = event.until ?? "";
    const only = event.if ? `if:${event.if}` : event.unless ? `unless:${event.unless}` : "";
    if (only && ![...$("event-option").options].some((o) => o.value === only)) $("event-option").append(new Option(only, only));
    $("event-option").value = only;
    $("event-form-title").textContent = `Event ${index + 1}`;
    $("event-submit").textContent = "Save the event";
    $("event-cancel").hidden = false;
    $("event-error").textContent = "";
    this.showFields();
    this.render();
    $("event-form").scrollIntoView({ block: "nearest" });
  }

  remove(index) {
    this.events().splice(index, 1);
    if (!this.events().length) this.dropEmpty();
    this.clear();
    this.changed();
  }

  dropEmpty() {
    const timeline = this.tables().timeline;
    delete timeline.events;
    if (!Object.keys(timeline).length) delete this.tables().timeline;
  }

  clear() {
    this.editing = null;
    $("event-form").reset();
    $("event-form-title").textContent = "A new event";
    $("event-submit").textContent = "Add the event";
    $("event-cancel").hidden = true;
    $("event-error").textContent = "";
    this.pickWith(null);
    this.showFields();
    this.render();
  }

  // The form as an event (keeping the keys it does not show of the event edited); throws with the reason.
  read() {
    const old = this.editing === null ? {} : this.events()[this.editing];
    const event = Object.fromEntries(Object.entries(old).filter(([key]) => !MANAGED.includes(key)));
    const timing = $("event-timing").value;
    if (timing === "chance") event.chance = chanceOf($("event-chance").value);
    else {
      const year = whole("event-year", timing === "when" ? "From year" : "The year", { required: timing === "year" });
      if (year !== undefined) event.year = year;
    }
    if ($("event-hook").value) event.hook = $("event-hook").value; // else [defaults] hook applies
    event.change = $("event-change").value;
    if (event.change === "sc_loss_all") {
      const kept = codes($("event-except").value);
      if (kept.length) event.except = kept;
    } else {
      event.provinces = codes($("event-provinces").value);
      if (!event.provinces.length) throw new Error("Pick the provinces that change on the map.");
    }
    const [only, option] = $("event-option").value.split(":");
    if (option) event[only] = option;
    if (timing === "when") {
      const kind = $("when-kind").value;
      const when = {};
      if (kind === "centres") when.centres = whole("when-centres", "The number of centres", { required: true });
      else {
        when[kind] = codes($("when-provinces").value);
        if (!when[kind].length) throw new Error("Pick the condition's provinces on the map.");
      }
      if ($("when-power").value) when.power = $("when-power").value;
      event.when = when;
      const until = whole("when-until", "Until year");
      if (until !== undefined) event.until = until;
    }
    return event;
  }

  submit() {
    let event;
    try {
      event = this.read();
    } catch (error) {
      $("event-error").textContent = error.message;
      return;
    }
    const tables = this.tables();
    tables.timeline ??= {};
    tables.timeline.events ??= [];
    if (this.editing === null) tables.timeline.events.push(event);
    else tables.timeline.events[this.editing] = event;
    this.clear();
    this.changed();
  }
}
