// What a click on the map means while a unit of mine is selected, decided from the options list
// (GET .../options lists every legal order per unit), never from rules of our own.
//
// A selection is {unit, mode, target}: mode "move" (also retreats), "via" (a move by convoy),
// "support", "convoy", or the Abstraction A/F rules' "board" (an army boards a fleet) and "land" (an A/F
// lands its army); target is the province of the unit being supported or convoyed once the
// player clicked it. interpret() answers one of:
//   {type: "order", option}                     the click makes exactly this order
//   {type: "ask", question, choices}            it could mean several things: choices [{label, option} |
//                                               {label, select: location} | {label, mode, target}]
//   {type: "step", selection, prompt}           the first click of a support or convoy: now the destination
//   {type: "explain", message}                  no legal order: why

export const provinceOf = (location) => (location || "").split("/")[0];

const MOVES = new Set(["move", "retreat"]);
const SUPPORTS = new Set(["support_hold", "support_move"]);

export function unitName(options, location) {
  const first = (options.units[location] || [])[0];
  return first ? first.text.split(/\s+/).slice(0, 2).join(" ") : location;
}

// The modes a unit's options allow, in the order the chooser shows them.
export function modesOf(unitOptions) {
  const kinds = new Set(unitOptions.map((o) => o.kind));
  const modes = [];
  if (unitOptions.some((o) => MOVES.has(o.kind) && !o.via_convoy)) modes.push("move");
  if (unitOptions.some((o) => o.kind === "move" && o.via_convoy)) modes.push("via");
  if (kinds.has("support_hold") || kinds.has("support_move")) modes.push("support");
  if (kinds.has("convoy")) modes.push("convoy");
  if (kinds.has("embark")) modes.push("board");
  if (kinds.has("disembark")) modes.push("land");
  return modes;
}

// Options of `unit` in `mode` (what the chooser lists for the keyboard).
export function optionsInMode(unitOptions, mode) {
  switch (mode) {
    case "move":
      return unitOptions.filter((o) => MOVES.has(o.kind) && !o.via_convoy);
    case "via":
      return unitOptions.filter((o) => o.kind === "move" && o.via_convoy);
    case "support":
      return unitOptions.filter((o) => SUPPORTS.has(o.kind));
    case "convoy":
      return unitOptions.filter((o) => o.kind === "convoy");
    case "board":
      return unitOptions.filter((o) => o.kind === "embark");
    case "land":
      return unitOptions.filter((o) => o.kind === "disembark");
    default:
      return unitOptions;
  }
}

// Several options for one province that differ only by coast: ask which, or take the coast clicked.
function byCoast(candidates, location, question, field = "dest") {
  if (candidates.length === 1) return { type: "order", option: candidates[0] };
  const exact = candidates.filter((o) => o[field] === location);
  if (exact.length === 1) return { type: "order", option: exact[0] };
  return { type: "ask", question, choices: candidates.map((o) => ({ label: o.text, option: o })) };
}

function interpretMove(options, selection, location, occupant) {
  const { unit, mode } = selection;
  const province = provinceOf(location);
  const all = options.units[unit] || [];
  const name = unitName(options, unit);
  const towards = all.filter((o) => MOVES.has(o.kind) && provinceOf(o.dest) === province);
  let candidates = towards.filter((o) => (mode === "via" ? o.via_convoy : !o.via_convoy));
  if (!candidates.length && mode === "move") candidates = towards; // reachable only by convoy: that is the move
  if (!candidates.length) {
    if (mode === "via") return { type: "explain", message: `${name} has no convoy route to ${province}.` };
    const supportable = all.some((o) => SUPPORTS.has(o.kind) && provinceOf(o.target) === province);
    const hint = supportable ? ` To support the unit there, choose Support first.` : "";
    return { type: "explain", message: `${name} cannot move to ${province}: it is not a legal move.${hint}` };
  }
  const coast = byCoast(candidates, location, `Which coast of ${province} should ${name} go to?`);
  // My own unit leaving the province makes room: the move is meant (and can be undone), as on Backstabbr.
  if (coast.type !== "order" || !occupant?.mine || occupant.leaving) return coast;
  // My own unit stays there: moving onto it, supporting it or ordering it are all plausible.
  const choices = [{ label: coast.option.text, option: coast.option }];
  const hold = all.find((o) => o.kind === "support_hold" && provinceOf(o.target) === province);
  if (hold || all.some((o) => o.kind === "support_move" && provinceOf(o.target) === province)) {
    choices.push({ label: `Support ${occupant.name}…`, mode: "support", target: province });
  }
  choices.push({ label: `Give ${occupant.name} its order instead`, select: occupant.location });
  return { type: "ask", question: `${occupant.name} is yours. What do you mean?`, choices };
}

