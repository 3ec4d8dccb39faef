// Deadlines in the reader's own time zone (the account's, else the browser's), counting down. Any
// <time class="countdown" datetime="…"> on a page is kept up to date; game.js calls showDeadline() when a
// phase changes. Inside a paused game (an ancestor with data-state="paused") the countdown stops and says
// "paused"; it is redrawn as soon as that state changes.

// A signed-in player's own time zone (account page) wins over the browser's.
function formatter() {
  const options = {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  };
  const zone = document.body?.dataset.timeZone;
  try {
    return new Intl.DateTimeFormat(undefined, zone ? { ...options, timeZone: zone } : options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options);
  }
}

// Made at the first deadline shown, not when the page's scripts start: it is slow to make.
let absolute = null;

export function remaining(ms) {
  if (ms <= 0) return "now";
  const minutes = Math.floor(ms / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `in ${days}d ${hours}h`;
  if (hours > 0) return `in ${hours}h ${mins}m`;
  if (minutes > 0) return `in ${mins}m`;
  return "in under a minute";
}

function render(el) {
  const when = new Date(el.getAttribute("datetime"));
  if (Number.isNaN(when.getTime())) return;
  if (el.closest("[data-state=paused]")) {
    el.textContent = "paused";
    el.title = "The clock is stopped while the game is paused";
    el.dataset.paused = "true";
    return;
  }
  delete el.dataset.paused;
  absolute ??= formatter();
  el.textContent = `${remaining(when - Date.now())} (${absolute.format(when)})`;
  el.title = when.toISOString();
}

export function showDeadline(el, iso) {
  if (!iso) {
    el.removeAttribute("datetime");
    el.textContent = "";
    return;
  }
  el.setAttribute("datetime", iso);
  render(el);
}

function tick() {
  document.querySelectorAll("time.countdown[datetime]").forEach(render);
}

tick();
setInterval(tick, 30000);
new MutationObserver(tick).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
