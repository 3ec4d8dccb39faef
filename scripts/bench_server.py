"""Server benchmark: the resolve path without a database, one phase end to end, then a deadline storm.

    .venv/bin/python scripts/bench_server.py --no-storm        # SQLite (var/, an in-memory test copy)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dipserver \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python scripts/bench_server.py [--games 1000]

It creates a throw-away database (``test_<name>``, dropped at the end) and never touches the named one.
Each figure is printed beside its target (issue 19).

1. *Resolve path* (no database): ``games.turn.turn_play`` from the stored snapshot of a standard game at
   S1903M, every unit ordered, to the next phase's snapshot, timed per phase. Target: median 3 ms.
2. *One phase*: ``phase_process`` in this process for games whose seven powers ordered all 22 units —
   load, parse, adjudicate, save the next phase — timed per phase. Target: median 10 ms. As in production,
   the results announcement it queues on commit goes to the broker for a worker (the test settings would
   run it inline); a second line times the same with the announcement run inline, to show its cost.
3. *Storm* (PostgreSQL and Redis only): ``--games`` games due at the same moment, each with a full set of
   orders; ``--workers`` Celery worker processes (solo pool) on a private Redis queue; one sweep queues them
   all; timed until the last phase is processed. Target: 100 games per second on a 2-core machine.
4. *Order submission* (PostgreSQL only; ``--no-api`` skips it): gunicorn on loopback, players of
   ``--api-games`` games sending ``PUT .../orders`` at ``--put-rate`` a second, alone and then while as many
   conditional polls (``GET /games/<id>`` with the last ETag) run. Targets: PUT p99 50 ms in the mixed stage,
   3 ms of server CPU per PUT (the gunicorn processes' CPU time over the stage divided by its requests).

Times on a shared machine are noisy: each line carries the load average, and the CPU times and query
counts beside the times, which load disturbs much less. For exact figures, ``scripts/profile_phase.py
--callgrind N`` counts the instructions of one ``phase_process`` (or of its results announcement).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.test")
# The mails and webhook deliveries the announcements queue go to a queue of this run's own (read by the
# settings, so set before them; the storm's workers inherit it), emptied at the end: nobody delivers them.
DELIVERIES = os.environ.setdefault("CELERY_DELIVERIES_QUEUE", f"dipserver-bench-mail-{uuid.uuid4().hex[:8]}")
# A seated player's webhook (an address nothing is ever sent to: its deliveries stay in the queue above).
HOOK_URL = "https://1.1.1.1/dipserver-bench-hook"

ORDERS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
    "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO",
    "GERMANY": "A BER - KIE\nA MUN - RUH\nF KIE - HOL",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION",
    "RUSSIA": "A MOS - UKR\nA WAR - GAL\nF SEV - BLA\nF STP/SC - BOT",
    "TURKEY": "A CON - BUL\nA SMY - ARM\nF ANK - BLA",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games due at once in the storm")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--phases", type=int, default=30, help="phases timed one by one")
    parser.add_argument("--no-storm", action="store_true", help="skip the storm (it needs PostgreSQL, Redis)")
    parser.add_argument("--no-api", action="store_true", help="skip order submission over HTTP (PostgreSQL)")
    parser.add_argument("--put-rate", type=float, default=100.0, help="order PUTs per second (and polls)")
    parser.add_argument("--api-seconds", type=float, default=10.0, help="length of each HTTP stage")
    parser.add_argument("--api-games", type=int, default=8, help="games of seven players for the HTTP part")
    parser.add_argument(
        "--db-reuse-max",
        type=int,
        default=None,
        help="CELERY_DB_REUSE_MAX for the workers (default: the settings'; 0 reconnects for every task)",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    storm_too = not args.no_storm
    if storm_too and connection.vendor != "postgresql":
        print("bench_server: the storm needs PostgreSQL in DATABASE_URL (or --no-storm)", file=sys.stderr)
        return 2
    if storm_too and not settings.CELERY_BROKER_URL.startswith("redis"):
        print("bench_server: set CELERY_BROKER_URL to a redis:// URL (or pass --no-storm)", file=sys.stderr)
        return 2
    resolve_path(max(args.phases, 50))
    original = connection.settings_dict["NAME"]
    test_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        one_phase(args.phases)
        if storm_too:
            storm(args.games, args.workers, test_name, args.db_reuse_max)
        if not args.no_api and connection.vendor == "postgresql":
            from bench_api import api_bench  # scripts/: the HTTP part lives beside this script

            api_bench(test_name, args.api_games, args.put_rate, args.api_seconds)
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
        queue_purged(DELIVERIES)
    return 0


def queue_purged(queue: str) -> None:
    """Empty one of this run's queues on the broker."""
    from dipserver.config import celery_app

    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge(queue)


