"""How soon the game page is interactive, in Debian's Chromium against gunicorn on loopback, in production
mode, for a desktop and a phone, beside the target (issue 33: p95 at most 500 ms, cold and warm).

    .venv/bin/python scripts/bench_page.py [--loads 10] [--clicks 10] [--workers 3] [--detail] [--trace N]
                                           [--rtt MS --mbps N]

It builds a throw-away SQLite database with a started Sahara game, collects the static files
(collectstatic, the production storage: hashed names, compressed) and runs two gunicorns with production
settings (DEBUG off, ``dipserver/config/gunicorn.py``): the page as served (its scripts bundled by
``./dip``: run it first) and, as the reference measured in the same run, the same page on its plain ES
modules (``DIPSERVER_BUNDLED_SCRIPTS=false``). It signs a player in and loads the game page ``--loads``
times per profile (desktop 1440x900; phone 390x844, touch, device pixel ratio 3: its screen, not a
phone's slower processor or network), the two servers taking turns:

* *cold*: a fresh browser context each time (empty cache: every script, stylesheet and answer fetched);
* *warm*: reloading the same tab (the browser's cache and the ETags at work).

"Interactive" is the ``dip-interactive`` performance mark that static/js/game.js sets once the map is
drawn, the unit options and orders are loaded and every click handler is in place.

Then ``--clicks`` times on each profile's warm tab (the page as served): a click on one of my units, a
click on where it moves, and the time from that second click (its event time stamp) to the first frame
painted after the order's arrow is in the map (static/js/orders/arrows.js). The target is at most 50 ms.
The machine's load average is printed before and after: figures from a busy machine are slower.
``--trace N`` adds, per profile, N cold loads under Chrome's tracing and their medians of what the
machine's load moves less: the page's main thread until ``dip-interactive`` (busy and CPU time, the event
kinds that took it), the requests and bytes, and the map's size in bytes and elements.
``--rtt`` and ``--mbps`` put a slower network than loopback between Chromium and the servers (emulated
by Chromium: a round trip per response, a bandwidth for the bodies). Not a pass/fail test: it prints
the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("DIPSERVER_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "bench passphrase 1"
SEED = f"""
import django
django.setup()
from django.contrib.auth import get_user_model
from dipserver.games.services.games import game_create, game_join
make = get_user_model().objects.create_user
users = [make(username=f"bench{{i}}", password={PASSWORD!r}) for i in range(7)]
game = game_create(name="Bench", variant="sahara", masters=[users[0]])
for user in users:
    game_join(game_id=game.id, user=user)
print(game.id)
"""


RESOURCES = """[
  ["(document)", 0, performance.getEntriesByType("navigation")[0].responseEnd, 0],
  ...performance.getEntriesByType("resource").map(
    (r) => [r.name.replace(location.origin, ""), r.startTime, r.responseEnd, r.transferSize])
]"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"bench_page: the server at {url} did not answer within {seconds} s")


def interactive_ms(page) -> float:
    page.wait_for_selector("body[data-ready=true]", timeout=10_000)
    return page.evaluate("performance.getEntriesByName('dip-interactive')[0].startTime")


# Resolves with the time from the next click to the first frame after a new arrow is on the map.
ARROW_WATCH = """() => { window.benchArrow = new Promise((resolve) => {
  let clicked = null;
  document.addEventListener("click", (e) => { clicked = e.timeStamp; }, { capture: true, once: true });
  const map = document.getElementById("map");
  const watch = new MutationObserver(() => {
    if (clicked === null || !map.querySelector("#live-orders .live-order")) return;
    watch.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - clicked));
  });
  watch.observe(map, { childList: true, subtree: true });
}); }"""


# Whether a point of the screen shows the map (not the phone's sheet of orders over it, nor off the frame).
ON_MAP = "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('#map svg'))"


