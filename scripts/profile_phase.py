"""Instructions and queries of one ``phase_process`` (and of the results announcement a worker runs after
it), counted exactly: times on a shared machine are noisy, callgrind's counts are not.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/benchphase CELERY_BROKER_URL=redis://127.0.0.1:6379/13 \\
    .venv/bin/python scripts/profile_phase.py                      # queries, CPU per phase
    ... scripts/profile_phase.py --queries                         # and their SQL
    ... scripts/profile_phase.py --callgrind 10                    # instructions of 10 phases, per phase
    ... scripts/profile_phase.py --callgrind 10 --what told        # of the results announcement alone
    ... scripts/profile_phase.py --profile 30                      # cProfile's top functions (CPU)
    PROFILE_SORT=tottime ... --profile 30                          # the same, by their own time

Like ``bench_server`` it works in a throw-away database (``test_<name>``, dropped at the end). The games
are ``bench_server.template_game``'s: a started standard game of seven players with addresses (one with a
webhook), every unit ordered at S1901M. ``--what process`` (the default) counts ``phase_process`` with its
results announcement queued to the broker on commit, as in production (``memory://``: kombu's in-process
transport); ``--what told`` counts the announcement's task body (``notification_send("phase_results_send",
...)``, what a worker runs next: inbox, webhooks, mail; their deliveries queued, not run), run after an
uncounted ``phase_process``.

``--callgrind N`` runs this script again under ``valgrind --tool=callgrind --instr-atstart=no`` and counts
N calls only (each dumped on its own), then prints the mean, least and median per call.
``PYTHONHASHSEED=0`` keeps the counts close from one run to the next (row ids and times differ).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dipserver.config.settings.test")
UNDER = "DIPSERVER_PROFILE_PHASE_COUNTED"  # set in the run under valgrind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", choices=("process", "told"), default="process", help="what is counted")
    parser.add_argument("--phases", type=int, default=40, help="phases timed by CPU (without --callgrind)")
    parser.add_argument("--queries", action="store_true", help="print the SQL of one call")
    parser.add_argument("--callgrind", type=int, default=0, help="count the instructions of this many calls")
    parser.add_argument("--profile", type=int, default=0, help="print this many cProfile rows")
    args = parser.parse_args()
    if args.callgrind and not os.environ.get(UNDER):
        return _under_valgrind(args.callgrind)

    import django
    from bench_server import DELIVERIES, queue_purged  # (sets the deliveries queue before the settings)

    django.setup()
    from django.db import connection

    original = connection.settings_dict["NAME"]
    # A name of its own: bench_server's test_<name> may be in use by a run beside this one.
    connection.settings_dict["TEST"]["NAME"] = f"test_{original}_profile"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        _measured(args)
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
        queue_purged(DELIVERIES)
    return 0


def _measured(args: argparse.Namespace) -> None:
    import logging

    from bench_server import _announcements_queued, template_game

    logging.getLogger("celery").setLevel(logging.WARNING)  # eager tasks log a line each
    warm = 20 if args.callgrind else 5
    count = args.callgrind or args.phases
    games = [template_game() for _ in range(warm + count + 4 + (200 if args.profile else 0))]
    calls = iter(_calls(games, args.what))
    with _announcements_queued() as told:
        for _ in range(3):
            _run(next(calls))
        _queries(next(calls), show=args.queries)
        print(f"(the results announcement {told})" if args.what == "process" else "(its task body, inline)")
        if args.callgrind:
            _instructions(calls, warm, count)
            return
        cpu = []
        for _ in range(count):
            prepare, call = next(calls)
            prepare()
            start = time.process_time()
            call()
            cpu.append((time.process_time() - start) * 1000)
        cpu.sort()
        load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"{args.what}: CPU least {cpu[0]:.2f} ms, median {cpu[len(cpu) // 2]:.2f} ms; load {load}")
        if args.profile:
            _profiled(calls, args.profile)


Call = tuple[Callable[[], None], Callable[[], None]]  # (what comes first, uncounted; what is counted)


def _run(pair: Call) -> None:
    for step in pair:
        step()


def _calls(games: list[Any], what: str) -> list[Call]:
    """One call a game: its phase processed (``process``), or its results told (``told``: the phase is
    processed first, uncounted)."""
    from dipserver.games import tasks
    from dipserver.games.notifications import notifications_muted
    from dipserver.games.services.phases import Processed, phase_process

    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)

    def processed(phase_id: int) -> Call:
        def call() -> None:
            assert phase_process(phase_id=phase_id, now=later) is Processed.DONE

        return (lambda: None), call

    def told(phase_id: int) -> Call:
        def prepare() -> None:
            with notifications_muted():  # nothing queued: the announcement is the call below
                assert phase_process(phase_id=phase_id, now=later) is Processed.DONE

        def call() -> None:
            tasks.notification_send.run("phase_results_send", {"phase_id": phase_id})

        return prepare, call

    make = processed if what == "process" else told
    return [make(game.current_phase_id) for game in games]


def _queries(pair: Call, *, show: bool) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    prepare, call = pair
    prepare()
    with CaptureQueriesContext(connection) as captured:
        call()
    print(f"queries per call: {len(captured.captured_queries)}")
    if show:
        for query in captured.captured_queries:
            print("  ", query["sql"][:400])


def _under_valgrind(count: int) -> int:
    """Run this script under callgrind and print its count per call: the counts are zeroed as each call
    begins (``os.getppid``, called nowhere else) and dumped as it ends (``os.getpgid``), one file a call.
    (Collecting inside a C function that calls Python back, as ``profile_put`` does with ``qsort``, counts
    nothing on this valgrind: the ctypes callback loses callgrind's call stack.)"""
    out = Path(tempfile.mkdtemp(prefix="profile-phase-")) / "callgrind.out"
    command = [
        "valgrind", "--quiet", "--tool=callgrind", "--instr-atstart=no", "--zero-before=getppid",
        "--dump-before=getpgid", f"--callgrind-out-file={out}", sys.executable, *sys.argv,
    ]  # fmt: skip
    env = {**os.environ, UNDER: "1", "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    done = subprocess.run(command, env=env, check=False)
    if done.returncode:
        return done.returncode
    counts = []
    for dump in sorted(out.parent.iterdir()):
        text = dump.read_text()
        if "Trigger: --dump-before" in text:
            counts.append(int(next(ln for ln in text.splitlines() if ln.startswith("summary:")).split()[1]))
    if len(counts) != count:
        print(f"profile_phase: {len(counts)} dumps for {count} calls in {out.parent}", file=sys.stderr)
        return 1
    counts.sort()
    print(
        f"instructions per call: mean {sum(counts) / count:,.0f}, least {counts[0]:,}, "
        f"median {counts[count // 2]:,} over {count} calls ({out.parent})"
    )
    return 0


def _instructions(calls: Any, warm: int, count: int) -> None:
    """``count`` calls, each between ``os.getppid()`` and ``os.getpgid(0)`` for callgrind to count alone;
    what comes first runs outside. Instrumentation is switched on asynchronously (callgrind_control), so
    ``warm`` calls run first."""
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)
    for _ in range(warm):
        _run(next(calls))
    for _ in range(count):
        prepare, call = next(calls)
        prepare()
        os.getppid()
        call()
        os.getpgid(0)


def _profiled(calls: Any, rows: int) -> None:
    import cProfile
    import pstats

    profile = cProfile.Profile(time.process_time)  # CPU, not the waits on the database
    for _ in range(200):
        prepare, call = next(calls)
        prepare()
        profile.enable()
        call()
        profile.disable()
    pstats.Stats(profile).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(rows)


if __name__ == "__main__":
    raise SystemExit(main())
