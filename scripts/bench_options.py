"""How long the legal options of every power take in a standard movement phase (issue 20: at most 1 ms),
beside the ``diplomacy`` package's ``Game.get_all_possible_orders`` on the same positions (issue 30).

    python scripts/bench_options.py [--positions 1000] [--seed 1] [--callgrind]
                                    [--reference-python /tmp/dipref/bin/python]

Two workloads. Random: the movement phases ``scripts/bench_engine.py`` plays (seeded random games, 12
years each). Real play: the movement phases of the games people played that the reference package ships
as its own test data (``diplomacy/tests/network/*.json``, read through the reference interpreter: never
copied into this repository), so that workload needs ``--reference-python``.

For each position ``phase_options`` lists every power's options at once (CPU time, ``time.process_time``;
the median and the 90th percentile over the positions). The options' tables kept on the board (one per
map, ``kinds/offering.py``) are first filled by other games: the random games of seed + 1, as many as
asked for; then each position is timed once, as a server meets a phase for the first time. The same is
printed with the tables emptied before each position ("cold": nothing learnt from earlier phases), and
``legal_options`` asked power by power afterwards, as clients ask the API for their own power's. With
``--callgrind`` the instructions of ``phase_options`` are counted too, position by position, as the timed
run meets them (``valgrind --tool=callgrind``: a run that fills the tables with the same warm-up, then
meets the first 100 positions once, with one dump of the counts a position): their median, as timed, and
their mean, figures load leaves alone.

The reference runs in an interpreter of its own with the ``diplomacy`` package (``--reference-python``, or
this one if it has the package; it is never a project dependency): for each position the game is set up
outside the timing, then ``get_all_possible_orders()`` is timed by CPU (the median of three runs, on a new
game each, as that method keeps nothing between phases). Issue 30 asks for Meta's dipcc, which is 12-14x
that package's speed on real positions: each workload's ratio is printed beside 12x.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TARGET_MS = 1.0  # issue 20: the options of all powers in a standard movement phase
TARGET_RATIO = 12.0  # issue 30: as fast as dipcc, which is 12-14x the reference package

# Run under callgrind (``--dump-before=getpgid``): ``phase_options`` over the warm-up's positions (the first
# file), then once over each position of the second file, with a call of ``os.getpgid`` before the first
# and after each: callgrind dumps its counts before each such call, so each position gets a dump of its own.
_COUNTED = """
import json, os, sys
from dipserver.adjudicator.request import read_request
from dipserver.engine.options import phase_options
warm_up, requests = ([read_request(json.loads(line)) for line in open(path)] for path in sys.argv[1:3])
for request in warm_up:
    phase_options(request.board, request.position)
os.getpgid(0)
for request in requests:
    phase_options(request.board, request.position)
    os.getpgid(0)
