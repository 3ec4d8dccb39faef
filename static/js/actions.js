// The game page's player actions beside the orders: the secret draw vote, conceding (asked twice), and
// vacation days; the paused banner; and, for a spectator, the public press. It runs on the REST API like
// game.js, on its own: it reads GET .../games/<id> when the page opens, after each action and when the
// game's state (data-state on #game, kept by game.js) changes.

import { call } from "./api.js";
import { onGame } from "./gamefeed.js";
import { loadPublicPress } from "./press.js";
import { dateFormat } from "./words.js";

const config = JSON.parse(document.getElementById("game-config").textContent);
const API = config.api; // /api/v1/games/<id>
const WATCH_MS = 10000;
const $ = (id) => document.getElementById(id);
const titled = (name) => name.charAt(0) + name.slice(1).toLowerCase();
const local = dateFormat({
  weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
});

let game = null; // the last GET .../games/<id>

function say(text, kind = "ok") {
  const status = $("actions-status");
  if (!status) {
    console.error(text); // a spectator's page has no actions panel to say it in
    return;
  }
  status.textContent = text;
  status.dataset.kind = kind;
  status.hidden = false;
}

async function guarded(job) {
  try {
    await job();
  } catch (error) {
    say(error.message || String(error), "error");
    render(); // the controls show the game as it stands again (e.g. a refused draw vote unticks)
  }
}

async function refresh() {
  const { body } = await call(API);
  game = body;
  render();
}

// The powers I may concede to: the other survivors.
export function concedable(powers, me) {
  return powers.filter((p) => p.power && p.power !== me && p.status !== "eliminated").map((p) => p.power);
}

// "2 of 5 vacation days left." plus "You are away until …" while a vacation runs.
export function vacationWords(left, allowance, awayUntil, now = Date.now()) {
  if (!allowance) return "This game gives no vacation days.";
  const words = [`${left} of ${allowance} vacation day${allowance === 1 ? "" : "s"} left.`];
  if (awayUntil && new Date(awayUntil).getTime() > now) words.push(`You are away until ${local.format(new Date(awayUntil))}.`);
  return words.join(" ");
}

function render() {
  if (!game || !$("actions-panel")) return;
  const inPlay = game.status === "active" || game.status === "paused";
  $("actions-panel").hidden = !inPlay;
  $("draw-vote").checked = Boolean(game.me.draw_vote);
  const select = $("concede-to");
  const current = select.value;
  select.replaceChildren(...concedable(game.powers, game.me.power).map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = titled(name);
    option.selected = name === current;
    return option;
  }));
  const left = game.me.vacation_days_left || 0;
  $("vacation-left").textContent = vacationWords(left, game.vacation_days, game.me.away_until);
  $("vacation-days").max = String(Math.max(left, 1));
  $("vacation-days").disabled = $("vacation-take").disabled = left < 1 || game.current_phase?.status !== "open";
}

async function voteDraw(event) {
  const vote = event.target.checked;
  // The current phase's name (a vote is for the phase it was given in), read without redrawing: the
  // box keeps the player's tick until the server has answered.
  const { body: now } = await call(API);
  const { body } = await call(`${API}/draw-vote`, {
    method: "PUT",
    json: { phase: now.current_phase?.name, vote },
  });
  say(body.game_drawn ? "Every survivor voted for a draw: the game is drawn." : vote
    ? "You vote for a draw. Nobody sees your vote unless every survivor votes for one."
    : "You withdrew your draw vote.");
  await refresh();
}

function askConcede() {
  const to = $("concede-to").value;
  if (!to) throw new Error("There is nobody to concede to.");
  $("concede-question").textContent =
    `Concede the game to ${titled(to)}? When every other survivor has conceded to ${titled(to)}, ${titled(to)} wins. You keep playing until then.`;
  $("concede-confirm").hidden = false;
  $("concede-yes").focus();
}

async function concede() {
  const to = $("concede-to").value;
  $("concede-confirm").hidden = true;
  const { body } = await call(`${API}/concede`, { method: "POST", json: { to } });
  say(body.game_over ? `${titled(to)} has won by concession.` : `You have conceded to ${titled(to)}.`);
  await refresh();
}

async function takeVacation() {
  const days = Number($("vacation-days").value);
  if (!Number.isInteger(days) || days < 1) throw new Error("Give a whole number of days, at least 1.");
  const { body } = await call(`${API}/vacation`, { method: "POST", json: { days } });
  say(`You are away until ${local.format(new Date(body.away_until))}; this phase is now due ${local.format(new Date(body.deadline))}.`);
  await refresh();
}

function showPaused() {
  $("paused-banner").hidden = $("game").dataset.state !== "paused";
}

function wire() {
  $("draw-vote").addEventListener("change", (e) => guarded(() => voteDraw(e)));
  $("concede").addEventListener("click", () => guarded(askConcede));
  $("concede-no").addEventListener("click", () => { $("concede-confirm").hidden = true; });
  $("concede-yes").addEventListener("click", () => guarded(concede));
  $("vacation-take").addEventListener("click", () => guarded(takeVacation));
}

async function watch() {
  if (!document.hidden) await guarded(loadPublicPress);
  setTimeout(watch, WATCH_MS);
}

function start() {
  let shownState = $("game").dataset.state;
  new MutationObserver(() => {
    // game.js sets data-state on every poll; only a real change (paused, resumed, over) is news here.
    if ($("game").dataset.state === shownState) return;
    shownState = $("game").dataset.state;
    showPaused();
  }).observe($("game"), { attributes: true, attributeFilter: ["data-state"] });
  showPaused();
  if ($("actions-panel")) {
    wire();
    // game.js loads the game once the map and orders are in (and on every poll that finds it changed):
    // asking for it here as well would compete with those first requests for the server's workers.
    onGame((detail) => {
      game = detail;
      render();
      $("actions-panel").dataset.loaded = "true";
    });
  }
  if ($("watch-press-log")) {
    guarded(loadPublicPress).then(() => { $("watch-press-log").dataset.loaded = "true"; });
    setTimeout(watch, WATCH_MS);
  }
}

start();
