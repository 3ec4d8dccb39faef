// Phases and map changes in words, as the rules speak of them.

const SEASONS = { S: "Spring", F: "Autumn", W: "Winter" };
const KINDS = { M: "movement", R: "retreats", A: "builds" };
const HOOKS = {
  after_spring_retreats: "after the Spring retreats",
  after_fall_retreats: "after the Autumn retreats",
  before_winter_adjustments: "before the Winter builds",
  after_winter_adjustments: "after the Winter builds",
};
const CHANGES = {
  land: "dries into land",
  sea: "sinks into the sea",
  impassable: "becomes impassable",
  sc_gain: "becomes a supply centre",
  sc_loss: "stops being a supply centre",
  sc_loss_all: "every centre is lost",
};
// When each hook falls in a year, to tell what is still to come (the engine's clock: SM 0 … WA 40).
const PHASE_POINT = { SM: 0, SR: 10, FM: 20, FR: 30, WA: 40 };
const HOOK_POINT = {
  after_spring_retreats: 15,
  after_fall_retreats: 35,
  before_winter_adjustments: 36,
  after_winter_adjustments: 45,
};

export function phaseTitle(name) {
  if (!name) return "";
  return `${SEASONS[name[0]] || name[0]} ${name.slice(1, -1)} ${KINDS[name.at(-1)] || ""}`.trim();
}

export function hookWords(hook) {
  return HOOKS[hook] || hook;
}

export function changeWords(row) {
  const what = CHANGES[row.change] || row.change;
  return row.province ? `${row.province} ${what}` : what;
}

// Timeline rows still to come after `phase`, grouped by (year, hook), soonest first.
export function comingChanges(timeline, phase) {
  const year = Number(phase.slice(1, -1));
  const now = PHASE_POINT[phase[0] + phase.at(-1)] ?? 0;
  const groups = new Map();
  for (const row of timeline) {
    if (row.year === null) {
      const key = "secret";
      if (!groups.has(key)) groups.set(key, { year: null, hook: row.hook, rows: [] });
      groups.get(key).rows.push(row);
      continue;
    }
    if (row.year < year || (row.year === year && (HOOK_POINT[row.hook] ?? 0) < now)) continue;
    const key = `${row.year} ${row.hook}`;
    if (!groups.has(key)) groups.set(key, { year: row.year, hook: row.hook, rows: [] });
    groups.get(key).rows.push(row);
  }
  return [...groups.values()].sort((a, b) => (a.year ?? 1e9) - (b.year ?? 1e9));
}

// How far off a group of changes is, counted in seasons (Spring, Autumn, Winter) from `phase`.
const SEASON_INDEX = { S: 0, F: 1, W: 2 };
const HOOK_SEASON = {
  after_spring_retreats: 0,
  after_fall_retreats: 1,
  before_winter_adjustments: 1,
  after_winter_adjustments: 2,
};
export function whenWords(group, phase) {
  const now = Number(phase.slice(1, -1)) * 3 + SEASON_INDEX[phase[0]];
  const then = group.year * 3 + (HOOK_SEASON[group.hook] ?? 0);
  const seasons = then - now;
  if (seasons <= 0) return "at the end of this season";
  if (seasons === 1) return "at the end of next season";
  return `in ${seasons} seasons`;
}

// One processed phase's map event in words (the engine's event_text, for the history report).
export function eventWords(event) {
  switch (event.kind) {
    case "terrain":
      return `${event.province} becomes ${event.to}`;
    case "unit_removed":
      return `${event.unit} (${event.power}) is removed: ${event.reason}`;
    case "unit_converted":
    case "fleet_moved":
      return `${event.unit} (${event.power}) becomes ${event.to}: ${event.reason}`;
    case "coasts": {
      const names = Object.entries(event.coasts || {}).map(([c, w]) => `${c} on ${w.join(", ")}`);
      return names.length ? `${event.province} coasts: ${names.join("; ")}` : `${event.province} has one coast`;
    }
    case "centre_lost":
      return `${event.province} stops being a supply centre${event.owner ? ` (was ${event.owner})` : ""}`;
    case "centre_gained":
      return `${event.province} becomes a supply centre (owner ${event.owner || "nobody"})`;
    case "condition_met": // a conditional event fired: its condition, as the engine words it
      return `${event.when} (event ${event.event})`;
    default:
      return JSON.stringify(event);
  }
}

// What the notice says after orders were sent: a rejected order is not stored, so never claim
// "the others are saved" when there are none.
export function savedWords(rejected, total) {
  if (!rejected) return "Orders saved.";
  const orders = (n) => `${n} order${n === 1 ? "" : "s"}`;
  if (rejected >= total) {
    if (total === 1) return "The order was rejected: see why below.";
    return `All ${orders(total)} were rejected: see why below.`;
  }
  const kept = total - rejected;
  const verb = rejected === 1 ? "was" : "were";
  const others = kept === 1 ? "one is" : `${kept} are`;
  return `${rejected} of ${orders(total)} ${verb} rejected (see why below); the other ${others} saved.`;
}

// A date formatter made at its first use: making one is slow (the locale's data is loaded then), and the
// game page's scripts, which made three as they started, were interactive that much later.
export function dateFormat(options) {
  let made = null;
  return { format: (when) => (made ??= new Intl.DateTimeFormat(undefined, options)).format(when) };
}
