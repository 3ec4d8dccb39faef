// My order sheet for the live phase: the orders I have given, each saved with PUT .../orders after
// every change and shown with the server's verdict; typed orders; the build rule's line; the ready toggle.

import { ApiError, call } from "../api.js";
import { renderMine } from "../coming.js";
import { buildRuleWords } from "../orders/builds.js";
import { askBeforeReady, readyProblems } from "../orders/ready.js";
import { el } from "../orders/dom.js";
import { savedWords } from "../words.js";
import { drawMine, decorateMap, highlight } from "./marks.js";
import { $, API, guarded, notice, optionOf, page, phaseOpen, state } from "./page.js";

export async function loadOrders() {
  const { body } = await call(`${API}/orders`, { accept: [409] });
  const rows = body && body.orders ? body.orders : [];
  state.orders = rows.map(({ text, drawing }) => ({ key: keyOf(text), text, valid: true, reason: "", drawing: drawing || null }));
  remember(state.orders);
  renderOrderList();
}

// The orders the server holds, as last saved: after a failed save only the others are "not saved".
let stored = new Set();
function remember(orders) {
  stored = new Set(orders.filter((o) => !o.shadowed).map((o) => o.text.toUpperCase()));
}
const isStored = (order) => stored.has(order.text.toUpperCase());

// A save the server could not take (unreachable, or failing with a 5xx) is tried again by itself, sooner
// when the browser says it is back online, until it goes through or the player changes the orders.
const RETRY_MS = [3000, 6000, 12000, 30000];
let retry = { timer: null, attempt: 0 };
function retryLater() {
  clearTimeout(retry.timer);
  const wait = RETRY_MS[Math.min(retry.attempt, RETRY_MS.length - 1)];
  retry = { attempt: retry.attempt + 1, timer: setTimeout(retryNow, wait) };
}
function retryNow() {
  if (!retry.attempt) return;
  clearTimeout(retry.timer);
  retry.timer = null;
  guarded(async () => {
    if ((await saveOrders({ retrying: true })) && !retry.attempt) {
      notice("Your orders are saved now: the server is back.", "ok");
    }
  });
}
window.addEventListener("online", retryNow);

const CONVERSIONS = new Set(["convert_to_army", "convert_to_fleet", "stay_fleet"]);
const MODULE_KINDS = new Set(["establish_depot", "snow_storm"]);

export function keyOf(text) {
  if (state.options) {
    const extra = (state.options.conversions || []).concat(state.options.module_orders || []);
    const known = extra.find((o) => o.text.toUpperCase() === text.toUpperCase());
    if (known) return keyOfOption(known);
    for (const [location, options] of Object.entries(state.options.units)) {
      if (options.some((o) => o.text.toUpperCase() === text.toUpperCase())) return location;
    }
  }
  const words = text.trim().toUpperCase().split(/\s+/);
  if (words.length > 1 && (words[0] === "A" || words[0] === "F")) return words[1];
  return `text:${text.trim().toUpperCase()}`;
}

// Which earlier order a new one replaces: a unit's order its unit's. An army becoming a fleet holds
// meanwhile, so it replaces the unit's order (the server refuses both); a fleet becoming an army or
// staying a fleet is given beside it. Builds, waives and module orders stand beside each other.
export function keyOfOption(option) {
  if (option.kind === "convert_to_fleet") return option.unit;
  if (CONVERSIONS.has(option.kind)) return `convert:${option.unit}`;
  if (option.kind === "build" || option.kind === "waive" || MODULE_KINDS.has(option.kind)) return `text:${option.text}`;
  return option.unit;
}

export async function chooseOption(option) {
  const key = keyOfOption(option);
  const before = state.orders.map((o) => ({ ...o }));
  const given = { text: option.text, drawing: option.drawing || null }; // drawn at once, as the option says
  if (option.kind === "waive") state.orders.push({ key: `${key}:${state.orders.length}`, ...given });
  else state.orders = state.orders.filter((o) => o.key !== key).concat([{ key, ...given }]);
  state.selected = null;
  state.selection = null;
  $("unit-options").replaceChildren();
  decorateMap();
  if (await saveOrders()) offerUndo(before);
}