function interpretHelp(options, selection, location, occupant) {
  const { unit, mode, target } = selection;
  const province = provinceOf(location);
  const all = options.units[unit] || [];
  const name = unitName(options, unit);
  const kinds = mode === "support" ? SUPPORTS : new Set(["convoy"]);
  const verb = mode === "support" ? "support" : "convoy";
  if (!target) {
    const help = all.filter((o) => kinds.has(o.kind) && provinceOf(o.target) === province);
    if (!help.length) {
      if (!occupant) return { type: "explain", message: `There is no unit in ${province} for ${name} to ${verb}.` };
      return { type: "explain", message: `${name} cannot ${verb} ${occupant.name}: no legal order does that.` };
    }
    const there = occupant?.name || province;
    const prompt =
      mode === "support"
        ? `${name} supports ${there}: click where it moves, or ${province} again to support it holding.`
        : `${name} convoys ${there}: click where the army lands.`;
    return { type: "step", selection: { ...selection, target: province }, prompt };
  }
  if (mode === "support" && province === target) {
    const hold = all.find((o) => o.kind === "support_hold" && provinceOf(o.target) === target);
    if (hold) return { type: "order", option: hold };
    return { type: "explain", message: `${name} cannot support the unit in ${target} to hold.` };
  }
  const kind = mode === "support" ? "support_move" : "convoy";
  const candidates = all.filter((o) => o.kind === kind && provinceOf(o.target) === target && provinceOf(o.dest) === province);
  if (!candidates.length) {
    return { type: "explain", message: `${name} cannot ${verb} the unit in ${target} to ${province}: no legal order does that.` };
  }
  return byCoast(candidates, location, `Which coast of ${province}?`);
}

// `occupant` is {location, name, mine, leaving (my order moves it out)} for the unit standing in the clicked province, or null.
export function interpret(options, selection, location, occupant) {
  const province = provinceOf(location);
  const all = options.units[selection.unit] || [];
  if (province === provinceOf(selection.unit) && !selection.target) {
    const stay = all.find((o) => o.kind === "hold" || o.kind === "disband");
    if (stay && selection.mode !== "support" && selection.mode !== "convoy") return { type: "order", option: stay };
  }
  if (selection.mode === "support" || selection.mode === "convoy") return interpretHelp(options, selection, location, occupant);
  if (selection.mode === "board" || selection.mode === "land") return interpretFerry(options, selection, location);
  return interpretMove(options, selection, location, occupant);
}

// The A/F rules: the army boards the fleet in the clicked sea, or the A/F lands its army where clicked.
function interpretFerry(options, selection, location) {
  const province = provinceOf(location);
  const name = unitName(options, selection.unit);
  const boarding = selection.mode === "board";
  const kind = boarding ? "embark" : "disembark";
  const found = (options.units[selection.unit] || []).find(
    (o) => o.kind === kind && provinceOf(boarding ? o.fleet : o.dest) === province,
  );
  if (found) return { type: "order", option: found };
  const why = boarding ? `cannot board a fleet in ${province}` : `cannot land its army in ${province}`;
  return { type: "explain", message: `${name} ${why}: no legal order does that.` };
}
