// Where my builds may go now, under a timeline's home-centres-first rule (Deluge, rule E13): the options
// name the free home centres that take builds first (builds_first) and how many may then go elsewhere
// (builds_elsewhere, null without the rule). The server judges the Winter's builds together, so a build
// elsewhere given while a home centre is still free is refused; the page offers it only once it can be
// accepted, and says the rule in a line.

const provinceOf = (location) => (location || "").split("/")[0];

// The provinces my builds so far take. orders: [{text, valid}]; optionOf(text) is the option it names.
function builtProvinces(orders, optionOf) {
  return orders
    .filter((o) => o.valid !== false && !o.shadowed)
    .map((o) => optionOf(o.text))
    .filter((option) => option?.kind === "build")
    .map((option) => provinceOf(option.location));
}

// {first, homesLeft, elsewhere, used}, or null when no such rule holds this phase.
function ruleState(options, orders, optionOf) {
  if (options.builds_elsewhere === null || options.builds_elsewhere === undefined) return null;
  const first = options.builds_first || [];
  const built = builtProvinces(orders, optionOf);
  return {
    first,
    homesLeft: first.filter((p) => !built.includes(p)),
    elsewhere: options.builds_elsewhere,
    used: built.filter((p) => !first.includes(p)).length,
    built,
  };
}

// The build (and waive) options the server will accept beside my orders so far.
export function buildsOffered(options, orders, optionOf) {
  const builds = options.builds || [];
  const rule = ruleState(options, orders, optionOf);
  if (!rule) return builds;
  const room = rule.homesLeft.length === 0 && rule.used < rule.elsewhere;
  return builds.filter((o) => {
    if (o.kind !== "build") return true;
    const province = provinceOf(o.location);
    return rule.first.includes(province) || room || rule.built.includes(province);
  });
}

// The rule in one line for the orders panel, or "" without it.
export function buildRuleWords(options, orders, optionOf) {
  const rule = ruleState(options, orders, optionOf);
  if (!rule || !(options.adjustment > 0)) return "";
  const homes = rule.first.join(", ");
  if (!rule.elsewhere) {
    return homes ? `Home centres first: your builds go to ${homes}; none may go elsewhere this Winter.` : "";
  }
  const most = `up to ${rule.elsewhere} build${rule.elsewhere === 1 ? "" : "s"}`;
  if (rule.homesLeft.length) {
    return `Home centres first: build in ${rule.homesLeft.join(", ")}; then ${most} may go elsewhere.`;
  }
  const done = homes ? "Your free home centres have their builds" : "You have no free home centre";
  const left = rule.elsewhere - rule.used;
  return left > 0
    ? `${done}: ${most} may go elsewhere (${left} left).`
    : `${done}, and ${rule.used} went elsewhere, the most allowed this Winter.`;
}

// Why a click on `province`, a centre the rule holds back, gives no build now; "" for any other.
export function buildRefusal(options, orders, optionOf, province) {
  const possible = (options.builds || []).some((o) => o.kind === "build" && provinceOf(o.location) === province);
  if (!possible) return "";
  return `No build in ${province} now. ${buildRuleWords(options, orders, optionOf)}`;
}