"""
_SUMMARY = re.compile(r"^summary: (\d+)$", re.MULTILINE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="also count one phase's instructions, each position met once after the warm-up (as timed)",
    )
    parser.add_argument("--reference-python", help="an interpreter with the diplomacy package installed")
    parser.add_argument("--reference-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--real-positions", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.reference_worker:
        return reference_worker()
    if args.real_positions:
        return real_positions()
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_positions import play_games

    print(f"uptime at the start: {_uptime()}")
    warm_up = play_games("standard", args.positions, 12, args.seed + 1)
    python = args.reference_python or (sys.executable if importlib.util.find_spec("diplomacy") else None)
    workloads = {"random": play_games("standard", args.positions, 12, args.seed)}
    if python is None:
        print("reference and real play: skipped (pip install diplomacy in some interpreter, then")
        print("  --reference-python PATH)")
    else:
        workloads["real play"] = read_real_positions(python)
    for name, positions in workloads.items():
        where = f"seed {args.seed}" if name == "random" else "the reference package's games"
        print(f"\n{name}: {len(positions)} standard movement phases ({where})")
        every, cold, each = timed(positions, warm_up)
        print(f"  phase_options, every power at once: median {_ms(every)} ms, p90 {_ms(every, 0.9)} ms CPU")
        print(f"  the same, the board's option tables emptied before each: median {_ms(cold)} ms")
        print(f"  legal_options, power by power: median {_ms(each)} ms, p90 {_ms(each, 0.9)} ms CPU a phase")
        verdict = "meets the target" if statistics.median(every) * 1e3 <= TARGET_MS else "MISSES THE TARGET"
        print(f"  target: every power's options <= {TARGET_MS:g} ms a phase: {verdict}")
        if python is not None:
            theirs = time_reference(python, positions)
            ratio = statistics.median(theirs) / statistics.median(every)
            median, p90 = _ms(theirs), _ms(theirs, 0.9)
            print(f"  reference get_all_possible_orders: median {median} ms, p90 {p90} ms CPU a phase")
            met = "meets" if ratio >= TARGET_RATIO else "MISSES"
            cold_ratio = statistics.median(theirs) / statistics.median(cold)
            print(
                f"  ratio: {ratio:.1f}x the reference's median (cold {cold_ratio:.1f}x); target >= "
                f"{TARGET_RATIO:g}x (dipcc): {met} it"
            )
    if args.callgrind:
        for name, positions in workloads.items():
            print(f"{name}: {counted(positions[:100], warm_up)}")
    print(f"\nuptime at the end: {_uptime()}")
    return 0


def _uptime() -> str:
    done = subprocess.run(["uptime"], capture_output=True, text=True, check=False)
    return done.stdout.strip() or " ".join(f"{v:.2f}" for v in os.getloadavg())


def timed(
    positions: list[dict[str, Any]], warm_up: list[dict[str, Any]]
) -> tuple[list[float], list[float], list[float]]:
    """CPU seconds per position: every power at once (the tables filled by ``warm_up``'s positions, each
    position met once), the same with the tables emptied first, and power by power."""
    from dipserver.adjudicator.request import read_request
    from dipserver.engine.options import legal_options, phase_options

    requests = [read_request(data) for data in positions]
    cold = []
    for request in requests:
        board, position = request.board, request.position
        board.offers.clear()
        started = time.process_time()
        phase_options(board, position)
        cold.append(time.process_time() - started)
    for board in {id(r.board): r.board for r in requests}.values():
        board.offers.clear()
    for request in [read_request(data) for data in warm_up]:  # other games: the tables as play leaves them
        phase_options(request.board, request.position)
    every, each = [], []
    for request in requests:
        started = time.process_time()
        phase_options(request.board, request.position)
        every.append(time.process_time() - started)
    for request in requests:
        board, position = request.board, request.position
        started = time.process_time()
        for power in request.variant.powers:
            legal_options(board, position, power)
        each.append(time.process_time() - started)
    return every, cold, each


def counted(positions: list[dict[str, Any]], warm_up: list[dict[str, Any]]) -> str:
    """Instructions of ``phase_options`` for each of ``positions``, each met once after the tables were
    filled by ``warm_up`` (as ``timed`` meets them): their median, which ``timed`` reports in time, and
    their mean (one collection of the warm-up's tables, when it falls in the run, weighs on the mean)."""
    if shutil.which("valgrind") is None:
        return "callgrind: skipped (valgrind is not installed: apt-get install valgrind)"
    with tempfile.TemporaryDirectory() as tmp:
        paths = Path(tmp) / "warm_up.jsonl", Path(tmp) / "positions.jsonl"
        for path, requests in zip(paths, (warm_up, positions), strict=True):
            path.write_text("".join(json.dumps(p) + "\n" for p in requests))
        each = _instructions(*paths, Path(tmp) / "callgrind.out")
    if len(each) != len(positions):
        raise SystemExit(f"callgrind: {len(each)} dumps for {len(positions)} positions")
    median, mean = statistics.median(each) / 1e6, statistics.mean(each) / 1e6
    return f"callgrind: phase_options, median {median:.3f} M instructions a phase (mean {mean:.3f} M)"


def _instructions(warm_up: Path, path: Path, out: Path) -> list[int]:
    """Each position's instructions: callgrind's dumps after the first (start-up and warm-up), in order;
    the last part, written at exit, is not a dump (``out`` itself)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    command = ["valgrind", "--tool=callgrind", "--dump-before=getpgid", f"--callgrind-out-file={out}"]
    command += [sys.executable, "-c", _COUNTED, str(warm_up), str(path)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
    dumps = sorted(out.parent.glob(f"{out.name}.*"), key=lambda dump: int(dump.suffix[1:]))
    counts = []
    for dump in dumps[1:]:
        found = _SUMMARY.search(dump.read_text())
        if found is None:
            raise SystemExit(f"callgrind: no summary in {dump.name}")
        counts.append(int(found.group(1)))
    return counts


def time_reference(python: str, positions: list[dict[str, Any]]) -> list[float]:
    """CPU seconds per position of the reference's ``get_all_possible_orders`` (``reference_worker``)."""
    lines = "".join(json.dumps(p) + "\n" for p in positions)
    done = subprocess.run(
        [python, __file__, "--reference-worker"], input=lines, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"the reference worker failed:\n{done.stderr[-2000:]}")
    return [float(line) for line in done.stdout.split()]


def read_real_positions(python: str) -> list[dict[str, Any]]:
    """The real-play positions, as requests, from the reference interpreter's package (``real_positions``)."""
    done = subprocess.run([python, __file__, "--real-positions"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"reading the real games failed:\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def real_positions() -> int:
    """In the reference interpreter: the movement phases of the games its package ships as test data."""
    import diplomacy

    for path in sorted((Path(diplomacy.__file__).parent / "tests" / "network").glob("*.json")):
        game = json.loads(path.read_text())
        for phase in game["phases"]:
            state = phase["state"]
            if phase["name"].endswith("M"):
                request = {"variant": game["map"], "phase": state["name"]}
                print(json.dumps({**request, "units": state["units"], "centers": state["centers"]}))
    return 0


def reference_worker() -> int:
    """In the reference interpreter: each position's median CPU time of ``get_all_possible_orders``."""
    from diplomacy import Game

    for line in sys.stdin:
        request = json.loads(line)
        times = []
        for _ in range(3):
            game = Game(map_name=request["variant"])
            game.clear_units()
            game.set_current_phase(request["phase"])
            for power, centres in request["centers"].items():
                game.set_centers(power, centres, reset=True)
            for power, power_units in request["units"].items():
                game.set_units(power, power_units, reset=True)
            started = time.process_time()
            game.get_all_possible_orders()
            times.append(time.process_time() - started)
        print(statistics.median(times))
    return 0


def _ms(values: list[float], quantile: float = 0.5) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1e3:.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
