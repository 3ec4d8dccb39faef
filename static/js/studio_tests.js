// The studio's tests panel: the variant's own tests (tables.tests.scenarios, tests/scenarios.toml in the
// package; format in variants/README.md, "Tests"). Each is listed green or red with why, as the check run
// after every save found it; the form sets up units by clicking the map (a Placer), takes orders and what
// must follow, and "Try it" runs the case on the saved draft before it is added.
import { call } from "./api.js";
import { Placer, textOfUnits, unitsOfText } from "./studio_units.js";
import { testItem } from "./test_items.js";
import { testsSummary } from "./test_results.js";

const $ = (id) => document.getElementById(id);

// "BOT=land, TYR=yes" -> {BOT: "land", TYR: "yes"}
function pairs(text) {
  const out = {};
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = pair.match(/^([A-Za-z0-9]{2,4})\s*[=:]\s*(\w+)$/);
    if (!match) throw new Error(`Write “CODE=value”, comma-separated, not “${pair}”.`);
    out[match[1].toUpperCase()] = match[2].toLowerCase();
  }
  return out;
}

function optionsOf(text) {
  return Object.fromEntries(
    Object.entries(pairs(text)).map(([name, value]) => [name.toLowerCase(), value === "true" || value === "on" ? true : value === "false" || value === "off" ? false : value]),
  );
}

export class TestsEditor {
  // tables(): the draft's tables; changed(): save and check; draftUrl: the draft's API address;
  // powers(): the variant's powers.
  constructor({ tables, changed, redraw, draftUrl, powers }) {
    Object.assign(this, { tables, changed, draftUrl, editing: null, results: [] });
    this.placer = Placer.add(
      new Placer(document.querySelector("[data-placer=test]"), {
        powers,
        get: () => unitsOfText($("test-units").value),
        set: (units) => {
          $("test-units").value = textOfUnits(units);
          redraw();
        },
        redraw,
      }),
    );
    $("test-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    $("test-try").addEventListener("click", () => this.attempt());
    $("test-cancel").addEventListener("click", () => this.clear());
  }

  cases() {
    return this.tables().tests?.scenarios ?? [];
  }

  // The check's results (report.tests), in the order of the cases.
  render(results = this.results) {
    this.results = results;
    this.placer.render();
    const winner = $("expect-winner");
    const chosen = winner.value;
    winner.replaceChildren(new Option("not checked", "-"), new Option("nobody has won", ""), ...this.placer.powers().map((p) => new Option(p, p)));
    winner.value = [...winner.options].some((o) => o.value === chosen) ? chosen : "-";
    const cases = this.cases();
    $("tests-summary").textContent = cases.length
      ? testsSummary(results)
      : "No tests yet: a test sets up units, gives orders and says what must follow. Every save runs them.";
    $("tests-list").replaceChildren(...cases.map((scenario, index) => this.item(scenario, index, results[index])));
  }

  item(scenario, index, result) {
    const buttons = [["Edit", () => this.edit(index)], ["Remove", () => this.remove(index)]].flatMap(([label, action]) => {
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: label });
      button.setAttribute("aria-label", `${label} test ${index + 1}`);
      button.addEventListener("click", action);
      return [" ", button];
    });
    const item = testItem(scenario.name, result, buttons);
    item.dataset.test = String(index + 1);
    return item;
  }

  // The form as a case; throws with the reason.
  read() {
    const scenario = { name: $("test-name").value.trim() };
    if (!scenario.name) throw new Error("Give the test a name.");
    for (const [id, key] of [["test-phase", "phase"], ["test-until", "until"]]) {
      const phase = $(id).value.trim().toUpperCase();
      if (phase && !/^[SFW]\d{4}[MRA]$/.test(phase)) throw new Error(`A phase is like S1901M, not “${phase}”.`);
      if (phase) scenario[key] = phase;
    }
    const options = optionsOf($("test-options").value);
    if (Object.keys(options).length) scenario.options = options;
    scenario.units = unitsOfText($("test-units").value);
    scenario.orders = unitsOfText($("test-orders").value, "order");
    const expect = {};
    const units = unitsOfText($("expect-units").value);
    if (Object.keys(units).length) expect.units = units;
    const phase = $("expect-phase").value.trim().toUpperCase();
    if (phase) expect.phase = phase;
    const terrain = pairs($("expect-terrain").value);
    if (Object.keys(terrain).length) expect.terrain = terrain;
    const centres = Object.entries(pairs($("expect-centres").value));
    if (centres.length) expect.centres = Object.fromEntries(centres.map(([code, v]) => [code, ["yes", "true", "y"].includes(v)]));
    if ($("expect-winner").value !== "-") expect.winner = $("expect-winner").value;
    scenario.expect = expect;
    return scenario;
  }

  edit(index) {
    const scenario = this.cases()[index];
    const expect = scenario.expect ?? {};
    this.editing = index;
    $("test-name").value = scenario.name ?? "";
    $("test-phase").value = scenario.phase ?? "";
    $("test-until").value = scenario.until ?? "";
    $("test-options").value = Object.entries(scenario.options ?? {}).map(([k, v]) => `${k}=${v}`).join(", ");
    $("test-units").value = textOfUnits(scenario.units ?? {});
    $("test-orders").value = textOfUnits(scenario.orders ?? {}, "; ");
    $("expect-units").value = textOfUnits(expect.units ?? {});
    $("expect-phase").value = expect.phase ?? "";
    $("expect-terrain").value = Object.entries(expect.terrain ?? {}).map(([k, v]) => `${k}=${v}`).join(", ");
    $("expect-centres").value = Object.entries(expect.centres ?? {}).map(([k, v]) => `${k}=${v ? "yes" : "no"}`).join(", ");
    $("expect-winner").value = "winner" in expect ? expect.winner : "-";
    $("test-form-title").textContent = `Test ${index + 1}`;
    $("test-submit").textContent = "Save the test";
    $("test-cancel").hidden = false;
  }

  remove(index) {
    this.cases().splice(index, 1);
    if (!this.cases().length) delete this.tables().tests;
    this.clear();
    this.changed();
  }

  clear() {
    this.editing = null;
    $("test-form").reset();
    $("test-form-title").textContent = "A new test";
    $("test-submit").textContent = "Add the test";
    $("test-cancel").hidden = true;
    $("test-error").textContent = "";
    $("test-tried").textContent = "";
    Placer.press(null);
  }

  submit() {
    let scenario;
    try {
      scenario = this.read();
    } catch (error) {
      $("test-error").textContent = error.message;
      return;
    }
    const tables = this.tables();
    tables.tests ??= {};
    tables.tests.scenarios ??= [];
    if (this.editing === null) tables.tests.scenarios.push(scenario);
    else tables.tests.scenarios[this.editing] = scenario;
    this.clear();
    this.changed();
  }

  // The case as the form holds it, run on the draft as saved (nothing is saved).
  async attempt() {
    $("test-tried").textContent = "";
    try {
      const { body } = await call(`${this.draftUrl}/tests`, { method: "POST", json: { scenario: this.read() } });
      $("test-tried").textContent = body.passed ? "✓ It passes." : `✗ It fails: ${body.failures.join("; ")}`;
      $("test-error").textContent = "";
    } catch (error) {
      $("test-error").textContent = error.message;
    }
  }
}
