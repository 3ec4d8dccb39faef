// Units placed by clicking the map: a placer is one row of the page (a power, army or fleet, a coast, and a
// "Place on the map" button). While its button is pressed, a click on a province places the chosen unit
// there, or removes the unit standing there. A placer reads and writes its units through get() and set(),
// {POWER: ["A PAR", "F STP/SC"]}: the start's units in start.toml, or a test's units in its form.

const UNIT = /^([AF])\s+([A-Z0-9]+)(?:\/([A-Z]{2}))?$/;

// "FRANCE: A PAR, F BRE" lines <-> {FRANCE: ["A PAR", "F BRE"]}; a power with none is "FRANCE:".
// Orders are the same with “;” between them: "FRANCE: A PAR - BUR; F BRE - MAO" (a power's lines add up).
export function unitsOfText(text, what = "unit") {
  const units = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const match = line.match(/^([A-Za-z_][\w-]*)\s*:\s*(.*)$/);
    if (!match) throw new Error(`Write each power's ${what}s as “POWER: …”, not “${line}”.`);
    const items = match[2].split(what === "order" ? ";" : ",").map((u) => u.trim()).filter(Boolean);
    const power = (units[match[1].toUpperCase()] ??= []);
    power.push(...items.map((u) => (what === "unit" ? u.toUpperCase().replace(/\s+/g, " ") : u)));
  }
  return units;
}

export function textOfUnits(units, joiner = ", ") {
  return Object.entries(units).map(([power, list]) => `${power}: ${list.join(joiner)}`).join("\n");
}

export class Placer {
  // root: the row; powers(): the variant's powers; get()/set(units): the units it edits; redraw(): the map.
  constructor(root, { powers, get, set, redraw }) {
    Object.assign(this, { root, powers, get, set, redraw, on: false });
    this.button = root.querySelector(".place-button");
    this.button.addEventListener("click", () => Placer.press(this.on ? null : this));
    this.render();
  }

  static all = [];

  static add(placer) {
    Placer.all.push(placer);
    return placer;
  }

  // Only one placer is pressed at a time.
  static press(chosen) {
    for (const placer of Placer.all) {
      placer.on = placer === chosen;
      placer.button.setAttribute("aria-pressed", String(placer.on));
      placer.button.textContent = placer.on ? "Done placing" : "Place on the map";
    }
    chosen?.render();
    Placer.all[0]?.redraw();
  }

  static active() {
    return Placer.all.find((placer) => placer.on) ?? null;
  }

  // A province clicked: the unit placed or removed (true: the click is used).
  static click(code) {
    const placer = Placer.active();
    if (!placer) return false;
    placer.toggle(code);
    return true;
  }

  render() {
    const select = this.root.querySelector(".placer-power");
    const chosen = select.value;
    select.replaceChildren(...this.powers().map((power) => new Option(power, power)));
    if (chosen) select.value = chosen;
  }

  toggle(code) {
    let units;
    try {
      units = structuredClone(this.get());
    } catch (error) {
      return; // a form whose units cannot be read says why itself
    }
    const standing = Object.entries(units).find(([, list]) => list.some((u) => u.match(UNIT)?.[2] === code));
    if (standing) {
      const [power, list] = standing;
      units[power] = list.filter((u) => u.match(UNIT)?.[2] !== code);
    } else {
      const power = this.root.querySelector(".placer-power").value;
      if (!power) return;
      const type = this.root.querySelector(".placer-type").value;
      const coast = this.root.querySelector(".placer-coast").value.trim().toUpperCase();
      (units[power] ??= []).push(`${type} ${code}${type === "F" && coast ? `/${coast}` : ""}`);
    }
    this.set(units);
  }
}

// The units to draw on the map: [{power, type, province}] of a units table (unreadable entries left out).
export function unitsDrawn(units) {
  return Object.entries(units ?? {}).flatMap(([power, list]) =>
    (Array.isArray(list) ? list : []).flatMap((text) => {
      const match = String(text).match(UNIT);
      return match ? [{ power, type: match[1], province: match[2] }] : [];
    }),
  );
}