def _verdict(median: float, target: float) -> str:
    return f"target {target:g} ms: {'met' if median <= target else 'NOT met'}"


def load_average() -> str:
    return "load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def _picked_orders(variant, snapshot) -> dict[str, list[str]]:
    """A full, deterministic set of orders: each unit's first move (by text), else its first option."""
    from dipserver.engine.options import legal_options
    from dipserver.games.mappers import board_of, position_of

    board, position = board_of(variant, snapshot), position_of(snapshot)
    texts: dict[str, list[str]] = {}
    for power in sorted({u["power"] for u in snapshot["units"]}):
        for unit_options in legal_options(board, position, power).units.values():
            choices = sorted(o.text for o in unit_options)
            moves = [t for t in choices if " - " in t and " S " not in t and " C " not in t]
            texts.setdefault(power, []).append((moves or choices)[0])
    return texts


def resolve_path(count: int) -> None:
    """The server's resolve path without a database: stored snapshot and order texts to the next snapshot."""
    from dipserver.engine.variant import load_variant
    from dipserver.games.mappers import snapshot_from
    from dipserver.games.turn import turn_play

    variant = load_variant("standard")

    def play(snapshot, texts):
        return turn_play(variant=variant, options={}, secret="bench", snapshot=snapshot, order_texts=texts)

    snapshot = play(snapshot_from(variant.map_state, variant.start), _lines(ORDERS)).next_snapshot
    while snapshot["phase"] != "S1903M":
        movement = snapshot["phase"].endswith("M")
        snapshot = play(snapshot, _picked_orders(variant, snapshot) if movement else {}).next_snapshot
    texts = _picked_orders(variant, snapshot)
    play(snapshot, texts)  # warm the board caches
    timings = []
    for _ in range(count):
        start = time.perf_counter()
        play(snapshot, texts)
        timings.append((time.perf_counter() - start) * 1000)
    median = statistics.median(timings)
    print(
        f"resolve path without the database, standard S1903M, {sum(map(len, texts.values()))} orders: "
        f"median {median:.2f} ms, p90 {sorted(timings)[int(len(timings) * 0.9)]:.2f} ms over {count} "
        f"phases ({_verdict(median, 3)})"
    )


def _lines(orders: dict[str, str]) -> dict[str, list[str]]:
    return {power: text.split("\n") for power, text in orders.items()}


