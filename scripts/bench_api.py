"""Order submission over HTTP, the fourth part of ``scripts/bench_server.py`` (PostgreSQL only).

gunicorn, run with production's settings (``dipserver/config/gunicorn.py``: three sync workers, no access
log), serves the benchmark's throw-away database on loopback; the players of ``games`` standard games hold
API tokens. Two open-loop stages (requests leave on a fixed schedule, whatever the answers' speed): ``PUT
/games/<id>/orders`` alone at ``rate`` a second, each a full set of legal orders drawn from the player's
options; then the same while as many conditional polls (``GET /games/<id>`` with the last ETag) run. Each
stage prints p50/p99 from sending to the last byte, the answers that were not 200/304, and the CPU time
the gunicorn processes and the database's backends spent per request (read from ``/proc`` before and
after the stage: CPU time is what load disturbs least). Targets (issue 19): PUT p99 50 ms while the polls
run, server CPU per PUT 3 ms.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from http_load import free_port, request, wait_for

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = '''"""bench_api's settings: the local ones without DEBUG, throttles out of the way, quiet logs."""
from dipserver.config.settings.local import *  # noqa: F403

DEBUG = False
DIPSERVER_API_THROTTLES = {"login": "100000/min", "register": "100000/min", "writes": "1000000/min"}
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
'''
TICK = os.sysconf("SC_CLK_TCK")
GUNICORN_CONFIG = "dipserver/config/gunicorn.py"  # what the Dockerfile and docker-compose.yml run


@dataclass
class Player:
    game_id: int
    token: str
    phase: str = ""
    options: list[list[str]] = field(default_factory=list)  # per unit, its legal order texts
    etag: str = ""


def api_bench(database: str, games: int, rate: float, seconds: float) -> None:
    from django.db import connection

    players = _players(games)
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    folder = Path(tempfile.mkdtemp(prefix="dipserver-bench-api-"))
    (folder / "bench_api_settings.py").write_text(SETTINGS)
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{database}",
        "DJANGO_SETTINGS_MODULE": "bench_api_settings",
        "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}",
        "DIPSERVER_VAR_DIR": str(folder),
    }
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "-c", GUNICORN_CONFIG, "dipserver.config.wsgi:application",
               "--bind", f"127.0.0.1:{port}"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_for(base)
        for player in players:
            _prepare(base, player)
        stages = [("orders alone", {"put": rate}), ("orders while polls run", {"put": rate, "poll": rate})]
        for title, rates in stages:
            for player in players:
                _, _, player.etag = request("GET", f"{base}/games/{player.game_id}", player.token)
            _stage(title, base, players, rates, seconds, server.pid, database)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _players(games: int) -> list[Player]:
    """``games`` started standard games, made through the services; each player with a token."""
    from django.contrib.auth import get_user_model

    from dipserver.accounts.tokens import token_create
    from dipserver.games.models import Power
    from dipserver.games.services.games import game_create, game_join

    players = []
    for g in range(games):
        game = game_create(name=f"HTTP {g}", variant="standard", phase_minutes={"M": 100000})
        for p in range(7):
            user = get_user_model().objects.create(username=f"http-{game.id}-{p}")
            game_join(game_id=game.id, user=user)
        for seat in Power.objects.filter(game=game).select_related("user"):
            assert seat.user is not None
            players.append(Player(game.id, token_create(user=seat.user, name="bench")[1]))
    return players


def _prepare(base: str, player: Player) -> None:
    status, options, _ = request("GET", f"{base}/games/{player.game_id}/options", player.token)
    assert status == 200, status
    player.phase = options["phase"]
    player.options = [[o["text"] for o in unit] for unit in options["units"].values()]


def _stage(
    title: str, base: str, players: list[Player], rates: dict[str, float], seconds: float, pid: int, db: str
) -> None:
    server_before, (db_before, backends) = _tree_cpu(pid), _database_cpu(db)
    samples, elapsed = _run(base, players, rates, seconds)
    (db_after, backends_after), server_cpu = _database_cpu(db), _tree_cpu(pid) - server_before
    count = len(samples)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"HTTP, {title}: {count / elapsed:.1f} requests/s for {elapsed:.1f} s; load average {load}")
    for kind in sorted(rates):
        rows = sorted(ms for k, status, ms in samples if k == kind and status in (200, 304))
        bad = sorted({status for k, status, _ in samples if k == kind and status not in (200, 304)})
        p99 = rows[min(len(rows) - 1, int(len(rows) * 0.99))] if rows else float("nan")
        p50 = rows[len(rows) // 2] if rows else float("nan")
        verdict = f" (target 50 ms: {'met' if p99 <= 50 else 'NOT met'})" if kind == "put" else ""
        hits = sum(1 for k, status, _ in samples if k == kind and status == 304)
        extra = f", {hits} answered 304" if kind == "poll" else ""
        figures = f"p50 {p50:.1f} ms, p99 {p99:.1f} ms{verdict}"
        print(f"  {kind:4} {len(rows)} answered, {figures}; errors {bad}{extra}")
    per = "PUT" if set(rates) == {"put"} else "request"
    target = (
        f" (target 3 ms: {'met' if server_cpu * 1000 / count <= 3 else 'NOT met'})" if per == "PUT" else ""
    )
    # A connection replaced during the stage (CONN_MAX_AGE) takes its backend's CPU time with it.
    same = backends == backends_after
    database = f"{(db_after - db_before) * 1000 / count:.2f} ms" if same else "not measured (reconnected)"
    print(
        f"  server CPU (gunicorn) {server_cpu * 1000 / count:.2f} ms per {per}{target}; database {database}"
    )


def _run(base: str, players: list[Player], rates: dict[str, float], seconds: float) -> tuple[list, float]:
    """Open loop: every request leaves at its scheduled time; (kind, status, milliseconds) for each."""
    schedule = sorted((i / r, kind) for kind, r in rates.items() for i in range(int(r * seconds)))
    samples: list[tuple[str, int, float]] = []
    lock = threading.Lock()
    t0 = time.perf_counter() + 0.2
    rng = random.Random(19)

    def job(at: float, kind: str, player: Player, seed: int) -> None:
        time.sleep(max(0.0, t0 + at - time.perf_counter()))
        start = time.perf_counter()
        if kind == "put":
            body = {"phase": player.phase, "orders": [random.Random(seed).choice(o) for o in player.options]}
            status, _, _ = request("PUT", f"{base}/games/{player.game_id}/orders", player.token, body)
        else:
            url = f"{base}/games/{player.game_id}"
            status, _, tag = request("GET", url, player.token, etag=player.etag)
            player.etag = tag or player.etag
        with lock:
            samples.append((kind, status, (time.perf_counter() - start) * 1000))

    with ThreadPoolExecutor(max_workers=32) as pool:
        for n, (at, kind) in enumerate(schedule):
            pool.submit(job, at, kind, players[n % len(players)], rng.randrange(1 << 30))
    return samples, time.perf_counter() - t0


def _tree_cpu(pid: int) -> float:
    """User and system CPU seconds of a process and its children (gunicorn's master and workers)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return _cpu_of([pid, *map(int, children)])


def _database_cpu(database: str) -> tuple[float, set[int]]:
    """CPU seconds of the PostgreSQL backends serving ``database`` (gunicorn keeps its connections), and
    their process ids."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [database]
        )
        pids = {pid for (pid,) in cursor.fetchall()}
    return _cpu_of(sorted(pids)), pids


def _cpu_of(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone in the meantime
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / TICK
