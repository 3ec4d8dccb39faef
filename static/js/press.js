// The game page's press panel: my channels with unread counts, the messages of the chosen one, sending.
// Channels come from GET .../channels as the server names them (my own power never in them); anonymous
// press that reached me is in the "anonymous" channel, which nobody can answer. Each message I send
// carries an Idempotency-Key, kept until the server has answered, so sending again after a cut connection
// never posts twice. Each message shows when it was sent, in the reader's own time zone; the page title
// carries the inbox's unread count like every page ("(3) Game · dipserver"), this game's unread press is
// counted in the press panel's heading. Showing a channel's messages marks them read on the server (POST
// .../channels), which reads their news in the inbox too; the header and the title then count again.
// Someone without a power (a spectator) reads the public press only, from GET .../press/public, with
// loadPublicPress(). A power a bot plays is marked "bot" in the channels and beside its messages (issue 36),
// from the game's detail that game.js announces (gamefeed.js).

import { call } from "./api.js";
import { botMark, botPowers } from "./botmark.js";
import { onGame } from "./gamefeed.js";
import { dateFormat, phaseTitle } from "./words.js";

const page = typeof document === "undefined" ? null : document.getElementById("game-config"); // none in Node
const config = JSON.parse(page?.textContent || "{}");
const API = config.api; // /api/v1/games/<id>
const $ = (id) => document.getElementById(id);
const titled = (name) => name.charAt(0) + name.slice(1).toLowerCase();

// The title without the server's count of unread notifications ("(2) ..."), which refreshInbox() redoes.
const baseTitle = typeof document === "undefined" ? "" : document.title.replace(/^\(\d+\) /, "");
const INBOX_UNREAD = API ? API.replace(/\/games\/\d+$/, "/notifications/unread") : "";
const sentFormat = dateFormat({
  weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
});

// When a message was sent, in the reader's local time: "Tue 3 Mar, 18:05".
export function sentWords(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : sentFormat.format(when);
}

// The page title with the unread count in front when there is any: "(3) Dry times · dipserver".
export function titleWith(unread, base) {
  return unread > 0 ? `(${unread}) ${base}` : base;
}

// The press panel's heading with this game's unread press: "Press (2 new)".
export function pressHeading(unread) {
  return unread > 0 ? `Press (${unread} new)` : "Press";
}

const press = {
  marked: {}, // channel id -> the newest message marked read there from this page
  since: 0, // the newest message id shown
  channels: [], // the last GET .../channels
  pending: null, // {channel, text, key} of a message sent without an answer yet
  bots: new Set(), // the powers bots play, from the game's detail
  shown: null, // {log, messages, empty}: the log last filled, to mark bots again when they change
};

onGame((game) => {
  const bots = botPowers(game);
  if (bots.size === press.bots.size && [...bots].every((p) => press.bots.has(p))) return;
  press.bots = bots;
  if (press.channels.length) fillChannels();
  if (press.shown) showLog(press.shown.log, press.shown.messages, press.shown.empty);
});

// "Everyone", "Anonymous press to me", or the powers of a private channel ("England, France"), those
// in `bots` marked ("England, France (bot)").
export function channelLabel(channel, bots = new Set()) {
  if (channel.id === "public") return "Everyone";
  if (channel.id === "anonymous") return "Anonymous press to me";
  return channel.recipients.map((p) => (bots.has(p) ? `${titled(p)} (bot)` : titled(p))).join(", ");
}

// A fresh idempotency key: 32 hex digits (crypto.getRandomValues works on plain HTTP too).
export function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The key for sending `text` to `channel`: the pending one when it is the very same message (a retry),
// else a new one.
export function keyFor(pending, channel, text) {
  return pending && pending.channel === channel && pending.text === text ? pending.key : newKey();
}

function option(channel, current) {
  const node = document.createElement("option");
  node.value = channel.id;
  node.selected = channel.id === current;
  node.textContent = `${channelLabel(channel, press.bots)}${channel.unread ? ` (${channel.unread} new)` : ""}`;
  return node;
}

function chosen() {
  const id = $("press-channel").value;
  return press.channels.find((c) => c.id === id);
}

function showSendable() {
  const channel = chosen();
  const open = Boolean(channel?.can_send);
  $("press-body").disabled = !open;
  $("press-form").querySelector("button").disabled = !open;
  $("press-body").placeholder = open
    ? "Write a message…"
    : channel?.id === "anonymous"
      ? "Anonymous press cannot be answered."
      : "You cannot post here now.";
}

