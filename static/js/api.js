// The REST API as the browser uses it: the session cookie, the page's CSRF token, JSON both ways.

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// The API's answers the server sent inside the page (#first-answers: address -> {body, etag}; see
// dipserver/web/first_answers.py). Each serves the first GET of its address once: the page starts
// without asking again what it was just sent; every later GET (a poll, with that ETag) asks the API.
// (None in Node, where tests import the modules that use this one.)
const firstAnswers = JSON.parse(
  (typeof document === "undefined" ? null : document.getElementById("first-answers"))?.textContent || "{}",
);

export class ApiError extends Error {
  // retryAfter: the seconds the server's Retry-After asks to wait (a 429 or a 503), else null.
  constructor(status, body, retryAfter = null) {
    const message = body?.error?.message || `The server answered ${status}.`;
    super(message);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

// fetch() with JSON in and out. Returns {status, body, etag}; a 304 has body null. Errors other than the
// statuses listed in `accept` throw ApiError carrying the server's own message. `headers` adds request
// headers (e.g. an Idempotency-Key).
export async function call(url, { method = "GET", json, etag, accept = [], headers: extra = {} } = {}) {
  const first = method === "GET" ? firstAnswers[url] : undefined;
  if (first) {
    delete firstAnswers[url];
    return { status: 200, body: first.body, etag: first.etag };
  }
  const headers = { Accept: "application/json", ...extra };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  if (etag) headers["If-None-Match"] = etag;
  const response = await fetch(url, {
    method,
    headers,
    credentials: "same-origin",
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = response.status === 304 || response.status === 204 ? "" : await response.text();
  let body = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok && response.status !== 304 && !accept.includes(response.status)) {
    const wait = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(response.status, body, Number.isFinite(wait) ? wait : null);
  }
  return { status: response.status, body, etag: response.headers.get("ETag") };
}
