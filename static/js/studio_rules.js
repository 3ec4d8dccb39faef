// The studio's rules panel: the settings of variant.toml ([rules], [drawing], description) and of
// timeline.toml ([settings], [orders], [options.*], [[season_labels]]) as form controls. A control with
// data-table and data-key writes that key (a dotted path) of that table; "not set" removes it, and a
// table left empty is removed, so the files hold only what the game master chose.

const $ = (id) => document.getElementById(id);

function dig(tables, table, path) {
  let node = tables[table] ?? {};
  for (const key of path) node = node?.[key];
  return node;
}

// Set (or, with undefined, remove) tables[table][a][b]..., dropping the tables it leaves empty.
export function setKey(tables, table, path, value) {
  const chain = [(tables[table] ??= {})];
  for (const key of path.slice(0, -1)) chain.push((chain.at(-1)[key] ??= {}));
  if (value === undefined) delete chain.at(-1)[path.at(-1)];
  else chain.at(-1)[path.at(-1)] = value;
  for (let i = chain.length - 1; i > 0; i--) if (!Object.keys(chain[i]).length) delete chain[i - 1][path[i - 1]];
  if (!Object.keys(tables[table]).length) delete tables[table];
}

export class RulesEditor {
  // tables(): the draft's tables; changed(): save and check.
  constructor({ tables, changed }) {
    Object.assign(this, { tables, changed });
    this.controls = [...document.querySelectorAll("#rules-panel [data-table]")];
    for (const control of this.controls) control.addEventListener("change", () => this.write(control));
    $("rule-description").addEventListener("change", () => {
      setKey(this.tables(), "variant", ["description"], $("rule-description").value.trim() || undefined);
      this.changed();
    });
    $("option-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.addOption();
    });
    $("label-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.addLabels();
    });
  }

  write(control) {
    const value = control.type === "checkbox" ? control.checked || undefined : control.value || undefined;
    setKey(this.tables(), control.dataset.table, control.dataset.key.split("."), value);
    this.changed();
  }

  render() {
    const tables = this.tables();
    for (const control of this.controls) {
      const value = dig(tables, control.dataset.table, control.dataset.key.split("."));
      if (control.type === "checkbox") control.checked = Boolean(value);
      else control.value = value ?? "";
    }
    if (document.activeElement !== $("rule-description")) $("rule-description").value = tables.variant?.description ?? "";
    const options = tables.timeline?.options ?? {};
    $("options-list").replaceChildren(
      ...Object.entries(options).map(([name, spec]) =>
        this.item(`${name} (${spec.default === false ? "off" : "on"} by default): ${spec.description ?? ""}`, `Remove option ${name}`, () => {
          setKey(this.tables(), "timeline", ["options", name], undefined);
          this.changed();
        }),
      ),
    );
    const labels = tables.timeline?.season_labels ?? [];
    $("labels-list").replaceChildren(
      ...labels.map((label, index) =>
        this.item(`from ${label.from_year}: ${label.S} · ${label.F} · ${label.W}`, `Remove season names ${index + 1}`, () => {
          labels.splice(index, 1);
          if (!labels.length) setKey(this.tables(), "timeline", ["season_labels"], undefined);
          this.changed();
        }),
      ),
    );
    this.renderEventOptions(Object.keys(options));
  }

  // The event form's "Only in games" choice: with or without each option.
  renderEventOptions(names) {
    const select = $("event-option");
    const chosen = select.value;
    select.replaceChildren(
      new Option("always", ""),
      ...names.flatMap((name) => [new Option(`with ${name} on`, `if:${name}`), new Option(`with ${name} off`, `unless:${name}`)]),
    );
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  }

  item(text, label, remove) {
    const item = Object.assign(document.createElement("li"), { textContent: `${text} ` });
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Remove" });
    button.setAttribute("aria-label", label);
    button.addEventListener("click", remove);
    item.append(button);
    return item;
  }

  addOption() {
    const name = $("option-name").value.trim();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || name === "mode") {
      $("rules-error").textContent = "An option's name is lower-case letters, digits and _ (not “mode”).";
      return;
    }
    const spec = { default: $("option-default").checked };
    const description = $("option-description").value.trim();
    if (description) spec.description = description;
    setKey(this.tables(), "timeline", ["options", name], spec);
    $("option-form").reset();
    $("rules-error").textContent = "";
    this.changed();
  }

  addLabels() {
    const year = Number($("label-year").value);
    const names = { S: $("label-s").value.trim(), F: $("label-f").value.trim(), W: $("label-w").value.trim() };
    if (!Number.isInteger(year) || year < 1 || !names.S || !names.F || !names.W) {
      $("rules-error").textContent = "Give the first year and a name for each of the three seasons.";
      return;
    }
    const tables = this.tables();
    tables.timeline ??= {};
    (tables.timeline.season_labels ??= []).push({ from_year: year, ...names });
    $("label-form").reset();
    $("rules-error").textContent = "";
    this.changed();
  }
}
