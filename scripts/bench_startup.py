"""A one-request command line run, start to exit: its CPU beside the target (issue 30: 60 ms) and beside a
bare interpreter's start-up measured in the same run, and with ``--callgrind`` its instructions.

    python scripts/bench_startup.py                  # adjudicate, 20 runs of each, alternated
    python scripts/bench_startup.py --command options --runs 40
    python scripts/bench_startup.py --callgrind      # and the instruction count (valgrind, PYTHONHASHSEED=0)
    DIPSERVER_NATIVE=0 python scripts/bench_startup.py   # from the sources beside a compiled build

The request is the standard map's example of ``docs/engine.md`` (four units, three orders). CPU is the
child's user + system time (``os.wait4``); the medians are printed, with the machine's load average: on
a shared machine CPU time grows with the load, instructions do not.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 60.0
REQUEST = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"ENGLAND": ["F LON", "A LVP", "F EDI"], "RUSSIA": ["F STP/SC"]},
    "centers": {"ENGLAND": ["EDI", "LON", "LVP"]},
    "homes": {"ENGLAND": ["EDI", "LON", "LVP"]},
    "orders": {"ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - EDI"]},
}


def cpu_ms(argv: list[str], stdin: bytes) -> float:
    """One run's CPU (user + system) in milliseconds."""
    with tempfile.TemporaryFile() as given:
        given.write(stdin)
        given.seek(0)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(argv, stdin=given, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{argv} exited {child.returncode}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def instructions(argv: list[str], stdin: bytes) -> int:
    """The run's instruction count under callgrind (hash seed fixed, so that runs repeat)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
            input=stdin,
            capture_output=True,
            cwd=ROOT,
            env=env,
            check=True,
        )
    found = re.search(rb"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--command", choices=("adjudicate", "options"), default="adjudicate")
    parser.add_argument("--runs", type=int, default=20, help="runs of each, after one warm-up of each")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args()

    run = [sys.executable, "-m", "dipserver.adjudicator", args.command]
    bare = [sys.executable, "-c", "pass"]
    stdin = json.dumps(REQUEST).encode()
    load = os.getloadavg()[0]
    cpu_ms(run, stdin), cpu_ms(bare, b"")  # warm-up: the page cache, the variant's disk cache
    ours, reference = [], []
    for _ in range(args.runs):
        ours.append(cpu_ms(run, stdin))
        reference.append(cpu_ms(bare, b""))
    median, floor = statistics.median(ours), statistics.median(reference)
    native = "sources" if os.environ.get("DIPSERVER_NATIVE") == "0" else "compiled where built"
    print(f"python -m dipserver.adjudicator {args.command}, one request ({native}), {args.runs} runs each")
    print(f"load average at the start {load:.1f}, at the end {os.getloadavg()[0]:.1f}")
    verdict = "met" if median <= TARGET_MS else "not met"
    print(f"CPU median {median:.1f} ms (min {min(ours):.1f}); target {TARGET_MS:.0f} ms: {verdict}")
    print(f"reference, a bare interpreter (python -c pass): CPU median {floor:.1f} ms")
    if args.callgrind:
        print(f"instructions: {instructions(run, stdin) / 1e6:.1f} million; ", end="")
        print(f"the bare interpreter's {instructions(bare, b'') / 1e6:.1f} million")
    return 0


if __name__ == "__main__":
    sys.exit(main())
