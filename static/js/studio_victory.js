// The studio's victory panel: the centres a solo win needs (variant.toml [victory] centres; 0 switches
// the centre majority off) and the timeline's [[victory]] conditions (dipserver/engine/victory.py): a
// unit in a province at a date, provinces owned, the last power standing (after a date), no winner after
// a date; with draws where provinces are split. Provinces are picked on the map as for timeline events.
import { setKey } from "./studio_rules.js";

const $ = (id) => document.getElementById(id);
// Which fields each condition has.
const FIELDS = {
  unit_in_province: ["provinces", "phase", "must_own"],
  province_control: ["provinces", "only_centres", "split"],
  sole_survivor: ["phase"],
  no_winner_after: ["phase"],
};

export function victoryText(condition) {
  const after = condition.phase ? ` after ${condition.phase}` : "";
  switch (condition.type) {
    case "unit_in_province":
      return `the power with a unit in ${condition.province}${condition.must_own ? " (which it owns)" : ""}${after} wins`;
    case "province_control":
      return `owning ${(condition.provinces ?? []).join(", ")} wins${condition.when === "only_centres" ? " once they are the last centres" : ""}${condition.split === "draw" ? "; split between powers, a draw" : ""}`;
    case "sole_survivor":
      return `the last power standing${after} wins`;
    case "no_winner_after":
      return `the game ends without a winner${after}`;
    default:
      return condition.type;
  }
}

export class VictoryEditor {
  constructor({ tables, changed }) {
    Object.assign(this, { tables, changed });
    $("victory-centres").addEventListener("change", () => this.writeCentres());
    $("victory-type").addEventListener("change", () => this.showFields());
    $("victory-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.add();
    });
    this.showFields();
  }

  conditions() {
    return this.tables().timeline?.victory ?? [];
  }

  writeCentres() {
    const text = $("victory-centres").value.trim();
    const number = Number(text);
    if (text && (!Number.isInteger(number) || number < 0)) return;
    setKey(this.tables(), "variant", ["victory", "centres"], text ? number : undefined);
    this.changed();
  }

  showFields() {
    const shown = FIELDS[$("victory-type").value];
    for (const node of document.querySelectorAll("#victory-form [data-victory]")) node.hidden = !shown.includes(node.dataset.victory);
  }

  render() {
    if (document.activeElement !== $("victory-centres")) $("victory-centres").value = this.tables().variant?.victory?.centres ?? "";
    $("victory-list").replaceChildren(
      ...this.conditions().map((condition, index) => {
        const item = Object.assign(document.createElement("li"), { textContent: `${victoryText(condition)} ` });
        const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Remove" });
        remove.setAttribute("aria-label", `Remove victory condition ${index + 1}`);
        remove.addEventListener("click", () => {
          this.conditions().splice(index, 1);
          if (!this.conditions().length) setKey(this.tables(), "timeline", ["victory"], undefined);
          this.changed();
        });
        item.append(remove);
        return item;
      }),
    );
  }

  // The form as a condition; throws with the reason.
  read() {
    const type = $("victory-type").value;
    const shown = FIELDS[type];
    const condition = { type };
    const provinces = [...new Set($("victory-provinces").value.toUpperCase().split(/[\s,;]+/).filter(Boolean))];
    const phase = $("victory-phase").value.trim().toUpperCase();
    if (type === "unit_in_province") {
      if (provinces.length !== 1) throw new Error("Pick the one province the unit must stand in.");
      condition.province = provinces[0];
    } else if (shown.includes("provinces")) {
      if (!provinces.length) throw new Error("Pick the provinces to own.");
      condition.provinces = provinces;
    }
    if (shown.includes("phase")) {
      if (phase && !/^[SFW]\d{4}[MRA]$/.test(phase)) throw new Error(`A phase is like W1911A, not “${phase}”.`);
      if (!phase && type !== "sole_survivor") throw new Error("Give the phase, e.g. W1911A.");
      if (phase) condition.phase = phase;
    }
    if (shown.includes("must_own") && $("victory-must-own").checked) condition.must_own = true;
    if (shown.includes("only_centres") && $("victory-only-centres").checked) condition.when = "only_centres";
    if (shown.includes("split") && $("victory-split").checked) condition.split = "draw";
    return condition;
  }

  add() {
    let condition;
    try {
      condition = this.read();
    } catch (error) {
      $("victory-error").textContent = error.message;
      return;
    }
    const tables = this.tables();
    tables.timeline ??= {};
    (tables.timeline.victory ??= []).push(condition);
    $("victory-form").reset();
    $("victory-error").textContent = "";
    this.showFields();
    this.changed();
  }
}
