// The game master's "Process now" on the game page. It asks first, as the admin does, naming the powers
// that have not ordered and those not ready, and the request names the phase the master was asked about:
// if the game has moved on meanwhile (the last player's ready processed it), the server answers 409 and
// processes nothing, and the page says so and shows the phase it is in now.

import { call } from "../api.js";
import { el } from "../orders/dom.js";
import { phaseTitle } from "../words.js";
import { $, API, notice, page, state } from "./page.js";

const titled = (name) => name.charAt(0) + name.slice(1).toLowerCase();

// Who is still to act in the open phase, from the game's detail: {notOrdered, notReady} (power names in
// alphabetical order, as the admin lists them).
export function stillToAct(game) {
  const acting = game.powers
    .filter((p) => p.power && p.status === "active" && p.needs_orders)
    .sort((a, b) => a.power.localeCompare(b.power));
  return {
    notOrdered: acting.filter((p) => !p.has_orders).map((p) => p.power),
    notReady: acting.filter((p) => !p.ready).map((p) => p.power),
  };
}

function listWords(powers, none) {
  return powers.length ? powers.join(", ") : none;
}

// Fill the confirmation with the phase and who is still to act; returns the phase's name, or null when
// there is no open phase to process.
function ask(dialog) {
  const game = state.game;
  const phase = game?.current_phase;
  if (!phase || phase.status !== "open" || game.status !== "active") return null;
  const { notOrdered, notReady } = stillToAct(game);
  $("process-phase").textContent = phaseTitle(phase.name);
  $("process-not-ordered").textContent = listWords(notOrdered, "every power has orders");
  $("process-not-ready").textContent = listWords(notReady, "every power is ready");
  dialog.dataset.phase = phase.name;
  return phase.name;
}

async function processNow(phaseName) {
  const { status, body } = await call(`${API}/process`, { method: "POST", json: { phase: phaseName }, accept: [409] });
  state.etag = null;
  // Refresh first: a refresh that finds a new phase says "the game has moved on", and the answer to the
  // master's own request (what was or was not processed) is the notice that must stay.
  await page.refresh();
  if (status === 409) {
    notice(body?.error?.message || "The game has moved on: nothing was processed.", "error");
  } else {
    notice(`${phaseTitle(phaseName)} is being processed.`, "ok");
  }
}

export function wireProcessNow(guarded) {
  const button = $("process-now");
  const dialog = $("process-confirm");
  if (!button || !dialog) return;
  button.addEventListener("click", () =>
    guarded(async () => {
      state.etag = null;
      await page.refresh(); // ask about the phase as it is now, not as the last poll saw it
      if (ask(dialog) === null) {
        notice("There is no open phase to process.", "error");
        return;
      }
      dialog.returnValue = "";
      dialog.showModal();
    }),
  );
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "process") guarded(() => processNow(dialog.dataset.phase));
  });
}

// Issue 36: a game master hands a power in civil disorder to a bot (POST .../seats/<seat>/bot), which
// orders for it until a person takes the seat (still offered in the lobby). The page asks first; a
// refusal (the seat was taken meanwhile, the game ended) is said in the notice line.
export function handToBotButton(power) {
  const dialog = $("bot-confirm");
  const handable = power.power && power.seat_open && !power.is_bot && power.status !== "eliminated";
  if (!dialog || !handable || state.game?.status === "finished") return null;
  return el(
    "button",
    {
      type: "button",
      class: "secondary hand-to-bot",
      "data-seat": String(power.seat),
      onclick: () => {
        dialog.dataset.seat = String(power.seat);
        dialog.dataset.power = power.power;
        $("bot-power").textContent = titled(power.power);
        dialog.returnValue = "";
        dialog.showModal();
      },
    },
    "Hand to a bot",
  );
}

async function handToBot(seat, power) {
  const { status, body } = await call(`${API}/seats/${seat}/bot`, { method: "POST", accept: [403, 404, 409, 422] });
  state.etag = null;
  await page.refresh(); // first, so that the answer below is the notice that stays (see processNow)
  if (status === 200) notice(`${titled(power)} is now played by a bot until a person takes the seat.`, "ok");
  else notice(body?.error?.message || `${titled(power)} could not be handed to a bot.`, "error");
}

export function wireHandToBot(guarded) {
  const dialog = $("bot-confirm");
  if (!dialog) return;
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "hand") guarded(() => handToBot(dialog.dataset.seat, dialog.dataset.power));
  });
}
