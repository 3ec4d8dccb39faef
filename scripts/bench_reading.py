"""What reading a movement phase's order texts costs: ``turn.read_orders`` for every power, as
``turn.play_phase`` calls it, on the benchmark's positions.

    python scripts/bench_reading.py [--positions 500] [--seed 1] [--callgrind] [--new]

The positions are the first of those ``scripts/bench_engine.py`` plays (seed 1, 12 years, the standard
map; about 29 order texts a phase). The reader's memo is warm, as in a server or a batch that has met
the map's usual texts: each phase is read once untimed, then timed on a copy of its own, decoded again
(its units new objects, as a new request's are). Printed beside the target of issue 30
(<= 25 us a standard movement phase) and, as the reference measured in the same run, adjudicating the same
phase (``adjudicate``, its orders as read).

``--callgrind`` counts instructions instead (``valgrind --tool=callgrind``, ``PYTHONHASHSEED=0``): the
difference between a run that reads three copies of every phase and one that reads one, per phase read,
so start-up, decoding and the first (cold) reading fall out. Needs valgrind (Debian's package).

``--new`` reads every text as new to the memo: the board's answers are dropped before each phase is
read, so the grammar reads every line (its lexicon has met the map's words), as it reads the lines a
batch of positions met once brings for the first time.
"""

from __future__ import annotations

import argparse
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
TARGET_US = 25.0
_COLLECTED = re.compile(rb"Collected : (\d+)")

# Run in the counted interpreter: every phase read ``passes`` times.
_COUNTED = """
import json, sys
from dipserver.adjudicator.jsonio import read_request
from dipserver.engine.turn import read_orders
lines = open(sys.argv[1], "rb").read().splitlines()
copies = [[read_request(json.loads(line)) for line in lines] for _ in range(3)]
new = sys.argv[3] == "new"
for requests in copies[: int(sys.argv[2])]:
    for r in requests:
        if new:
            r.board.readings.clear()
        for power, texts in r.orders.items():
            read_orders(texts, r.board, r.position, power, one_per_unit=False)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead of timing")
    parser.add_argument("--new", action="store_true", help="each text new to the memo: the grammar reads it")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_positions import play_games

    requests = play_games("standard", args.positions, 12, args.seed)
    texts = sum(len(t) for r in requests for t in r["orders"].values())
    print(f"positions: {len(requests)} standard movement phases, {texts / len(requests):.1f} texts a phase")
    if args.callgrind:
        return _counted(requests, args.new)
    _timed(requests, args.new)
    return 0


def _timed(requests: list[dict[str, Any]], new: bool) -> None:
    from dipserver.adjudicator.jsonio import read_request
    from dipserver.engine.adjudicate import adjudicate
    from dipserver.engine.turn import read_orders

    decoded = [(read_request(r), read_request(r)) for r in requests]
    clock = time.process_time
    reading, judging = [], []
    for warm, r in decoded:
        for power, texts in warm.orders.items():  # warm: the memo has met the phase's texts
            read_orders(texts, warm.board, warm.position, power, one_per_unit=False)
        if new:
            r.board.readings.clear()
        t0 = clock()
        lines = {p: read_orders(t, r.board, r.position, p, one_per_unit=False) for p, t in r.orders.items()}
        t1 = clock()
        orders = {p: [x.order for x in read if x.order is not None] for p, read in lines.items()}
        t2 = clock()
        adjudicate(r.board, r.position, orders)
        t3 = clock()
        reading.append(t1 - t0)
        judging.append(t3 - t2)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    read_us, judge_us = statistics.mean(reading) * 1e6, statistics.mean(judging) * 1e6
    verdict = "met" if read_us <= TARGET_US else "not met"
    target = f"target <= {TARGET_US:.0f} us: {verdict}"
    memo = "every text new to the memo" if new else "the memo warm"
    print(f"reading a phase (read_orders, every power, {memo}): {read_us:.1f} us CPU, mean; {target}")
    print(f"reference, adjudicating the same phase: {judge_us:.1f} us CPU, mean")
    print(f"load average: {load}")


def _counted(requests: list[dict[str, Any]], new: bool) -> int:
    import json

    if shutil.which("valgrind") is None:
        print("callgrind: skipped (valgrind is not installed: apt-get install valgrind)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "requests.jsonl"
        source.write_text("".join(json.dumps(r) + "\n" for r in requests))
        script = Path(tmp) / "counted.py"
        script.write_text(_COUNTED)
        counts = [_instructions(tmp, script, source, passes, new) for passes in (1, 3)]
    per_phase = (counts[1] - counts[0]) / (2 * len(requests))
    memo = "every text new to the memo" if new else "warm"
    print(f"reading a phase (read_orders, every power, {memo}): {per_phase:,.0f} instructions")
    return 0


def _instructions(tmp: str, script: Path, source: Path, passes: int, new: bool) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.setdefault("PYTHONPATH", str(ROOT))  # another tree's engine may be counted: PYTHONPATH=that tree
    out = Path(tmp) / f"callgrind.{passes}"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, str(script)]
    arguments = [str(source), str(passes), "new" if new else "warm"]
    done = subprocess.run([*command, *arguments], env=env, capture_output=True, check=True)
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(done.stderr.decode()[-2000:])
    return int(found.group(1))


if __name__ == "__main__":
    sys.exit(main())