def click_to_arrow_ms(page) -> float:
    """One order by two clicks: my first unit, then where it moves, on the map where the name shows, else
    (on a phone, the place under the sheet of orders) the move's button in that sheet."""
    unit = page.locator("#unit-picker .unit-chip[data-unit]").first.get_attribute("data-unit")
    target = page.locator(f'#map .unit-group[data-location="{unit}"]')
    target.click()
    if not page.locator("#unit-options .option").count():  # a phone's first tap zooms in to the finger
        page.wait_for_timeout(300)
        target.click()
    buttons = page.locator("#unit-options .option.kind-move")
    moves = buttons.evaluate_all("ns => ns.map((n) => n.dataset.text)")
    # one click (no coast to ask), into a place no unit stands on (a click there may pick the unit instead)
    occupied = set(
        page.locator("#map #units .unit-group").evaluate_all("gs => gs.map((g) => g.dataset.location)")
    )
    move = next(
        m for m in moves if "/" not in m and "via" not in m and m.split(" - ")[1].strip() not in occupied
    )
    label = page.locator("#map #labels text").filter(has_text=move.split(" - ")[1].strip()).first
    box = label.bounding_box()
    point = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2] if box else [-1, -1]
    page.evaluate(ARROW_WATCH)
    if page.evaluate(ON_MAP, point):
        page.mouse.click(*point)
    else:
        page.locator(f'#unit-options .option[data-text="{move}"]').first.click()
    elapsed = page.evaluate(
        "() => Promise.race([window.benchArrow, new Promise((r) => setTimeout(() => r(null), 10000))])"
    )
    if elapsed is None:
        raise SystemExit(f"bench_page: no arrow appeared within 10 s of ordering {unit} - {move}")
    page.wait_for_selector("#order-list li.valid", timeout=10_000)  # saved before the next round
    return float(elapsed)