def _database_url() -> str:
    """The database the timings were taken on, as a URL without its password."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"{connection.vendor}://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def template_game():
    """A started standard game with every unit ordered, made through the services. Its seven players have
    confirmed addresses and the default mail settings (each hears a phase's results by mail and in the
    inbox), and the first has a webhook on every game they play (issue 32: seated games)."""
    from django.contrib.auth import get_user_model

    from dipserver.games.models import Power
    from dipserver.games.notifications import notifications_muted
    from dipserver.games.services.games import game_create, game_join
    from dipserver.games.services.orders import orders_submit
    from dipserver.webhooks.services import webhook_create

    tag = uuid.uuid4().hex[:8]
    users = [
        get_user_model().objects.create(username=f"bench-{tag}-{i}", email=f"bench-{tag}-{i}@example.com")
        for i in range(7)
    ]
    webhook_create(owner=users[0], url=HOOK_URL, name="bench")
    with notifications_muted():  # the game's start is nobody's news here
        game = game_create(name=f"Bench {tag}", variant="standard")
        for user in users:
            game_join(game_id=game.id, user=user)
        for power in Power.objects.filter(game=game).select_related("user"):
            assert orders_submit(game_id=game.id, user=power.user, text=ORDERS[power.name]).ok
    game.refresh_from_db()
    return game


def one_phase(count: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dipserver.games.services.phases import Processed, phase_process

    games = [template_game() for _ in range(count)]
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    with _announcements_queued() as told:
        phase_process(phase_id=games[0].current_phase_id, now=later)  # warm the variant and board caches
        with CaptureQueriesContext(connection) as queries:
            assert phase_process(phase_id=games[1].current_phase_id, now=later) is Processed.DONE
        half = 2 + (len(games) - 2) // 2
        timings, cpu = _timed(games[2:half], later)
        median, p90 = statistics.median(timings), sorted(timings)[int(len(timings) * 0.9)]
        print(
            f"phase_process end to end (load, adjudicate 22 orders, save; the results announcement {told}) "
            f"on {_database_url()}, 7 seated players: median {median:.1f} ms, p90 {p90:.1f} ms "
            f"over {len(timings)} phases ({_verdict(median, 10)}); this process's CPU median "
            f"{statistics.median(cpu):.1f} ms, {len(queries)} queries; {load_average()}"
        )
        timings, cpu = _timed(games[half:], later, told_too=True)
    print(
        f"  the same with the announcement's task run after the commit in this process (the inbox, outbox "
        f"and webhook rows a worker writes, deliveries queued): median {statistics.median(timings):.1f} "
        f"ms, CPU {statistics.median(cpu):.1f} ms over {len(timings)} phases"
    )


def _timed(games: list, later: dt.datetime, *, told_too: bool = False) -> tuple[list[float], list[float]]:
    from dipserver.games import tasks
    from dipserver.games.services.phases import Processed, phase_process

    timings, cpu = [], []
    for game in games:
        start, start_cpu = time.perf_counter(), time.process_time()
        assert phase_process(phase_id=game.current_phase_id, now=later) is Processed.DONE
        if told_too:
            tasks.notification_send.run("phase_results_send", {"phase_id": game.current_phase_id})
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return timings, cpu


@contextlib.contextmanager
def _announcements_queued() -> Iterator[str]:
    """Tasks sent to the broker on commit, as in production, where a worker runs them; the test settings
    would run them inline (eager). They go to a queue of their own, emptied after (with ``memory://``, to
    kombu's in-process transport)."""
    from django.conf import settings

    from dipserver.config import celery_app

    broker = settings.CELERY_BROKER_URL.split("://")[0]
    queue = f"dipserver-bench-told-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    eager, default = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        yield f"queued to {broker} for a worker"
    finally:
        conf.task_always_eager, conf.task_default_queue = eager, default
        queue_purged(queue)


def clone_due(template, count: int) -> list[int]:
    """``count`` copies of the template game, seats, open phase and orders, all due now (bulk inserts)."""
    from django.db import connection, transaction

    from dipserver.games.models import Game, Order, Phase, Power

    phase = Phase.objects.get(id=template.current_phase_id)
    seats = list(Power.objects.filter(game=template).order_by("id"))
    orders = list(Order.objects.filter(phase=phase).select_related("power"))
    due = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    with transaction.atomic():
        games = Game.objects.bulk_create(
            Game(
                name=f"Storm {n}",
                variant=template.variant,
                variant_version=template.variant_version,
                options=template.options,
                phase_minutes=template.phase_minutes,
                status=Game.Status.ACTIVE,
                secret=template.secret,
                commitment=template.commitment,
            )
            for n in range(count)
        )
        phases = Phase.objects.bulk_create(
            Phase(game=g, index=0, name=phase.name, deadline=due, variant_version=phase.variant_version,
                  snapshot=phase.snapshot)
            for g in games
        )  # fmt: skip
        for game, row in zip(games, phases, strict=True):
            game.current_phase = row
        Game.objects.bulk_update(games, ["current_phase"], batch_size=500)
        powers = Power.objects.bulk_create(  # the same seven players in every game
            Power(game=g, name=s.name, status=s.status, user_id=s.user_id) for g in games for s in seats
        )
        by_game = {}
        for power in powers:
            by_game.setdefault(power.game_id, {})[power.name] = power
        Order.objects.bulk_create(
            (
                Order(phase=row, power=by_game[row.game_id][o.power.name], text=o.text)
                for row in phases
                for o in orders
            ),
            batch_size=2000,
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have by now: plans for full tables, not empty ones
    return [row.id for row in phases]


def storm(count: int, workers: int, database: str, db_reuse_max: int | None = None) -> None:
    from django.conf import settings
    from django.db import connection

    from dipserver.config import celery_app
    from dipserver.games.models import Phase
    from dipserver.games.services.phases import phases_due_sweep

    phase_ids = clone_due(template_game(), count)
    queue = f"dipserver-bench-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    url = f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{database}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.test"}
    # As production's (and the integration stage's) workers: the results announcement a phase queues goes
    # to the broker, behind the phases still waiting (the test settings would run it inline, in the task).
    env["CELERY_TASK_ALWAYS_EAGER"] = "false"
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue  # what the workers queue comes back to them
    if db_reuse_max is not None:
        env["CELERY_DB_REUSE_MAX"] = str(db_reuse_max)
    logs = Path(os.environ.get("DIPSERVER_VAR_DIR", ROOT / "var"))
    logs.mkdir(parents=True, exist_ok=True)
    processes = []
    for n in range(workers):
        command = [
            sys.executable, "-m", "celery", "-A", "dipserver.config", "worker", "--loglevel=INFO",
            "--pool=solo", "--without-gossip", "--without-mingle", "-n", f"bench{n}-{queue}@localhost",
            "-Q", queue,
        ]  # fmt: skip
        with (logs / f"bench-worker-{n}.log").open("wb") as out:
            processes.append(
                subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
            )
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        names = [f"bench{n}-{queue}@localhost" for n in range(workers)]
        until = time.monotonic() + 60
        while len(celery_app.control.ping(destination=names, timeout=1.0)) < workers:
            if time.monotonic() > until:
                raise SystemExit(f"bench_server: workers did not start; see {logs}/bench-worker-*.log")
        ready_cpu = sum(_proc_cpu(process.pid) for process in processes)  # start-up, not the storm's
        start = time.perf_counter()
        queued = phases_due_sweep(limit=count)
        storm_phases = Phase.objects.filter(id__range=(min(phase_ids), max(phase_ids)))  # one id range
        elapsed = _waited(storm_phases.filter(status=Phase.Status.OPEN), start)
        drained_cpu = sum(_proc_cpu(process.pid) for process in processes)
        told = _waited(storm_phases.filter(announce_due__isnull=False), start)  # each results task has run
    finally:
        for process in processes:
            process.terminate()
        # The workers' own CPU time, start-up included (os.wait4 reaps the child with its resource use).
        worker_cpu = sum(_reaped_cpu(process) for process in processes)
    done = Phase.objects.filter(game__name__startswith="Storm ", index=1).count()
    rate = count / elapsed
    broker = settings.CELERY_BROKER_URL.split("://")[0]
    reuse = env.get("CELERY_DB_REUSE_MAX", settings.CELERY_DB_REUSE_MAX)
    print(
        f"deadline storm: {len(queued)} games due at once, {workers} worker processes ({broker}, "
        f"CELERY_DB_REUSE_MAX={reuse}): {done} processed in {elapsed:.1f} s = {rate:.1f} games per second "
        f"(target 100; {'met' if rate >= 100 else 'NOT met'}); the workers' CPU after start-up "
        f"{drained_cpu - ready_cpu:.1f} s = {(drained_cpu - ready_cpu) * 1000 / max(done, 1):.1f} ms a game; "
        f"every result told (a task each, queued behind the phases) after {told:.1f} s, the workers' CPU "
        f"{(worker_cpu - ready_cpu) * 1000 / max(done, 1):.1f} ms a game in all; {load_average()}"
    )


def _waited(rows: Any, start: float) -> float:
    """Seconds from ``start`` until the query finds no row (at most 10 minutes)."""
    while rows.exists():
        if time.perf_counter() - start > 600:
            raise SystemExit("bench_server: the storm did not finish within 10 minutes")
        time.sleep(0.25)
    return time.perf_counter() - start


def _proc_cpu(pid: int) -> float:
    """User and system CPU seconds of a running process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _reaped_cpu(process: subprocess.Popen[bytes]) -> float:
    """Wait for the child and return its user and system CPU seconds."""
    _pid, _status, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here: Popen must not wait for it again
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    raise SystemExit(main())
