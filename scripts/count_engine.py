"""Instructions the command line and the engine execute, counted by callgrind: figures a busy machine
leaves alone, where times swing by a third.

    python scripts/count_engine.py [--positions 1000] [--seed 1] [--general]

The positions are the first of those ``scripts/bench_engine.py`` plays (seed 1, 12 years). Each figure is
the whole process's instruction count (``valgrind --tool=callgrind``, ``PYTHONHASHSEED=0``):

- one request: ``adjudicate`` with one request on stdin (start-up, JSON and teardown included);
- one ``--jsonl`` line, and a batch of all the positions: their difference per line is what each further
  position costs a batch;
- in process: every position's decoded request answered by ``adjudicate_request`` once and then once more;
  the second pass's share per position is the warm cost of one answer, JSON apart.

With ``--general`` every request takes the general path (``adjudicate_request(data, express=False)``, and
the command line with the express lane declining every request): the figures that say whether the lane
still earns its place. ``bench_engine.py --callgrind`` prints these beside its times. Needs valgrind
(Debian's package).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_COLLECTED = re.compile(rb"Collected : (\d+)")

# Run in the counted interpreter: every request answered ``passes`` times, in order.
_IN_PROCESS = """
import json, sys
from dipserver.adjudicator.jsonio import adjudicate_request
requests = [json.loads(line) for line in open(sys.argv[1], "rb")]
express = sys.argv[3] == "lane"
for _ in range(int(sys.argv[2])):
    for data in requests:
        adjudicate_request(data, express=express)
"""

# The command line with the express lane (while there is one) declining every request: the general path.
GENERAL_CLI = """
import runpy, sys
try:
    import dipserver.adjudicator.express as lane
    lane.answer = lambda data: None
except ImportError:
    pass
sys.argv = ["dipserver.adjudicator", *sys.argv[1:]]
runpy.run_module("dipserver.adjudicator", run_name="__main__")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--general", action="store_true", help="every request by the general path (no express lane)"
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("callgrind: skipped (valgrind is not installed: apt-get install valgrind)")
        return 1
    counts = count(positions(args.positions, args.seed), general=args.general)
    for line in report(counts):
        print(line)
    return 0


def positions(wanted: int, seed: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_positions import play_games

    return play_games("standard", wanted, 12, seed)


def count(requests: list[dict[str, Any]], *, general: bool = False) -> dict[str, Any]:
    """The instruction counts of each run (see the module's docstring), and the number of positions;
    ``general``: every request by the general path."""
    # Compiled first, as an installation has it (and bench_engine.py does): with PYTHONDONTWRITEBYTECODE
    # set, a module edited since would be compiled again in every run, tens of millions of instructions.
    subprocess.run([sys.executable, "-m", "compileall", "-qq", "dipserver"], cwd=ROOT, check=False)
    with tempfile.TemporaryDirectory() as tmp:
        one, batch = Path(tmp) / "one.jsonl", Path(tmp) / "batch.jsonl"
        one.write_text(json.dumps(requests[0]) + "\n")
        batch.write_text("".join(json.dumps(r) + "\n" for r in requests))
        command = [sys.executable, *(("-c", GENERAL_CLI) if general else ("-m", "dipserver.adjudicator"))]
        command.append("adjudicate")
        path = "general" if general else "lane"
        in_process = [sys.executable, "-c", _IN_PROCESS, str(batch)]
        found = {
            "one request": _instructions(command, one),
            "one jsonl line": _instructions([*command, "--jsonl"], one),
            "jsonl batch": _instructions([*command, "--jsonl"], batch),
            "in process, once": _instructions([*in_process, "1", path], None),
            "in process, twice": _instructions([*in_process, "2", path], None),
        }
    found["positions"] = len(requests)
    found["path"] = "general path" if general else "express lane where it takes the request"
    return found


def report(counts: dict[str, Any]) -> list[str]:
    n = counts["positions"]
    per_line = (counts["jsonl batch"] - counts["one jsonl line"]) / (n - 1)
    warm = (counts["in process, twice"] - counts["in process, once"]) / n
    return [
        f"callgrind ({counts['path']}):",
        f"callgrind: one request, whole process: {counts['one request'] / 1e6:.1f} M instructions",
        f"callgrind: one --jsonl line, whole process: {counts['one jsonl line'] / 1e6:.1f} M instructions",
        f"callgrind: --jsonl batch of {n} positions, whole process: {counts['jsonl batch'] / 1e6:.1f} M "
        f"instructions, {counts['jsonl batch'] / n / 1e3:.0f} k a position; each line after the first "
        f"{per_line / 1e3:.0f} k",
        f"callgrind: in process, one answer (adjudicate_request, JSON apart): {warm / 1e3:.0f} k "
        "instructions",
    ]


def _instructions(command: list[str], stdin: Path | None) -> int:
    """The instructions callgrind counts over the whole run of ``command``."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    with (stdin or Path(os.devnull)).open("rb") as source:
        done = subprocess.run(
            [*valgrind, *command], stdin=source, capture_output=True, cwd=ROOT, env=env, check=False
        )
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed on {command}:\n{done.stderr.decode()[-2000:]}")
    return int(found.group(1))


if __name__ == "__main__":
    raise SystemExit(main())