TARGET_MS = 500  # p95, cold and warm, both profiles
CLICK_TARGET_MS = 50
PROFILES = {
    "desktop": {"viewport": {"width": 1440, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
}
SERVED, REFERENCE = "bundled", "plain modules (reference)"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def row(name: str, values: list[float], target: float) -> str:
    verdict = "meets" if p95(values) <= target else "misses"
    return (
        f"  {name:34} n={len(values):3}  median={statistics.median(values):6.0f} ms"
        f"  p95={p95(values):6.0f} ms  max={max(values):6.0f} ms  ({verdict} p95 <= {target:.0f} ms)"
    )


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def production_env(tmp: str) -> dict[str, str]:
    """Production settings on loopback: plain HTTP (no TLS redirect, cookies not Secure-only), the static
    files collected into ``tmp``, the file cache every worker shares there."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
        "DIPSERVER_VAR_DIR": tmp,
        "STATIC_ROOT": f"{tmp}/static",
    }


def start_server(env: dict[str, str], workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "dipserver/config/gunicorn.py", "dipserver.config.wsgi",
         "-b", f"127.0.0.1:{port}", "-w", str(workers), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{base}/accounts/login/")
    return server, base


def sign_in(browser, base: str) -> list:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "bench1")
    page.fill("#id_password", PASSWORD)
    page.click("form.stacked button")
    page.wait_for_url(f"{base}/")
    cookies = context.cookies()
    context.close()
    return cookies


# --rtt and --mbps: a slower network than loopback, emulated by Chromium for every page (DevTools'
# Network.emulateNetworkConditions: each response waits the round trip, bodies the bandwidth).
NETWORK: dict[str, float] = {}


def new_page(browser, profile: dict, cookies: list):
    context = browser.new_context(**profile)
    context.add_cookies(cookies)
    page = context.new_page()
    if NETWORK:
        context.new_cdp_session(page).send("Network.emulateNetworkConditions", {"offline": False, **NETWORK})
    return page


def cold_load(browser, profile: dict, cookies: list, url: str) -> tuple[float, list]:
    page = new_page(browser, profile, cookies)
    context = page.context
    page.goto(url)
    elapsed = interactive_ms(page)
    requests = page.evaluate(RESOURCES)
    context.close()
    return elapsed, requests


# What the browser itself did on a cold load until dip-interactive, from a Chrome trace: less at the
# mercy of a busy machine than the wall clock (thread CPU time, bytes, elements, requests).
TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "toplevel"]
SHAPE = """() => {
  const svg = document.querySelector("#map svg");
  const map = performance.getEntriesByType("resource").find((r) => r.name.includes("/map.svg"));
  return { elements: svg ? svg.querySelectorAll("*").length : 0, mapBytes: map ? map.decodedBodySize : 0,
    mapWire: map ? map.encodedBodySize : 0, requests: performance.getEntriesByType("resource").length + 1,
    wire: performance.getEntriesByType("resource").reduce((sum, r) => sum + r.transferSize, 0)
      + performance.getEntriesByType("navigation")[0].transferSize };
}"""


def main_thread(events: list[dict]) -> tuple[float, float, dict[str, float]]:
    """(busy ms, CPU ms, own CPU ms by event name) of the page main thread until dip-interactive."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    mark = next(e for e in events if e.get("name") == "dip-interactive")
    thread = next(k for k, name in names.items() if name == "CrRendererMain" and k[0] == mark["pid"])
    spans = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X" and "dur" in e),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    busy = cpu = 0.0
    own: dict[str, float] = {}
    stack: list[dict] = []
    for event in spans:
        if event["ts"] >= mark["ts"]:
            break
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= event["ts"]:
            stack.pop()
        thread_time = event.get("tdur", event["dur"])  # CPU time: what a busy machine's waits leave out
        if stack:  # time inside a child is not its parent's own
            own[stack[-1]["name"]] -= thread_time
        else:
            busy += event["dur"]
            cpu += thread_time
        own[event["name"]] = own.get(event["name"], 0.0) + thread_time
        stack.append(event)
    return busy / 1000, cpu / 1000, {name: ms / 1000 for name, ms in own.items()}


def traced_load(browser, profile: dict, cookies: list, url: str) -> dict:
    page = new_page(browser, profile, cookies)
    browser.start_tracing(page=page, categories=TRACED)
    page.goto(url)
    elapsed = interactive_ms(page)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    shape = page.evaluate(SHAPE)
    page.context.close()
    busy, cpu, own = main_thread(events)
    return {"interactive": elapsed, "busy": busy, "cpu": cpu, "own": own, **shape}


def print_trace(profile: str, traces: list[dict]) -> None:
    """The medians of the traced loads."""

    def median(key: str) -> float:
        return statistics.median(t[key] for t in traces)

    last = traces[-1]
    print(
        f"  traced cold loads ({profile}, n={len(traces)}, medians): interactive at"
        f" {median('interactive'):.0f} ms; main thread busy {median('busy'):.0f} ms,"
        f" CPU {median('cpu'):.0f} ms before it"
    )
    print(
        f"    {last['requests']} requests, {last['wire']:,} bytes over the wire; map SVG"
        f" {last['mapBytes']:,} bytes ({last['mapWire']:,} gzipped), {last['elements']} elements"
    )
    names = {name for t in traces for name in t["own"]}
    own = {name: statistics.median(t["own"].get(name, 0.0) for t in traces) for name in names}
    top = sorted(own.items(), key=lambda item: -item[1])[:8]
    print("    own CPU time: " + ", ".join(f"{name} {ms:.0f} ms" for name, ms in top))


def measure(browser, servers: dict[str, str], cookies: list, game_id: str, options) -> dict[str, Any]:
    """Every profile's cold and warm loads of each server's page, the servers taking turns, and the clicks
    on the served page."""
    figures: dict[str, Any] = {}
    for profile_name, profile in PROFILES.items():
        urls = {name: f"{base}/games/{game_id}/" for name, base in servers.items()}
        tabs = {}
        for name, url in urls.items():
            tabs[name] = new_page(browser, profile, cookies)
            tabs[name].goto(url)
            interactive_ms(tabs[name])  # the first load of all: gunicorn's workers import and warm up
        for round_ in range(options.loads):
            print(f"bench_page: {profile_name}, load {round_ + 1} of {options.loads}", file=sys.stderr)
            for name, url in urls.items():
                elapsed, requests = cold_load(browser, profile, cookies, url)
                figures.setdefault(f"{profile_name} cold {name}", []).append(elapsed)
                if name == SERVED and profile_name == "desktop":
                    figures["detail"] = requests
            for name, tab in tabs.items():
                tab.reload()
                figures.setdefault(f"{profile_name} warm {name}", []).append(interactive_ms(tab))
        figures[f"{profile_name} trace"] = [
            traced_load(browser, profile, cookies, urls[SERVED]) for _ in range(options.trace)
        ]
        served = tabs[SERVED]
        served.wait_for_selector("body[data-loaded=true]", timeout=10_000)
        print(f"bench_page: {profile_name}, {options.clicks} orders by clicking", file=sys.stderr)
        figures[f"{profile_name} click"] = [click_to_arrow_ms(served) for _ in range(options.clicks)]
        for tab in tabs.values():
            tab.context.close()
    return figures


def report(figures: dict[str, list], options, before: str, after: str) -> None:
    print(
        f"game page interactive (dip-interactive mark): gunicorn -w {options.workers}, production settings "
        f"(DEBUG off, collectstatic), on loopback; target p95 <= {TARGET_MS} ms"
    )
    if NETWORK:
        print(f"network emulated: round trip {options.rtt:.0f} ms, {options.mbps or 'unlimited'} Mbit/s")
    print(f"load average before: {before}; after: {after}")
    for profile in PROFILES:
        screen = PROFILES[profile]["viewport"]
        print(f"{profile} ({screen['width']}x{screen['height']})")
        for kind in ("cold", "warm"):
            for name in (SERVED, REFERENCE):
                print(row(f"{kind} {name}", figures[f"{profile} {kind} {name}"], TARGET_MS))
        if figures[f"{profile} click"]:
            print(row("click -> arrow painted", figures[f"{profile} click"], CLICK_TARGET_MS))
        if figures[f"{profile} trace"]:
            print_trace(profile, figures[f"{profile} trace"])
    if options.detail:
        print("last desktop cold load of the served page: request start -> end (ms), bytes over the wire")
        for name, start, end, size in figures["detail"]:
            print(f"  {start:6.0f} -> {end:6.0f}  {size:8d}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10, help="cold and warm loads per profile and server")
    parser.add_argument("--workers", type=int, default=3)  # as docker-compose.yml runs it
    parser.add_argument("--clicks", type=int, default=10, help="orders given by clicking, timed, per profile")
    parser.add_argument("--detail", action="store_true", help="print the last cold load's requests")
    parser.add_argument("--trace", type=int, default=0, help="traced cold loads per profile: main thread")
    parser.add_argument("--rtt", type=float, default=0, help="emulated round trip, ms (default: loopback's)")
    parser.add_argument("--mbps", type=float, default=0, help="emulated bandwidth, Mbit/s (default: none)")
    options = parser.parse_args()
    if options.rtt or options.mbps:
        rate = options.mbps * 1_000_000 / 8 if options.mbps else -1  # bytes a second; -1: no limit
        NETWORK.update(latency=options.rtt, downloadThroughput=rate, uploadThroughput=rate)
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from dipserver.web import bundle

    if not bundle.up_to_date():
        raise SystemExit("bench_page: the scripts' bundle is missing or stale: run ./dip test or ./dip serve")
    before = load_average()
    with tempfile.TemporaryDirectory(prefix="dip-bench-page-") as tmp:
        env = production_env(tmp)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        game_id = subprocess.run(
            [python, "-c", SEED], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        ).stdout.split()[-1]
        collect = [python, "manage.py", "collectstatic", "--noinput", "-v0"]
        subprocess.run(collect, cwd=ROOT, env=env, check=True)
        servers: dict[str, subprocess.Popen[bytes]] = {}
        try:
            bases = {}
            for name, extra in ((SERVED, {}), (REFERENCE, {"DIPSERVER_BUNDLED_SCRIPTS": "false"})):
                servers[name], bases[name] = start_server({**env, **extra}, options.workers)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                cookies = sign_in(browser, bases[SERVED])  # one database: the session holds on both
                figures = measure(browser, bases, cookies, game_id, options)
                browser.close()
        finally:
            for server in servers.values():
                server.terminate()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:  # a machine this busy: the figures are in, stop it
                    server.kill()
                    server.wait()
    report(figures, options, before, load_average())


if __name__ == "__main__":
    main()