// The notice after a saved order offers to put the orders back as they were before it.
function offerUndo(before) {
  const box = $("notice");
  notice(box.textContent, box.classList.contains("error") ? "error" : "ok", {
    label: "Undo",
    run: async () => {
      state.orders = before;
      if (await saveOrders()) notice("Undone: your orders are as they were.", "ok");
    },
  });
}

export async function saveOrders({ retrying = false } = {}) {
  const phase = state.game?.current_phase?.name || state.options?.phase;
  const sent = state.orders.filter((o) => !o.shadowed);
  const texts = sent.map((o) => o.text);
  if (!retrying) retry.attempt = 0; // a new change: its own save starts the count again
  renderOrderList("saving");
  let answer;
  try {
    answer =
      texts.length === 0
        ? await call(`${API}/orders?phase=${phase}`, { method: "DELETE", accept: [409] })
        : await call(`${API}/orders`, { method: "PUT", json: { phase, orders: texts }, accept: [400, 409, 422] });
  } catch (error) {
    renderOrderList("unsaved");
    const down = !(error instanceof ApiError) || error.status >= 500;
    const why = error instanceof ApiError ? error.message : "the server could not be reached";
    const then = down ? "It is tried again by itself as soon as the server answers." : "Try again in a moment.";
    notice(`Your latest change was not saved: ${why} ${then}`.replace(/([^.!?]) (It|Try)/, "$1. $2"), "error");
    if (down) retryLater();
    return false;
  }
  retry.attempt = 0;
  clearTimeout(retry.timer);
  const { status, body } = answer;
  if (status === 409) {
    renderOrderList("unsaved");
    state.etag = null;
    await page.refresh(); // first: its "the game has moved on" must not take the place of "Not saved"
    notice(`Not saved: ${body?.error?.message || "this phase no longer takes orders."} The page now shows the game as it stands.`, "error");
    return false;
  }
  if ((status === 400 || status === 422) && !(body?.orders || body?.error?.orders)) {
    renderOrderList("unsaved");
    notice(body?.error?.message || "The orders were refused.", "error");
    return false;
  }
  const results = body?.orders || body?.error?.orders || [];
  sent.forEach((order, i) => {
    const result = results[i];
    order.text = result?.valid ? result.normalised || order.text : order.text;
    order.valid = result ? result.valid : true;
    order.reason = result ? result.reason : "";
    if (result) order.drawing = result.valid ? result.drawing || order.drawing || null : null;
  });
  remember(sent.filter((order) => order.valid !== false));
  renderOrderList();
  const bad = state.orders.filter((o) => !o.valid).length;
  notice(status === 204 ? "Orders withdrawn." : savedWords(bad, state.orders.length), bad ? "error" : "ok");
  state.etag = null; // "ordered" changed: fetch the game afresh on the next poll
  return true;
}

// A rejected typed order never silently replaces a valid one: the valid order comes back and the
// rejected one stays beside it, marked, until the player removes it. Answers the orders kept.
function keepDisplaced() {
  const kept = [];
  state.orders = state.orders.flatMap((order) => {
    const old = order.replaces;
    delete order.replaces;
    if (!old || order.valid !== false) return [order];
    kept.push({ rejected: order.text, kept: old.text });
    return [old, { ...order, key: `rejected:${order.text}:${state.orders.length}`, shadowed: true, kept: old.text }];
  });
  return kept;
}

function orderState(order, mode) {
  if (mode === "saving" && !order.shadowed && !isStored(order)) return "saving…";
  if (mode === "unsaved" && !order.shadowed && !isStored(order)) return "⚠ not saved";
  if (order.valid === false) return `✖ ${order.reason}${order.kept ? ` (not used: ${order.kept} stays)` : ""}`;
  return "✔ accepted";
}