export async function loadChannels() {
  // Unread as the server marks it (what this page has shown is marked there), as the lobby counts it.
  const { body } = await call(`${API}/channels`, { accept: [409, 403] });
  if (!Array.isArray(body)) return;
  press.channels = body;
  $("press-title").textContent = pressHeading(body.reduce((sum, c) => sum + (c.unread || 0), 0));
  fillChannels();
  if (!body.length) $("press-form").hidden = true;
  showSendable();
}

function fillChannels() {
  const select = $("press-channel");
  const current = select.value || "public";
  select.replaceChildren(...press.channels.map((c) => option(c, current)));
}

function item(message) {
  const li = document.createElement("li");
  if (message.sender === config.power) li.className = "mine";
  const from = document.createElement("span");
  from.className = "from";
  from.textContent = message.sender ? titled(message.sender) : "Anonymous";
  if (press.bots.has(message.sender)) from.append(" ", botMark());
  from.append(` · ${phaseTitle(message.phase)}`);
  const text = document.createElement("span");
  text.className = "body";
  text.textContent = message.body;
  const sent = document.createElement("time");
  sent.className = "sent";
  sent.dateTime = message.sent_at;
  sent.title = message.sent_at;
  sent.textContent = sentWords(message.sent_at);
  from.append(" · ", sent);
  li.append(from, text);
  return li;
}

export async function loadPress() {
  if (!$("press-log") || !config.power) return;
  const channel = $("press-channel").value || "public";
  showSendable();
  const url = `${API}/messages?channel=${encodeURIComponent(channel)}&page_size=200`;
  const { body } = await call(url, { accept: [400, 403, 409, 422] });
  const messages = body?.results || [];
  showLog($("press-log"), messages, "No messages here yet.");
  const newest = messages.at(-1)?.id || 0;
  if (newest > press.since) press.since = newest;
  if (newest > (press.marked[channel] || 0)) await markRead(channel, newest);
}

// Mark the channel read up to the newest message shown; the inbox's count changes with it.
async function markRead(channel, upTo) {
  const { body } = await call(`${API}/channels`, {
    method: "POST", json: { channel, up_to: upTo }, accept: [400, 403, 409, 422],
  });
  if (body?.last_read === undefined) return;
  press.marked[channel] = body.last_read;
  await loadChannels();
  await refreshInbox();
}

// The inbox's unread count, in the header's badge and the title, as the server renders them on every page.
export async function refreshInbox() {
  const { body } = await call(INBOX_UNREAD, { accept: [401, 403] });
  if (typeof body?.total !== "number") return;
  document.title = titleWith(body.total, baseTitle);
  const link = document.querySelector(".inbox-link");
  let badge = $("unread-count");
  if (!link) return;
  if (!body.total) badge?.remove();
  else {
    if (!badge) {
      badge = Object.assign(document.createElement("span"), { className: "badge", id: "unread-count" });
      link.append(" ", badge);
    }
    badge.textContent = String(body.total);
  }
}

function showLog(log, messages, emptyText) {
  press.shown = { log, messages, empty: emptyText };
  if (messages.length) log.replaceChildren(...messages.map(item));
  else {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = emptyText;
    log.replaceChildren(empty);
  }
  log.scrollTop = log.scrollHeight;
}

// A spectator's view: the game's public press into #watch-press-log (never private press).
export async function loadPublicPress() {
  const log = $("watch-press-log");
  if (!log) return;
  const { body } = await call(`${API}/press/public?page_size=200`);
  showLog(log, body?.results || [], "No public press yet.");
}

export async function sendPress(event) {
  event.preventDefault();
  const box = $("press-body");
  const text = box.value.trim();
  if (!text) throw new Error("Write a message first.");
  const channel = chosen();
  if (!channel?.can_send) throw new Error("You cannot post to this channel.");
  const key = keyFor(press.pending, channel.id, text);
  press.pending = { channel: channel.id, text, key };
  await call(`${API}/messages`, {
    method: "POST",
    json: { body: text, recipients: channel.recipients },
    headers: { "Idempotency-Key": key },
  });
  press.pending = null; // answered (a refusal throws above and keeps the key: the same text retries)
  box.value = "";
  await loadPress();
}
