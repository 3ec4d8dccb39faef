"""Load test of the REST API under gunicorn on loopback: bots polling game state and submitting orders.

    .venv/bin/python scripts/load_api.py [--rate 100] [--poll-rate 100] [--seconds 15] [--workers 3]
    .venv/bin/python scripts/load_api.py --database postgres   # a throw-away PostgreSQL database

It builds a throw-away database (with ``--database postgres`` a new PostgreSQL database next to the one
DATABASE_URL names, by default ``postgres://postgres@127.0.0.1:5432/postgres``; otherwise a SQLite file,
the embedded default), with ``--games`` standard games of seven token-holding players,
starts gunicorn on 127.0.0.1, and runs three stages at fixed (open-loop) request rates:

1. *polls*: conditional ``GET /games/<id>`` with the last ETag (answers 304 while nothing changes);
2. *orders*: ``PUT /games/<id>/orders`` with legal orders taken from each player's options;
3. *mixed*: both at once, as a game in its last minutes sees them.

For each it prints p50/p99 latency (from sending the request to the last byte of the answer), the
throughput achieved and any non-2xx/304 answers, and for polls the share answered 304. Before each stage
every player re-reads its ETag, so a stage counts only the changes made during it. In the mixed stage the
orders revise orders already given, which no other viewer can see, so nearly every poll should be a 304.
Targets: order p99 < 50 ms at 100 requests/s, a conditional GET that hits its ETag < 5 ms p50, and in the
mixed stage at least 95 % of polls answered 304.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from http_load import free_port, request, wait_for

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETTINGS = '''"""Settings for scripts/load_api.py: local settings, no DEBUG, throttles out of the way."""
from dipserver.config.settings.local import *  # noqa: F403

DEBUG = False
DIPSERVER_API_THROTTLES = {"login": "100000/min", "register": "100000/min", "writes": "1000000/min"}
# Server errors (with their tracebacks) go to errors.log beside the database; the report sums them up.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"errors": {"class": "logging.FileHandler", "filename": "ERRORS_LOG", "level": "ERROR"}},
    "root": {"level": "WARNING", "handlers": ["errors"]},
}
'''


@dataclass
class Player:
    game_id: int
    token: str
    phase: str = "S1901M"
    options: list[list[str]] = field(default_factory=list)  # per unit, its legal order texts
    etag: str = ""


@dataclass
class Sample:
    kind: str
    latency_ms: float
    status: int
    late_ms: float  # how long after its scheduled time the request was sent (client-side queueing)


def main() -> int:
    args = _arguments()

    folder = Path(tempfile.mkdtemp(prefix="dipserver-load-"))
    errors = folder / "errors.log"
    (folder / "load_settings.py").write_text(SETTINGS.replace("ERRORS_LOG", str(errors)))
    env, drop = _database(folder, args.database)
    env.update(
        DJANGO_SETTINGS_MODULE="load_settings",
        PYTHONPATH=f"{folder}{os.pathsep}{ROOT}",
        DIPSERVER_VAR_DIR=str(folder),
        DEBUG="false",
    )
    server = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        players = _create_games(env, args.games)
        port = free_port()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("gunicorn")),
                "-c",
                "dipserver/config/gunicorn.py",  # production's settings; these options override some
                "dipserver.config.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--threads",
                str(args.server_threads),
                "--log-level",
                "warning",
                "--access-logfile",
                str(folder / "access.log"),
                "--access-logformat",
                "%(m)s %(s)s %(D)s",  # method, status, microseconds spent in the server
            ],
            cwd=ROOT,
            env=env,
        )
        base = f"http://127.0.0.1:{port}/api/v1"
        wait_for(base)
        print(
            f"database: {env['DATABASE_URL'].split('@')[-1]}; gunicorn: {args.workers} workers"
            f" x {args.server_threads} threads on {base}; load average {os.getloadavg()[0]:.2f}"
        )
        cpus = os.cpu_count()
        print(f"{len(players)} players in {args.games} games; {args.seconds:.0f} s a stage; {cpus} CPUs")
        _prepare(base, players)

        log = folder / "access.log"
        stages = [
            ("1. polls alone", {"poll": args.poll_rate}),
            ("2. orders alone", {"orders": args.rate}),
            ("3. mixed", {"orders": args.rate, "poll": args.poll_rate}),
        ]
        for title, rates in stages:
            _refresh_tags(base, players)
            offset = log.stat().st_size
            run = _run(base, players, rates, args.seconds, args.threads)
            time.sleep(0.5)  # let gunicorn flush its access log
            _report(title, run, _server_times(log, offset))
        _report_errors(errors)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        drop()
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=100.0, help="order submissions per second")
    parser.add_argument("--poll-rate", type=float, default=100.0, help="conditional GETs per second")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each stage")
    parser.add_argument("--games", type=int, default=8, help="games of seven players")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument(
        "--server-threads", type=int, default=1, help="threads per gunicorn worker (1: sync workers)"
    )
    parser.add_argument("--threads", type=int, default=32, help="client threads")
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="postgres" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite",
        help="a throw-away SQLite file, or a throw-away database on the PostgreSQL server of DATABASE_URL",
    )
    return parser.parse_args()


POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def _database(folder: Path, kind: str) -> tuple[dict[str, str], object]:
    """A fresh database for this run, and a function that drops it."""
    env = dict(os.environ)
    url = env.get("DATABASE_URL", "")
    if kind == "postgres" and not url.startswith("postgres"):
        url = POSTGRES_URL
    if kind == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{folder / 'load.sqlite3'}"
        return env, lambda: None
    name = f"dipserver_load_{uuid.uuid4().hex[:8]}"
    server_url, _, _ = url.rpartition("/")
    env["DATABASE_URL"] = f"{server_url}/{name}"
    _psql(url, f'CREATE DATABASE "{name}"')
    return env, lambda: _psql(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _psql(url: str, sql: str) -> None:
    subprocess.run(["psql", url, "-q", "-c", sql], check=True, stdout=subprocess.DEVNULL)


def _create_games(env: dict[str, str], games: int) -> list[Player]:
    """Games and players straight through the services, in a child process using the run's database."""
    code = f"""
import json, django
django.setup()
from django.contrib.auth import get_user_model
from dipserver.accounts.tokens import token_create
from dipserver.games.services.games import game_create, game_join
out = []
for g in range({games}):
    game = game_create(name=f"Load {{g}}", variant="standard", phase_minutes={{"M": 100000}})
    for p in range(7):
        user = get_user_model().objects.create_user(username=f"load-{{g}}-{{p}}", password="x" * 12)
        game_join(game_id=game.id, user=user)
        out.append({{"game_id": game.id, "token": token_create(user=user, name="load")[1]}})
print(json.dumps(out))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return [Player(**p) for p in json.loads(done.stdout.strip().splitlines()[-1])]


def _prepare(base: str, players: list[Player]) -> None:
    """Each player's legal orders, and a first ETag to poll with."""
    for p in players:
        status, options, _ = request("GET", f"{base}/games/{p.game_id}/options", p.token)
        assert status == 200, status
        p.options = [[o["text"] for o in opts] for opts in options["units"].values()]
        p.phase = options["phase"]
        _, _, p.etag = request("GET", f"{base}/games/{p.game_id}", p.token)