export function renderOrderList(mode) {
  const list = $("order-list");
  if (!list) return;
  showBuildRule(); // the orders given change what a home-centres-first rule still lets go elsewhere
  showMine(); // a "stays fleet" button turns into "ordered" once the order is in the list
  if (state.orders.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, "No orders yet."));
    drawMine();
    return;
  }
  list.replaceChildren(
    ...state.orders.map((order, i) =>
      el(
        "li",
        {
          class: `${order.valid === false ? "invalid" : "valid"}${order.shadowed ? " shadowed" : ""}${mode && !isStored(order) ? ` ${mode}` : ""}`,
          "data-text": order.text,
          "data-key": order.key,
          tabindex: "0",
          onmouseenter: () => highlight(order.key),
          onmouseleave: () => highlight(null),
          onfocus: () => highlight(order.key),
          onblur: () => highlight(null),
        },
        el("span", { class: "order-text" }, order.text),
        el("span", { class: "order-state" }, orderState(order, mode)),
        el("button", {
          type: "button",
          class: "remove",
          "aria-label": `Remove ${order.text}`,
          onclick: () => guarded(async () => {
            state.orders.splice(i, 1);
            await saveOrders();
          }),
        }, "×"),
      ),
    ),
  );
  drawMine();
}

export function showBuildRule() {
  const line = $("build-rule");
  if (!line) return;
  line.textContent = state.options && phaseOpen() ? buildRuleWords(state.options, state.orders, optionOf) : "";
  line.hidden = !line.textContent;
}

// The conversions a coming map change asks of my units, each with its button (coming.js).
export function showMine() {
  const option = (text) => (phaseOpen() && state.byText.get(text.toUpperCase())) || null;
  const given = (text) => state.orders.some((o) => o.valid !== false && o.text.toUpperCase() === text.toUpperCase());
  renderMine($("coming-mine"), state.timeline?.mine, { option, given, choose: (o) => guarded(() => chooseOption(o)) });
}

export async function submitTyped(event) {
  event.preventDefault();
  const box = $("typed-orders");
  const lines = box.value.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return notice("Type at least one order, e.g. A PAR - BUR.", "error");
  for (const text of lines) {
    const key = keyOf(text);
    const old = state.orders.find((o) => o.key === key && o.valid !== false && !o.shadowed);
    state.orders = state.orders.filter((o) => o.key !== key).concat([{ key, text, replaces: old || null }]);
  }
  box.value = "";
  if (!(await saveOrders())) return;
  const kept = keepDisplaced();
  if (!kept.length) return;
  if (!(await saveOrders())) return;
  notice(kept.map((k) => `${k.rejected} was rejected, so ${k.kept} stays.`).join(" "), "error");
}

export async function setReady(event) {
  const ready = event.target.checked;
  if (ready && !(await readyChecked(event.target))) return;
  const phase = state.game.current_phase.name; // a click that arrives after the phase closed gets 409
  try {
    const { body } = await call(`${API}/ready`, { method: "PUT", json: { phase, ready } });
    notice(body.phase_due ? "Everyone is ready: the phase is being processed." : ready ? "You are ready." : "You are no longer ready.", "ok");
  } finally {
    state.etag = null;
    await page.refresh(); // also after a refusal: the toggle shows the new phase's state, not the click
  }
}

// Ready with units unordered or orders rejected: name them and ask first.
async function readyChecked(toggle) {
  const orders = state.orders.map((o) => ({ ...o, option: state.byText.get(o.text.toUpperCase()) }));
  const problems = readyProblems(phaseOpen() ? state.options : null, orders);
  if (!problems.length) return true;
  toggle.checked = false;
  if (!(await askBeforeReady($("game").querySelector(".game-grid"), problems))) {
    $("order-list")?.focus?.();
    return false;
  }
  toggle.checked = true;
  return true;
}