def _refresh_tags(base: str, players: list[Player]) -> None:
    """Each player's current ETag: polls in the next stage then see only what changes during it."""
    for p in players:
        _, _, p.etag = request("GET", f"{base}/games/{p.game_id}", p.token)


def _one(kind: str, base: str, player: Player, rng: random.Random) -> tuple[int, float]:
    start = time.perf_counter()
    if kind == "orders":
        orders = [rng.choice(texts) for texts in player.options]
        status, _, _ = request(
            "PUT",
            f"{base}/games/{player.game_id}/orders",
            player.token,
            {"phase": player.phase, "orders": orders},
        )
    else:
        status, _, tag = request("GET", f"{base}/games/{player.game_id}", player.token, etag=player.etag)
        if tag:
            player.etag = tag
    return status, (time.perf_counter() - start) * 1000


def _run(
    base: str, players: list[Player], rates: dict[str, float], seconds: float, threads: int
) -> tuple[list[Sample], float]:
    """Open loop: requests are sent on a fixed schedule whatever the answers' speed."""
    schedule = sorted((i / rate, kind) for kind, rate in rates.items() for i in range(int(rate * seconds)))
    samples: list[Sample] = []
    lock = threading.Lock()
    t0 = time.perf_counter() + 0.2
    rng = random.Random(1)

    def job(at: float, kind: str, player: Player, seed: int) -> None:
        delay = t0 + at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        late = (time.perf_counter() - (t0 + at)) * 1000
        status, ms = _one(kind, base, player, random.Random(seed))
        with lock:
            samples.append(Sample(kind, ms, status, late))

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for n, (at, kind) in enumerate(schedule):
            pool.submit(job, at, kind, players[n % len(players)], rng.randrange(1 << 30))
    return samples, time.perf_counter() - t0


def _server_times(log: Path, offset: int) -> dict[str, list[float]]:
    """Milliseconds each request spent inside gunicorn (no client or socket queueing), by kind."""
    times: dict[str, list[float]] = {"orders": [], "poll": []}
    with log.open() as lines:
        lines.seek(offset)
        for line in lines:
            method, _status, micros = line.split()
            kind = "orders" if method == "PUT" else "poll"
            times[kind].append(int(micros) / 1000)
    return times


def _report(title: str, run: tuple[list[Sample], float], server: dict[str, list[float]]) -> None:
    samples, elapsed = run
    print(f"\n{title}: {len(samples) / elapsed:.1f} requests/s overall in {elapsed:.1f} s")
    for kind in sorted({s.kind for s in samples}):
        rows = [s for s in samples if s.kind == kind]
        ok = [s for s in rows if s.status in (200, 304)]
        hits = [s for s in rows if s.status == 304]
        bad = [s.status for s in rows if s.status not in (200, 304)]
        lag = max(s.late_ms for s in rows)
        print(
            f"  {kind:6} {len(rows):6} requests  p50 {_pct(ok, 50):6.2f} ms  p99 {_pct(ok, 99):6.2f} ms"
            f"  errors {len(bad)} {sorted(set(bad)) if bad else ''}  worst client lag {lag:.0f} ms"
        )
        if kind == "poll":
            hit50, hit99 = _pct(hits, 50), _pct(hits, 99)
            share = len(hits) / len(rows)
            print(
                f"         ETag hits (304): {len(hits)} = {share:.1%} of polls"
                f"  p50 {hit50:6.2f} ms  p99 {hit99:6.2f} ms"
            )
        inside = sorted(server.get(kind, []))
        if inside:
            in50, in99 = inside[len(inside) // 2], inside[min(len(inside) - 1, int(len(inside) * 0.99))]
            print(f"         inside the server: p50 {in50:6.2f} ms  p99 {in99:6.2f} ms")


def _report_errors(errors: Path) -> None:
    """Each kind of exception behind a 5xx (the last line of its traceback), with how often it was seen."""
    if not errors.exists():
        return
    kinds: dict[str, int] = {}
    for line in errors.read_text().splitlines():
        if line and not line[0].isspace() and ("Error" in line or "Exception" in line) and ":" in line:
            kinds[line] = kinds.get(line, 0) + 1
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  server error x{count}: {kind[:160]}")


def _pct(samples: list[Sample], p: int) -> float:
    if not samples:
        return float("nan")
    values = sorted(s.latency_ms for s in samples)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


if __name__ == "__main__":
    sys.exit(main())
