"""Instructions the command line and the engine execute, counted by callgrind: figures a busy machine
leaves alone, where times swing by a third.

    python scripts/count_engine.py [--positions 1000] [--seed 1]

The positions are the first of those ``scripts/bench_engine.py`` plays (seed 1, 12 years). Each figure is
the whole process's instruction count (``valgrind --tool=callgrind``, ``PYTHONHASHSEED=0``):

- one request: ``adjudicate`` with one request on stdin (start-up, JSON and teardown included);
- one ``--jsonl`` line, and a batch of all the positions: their difference per line is what each further
  position costs a batch;
- in process: every position's decoded request answered by ``adjudicate_request`` once and then once more;
  the second pass's share per position is the warm cost of one answer, JSON apart.

- by stage, in process: the warm cost of each step of an answer (reading the request, playing the phase
  through ``turn.play_phase``, writing the answer), each counted as the difference of two runs that stop
  after it.

``bench_engine.py --callgrind`` prints these beside its times. Needs valgrind (Debian's package).
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

# Run in the counted interpreter: every request answered ``passes`` times, in order, up to ``stage``
# (0: nothing, then the steps of ``jsonio.adjudicate_request`` in turn; 3 is the whole answer).
_IN_PROCESS = """
import json, sys
from dipserver.adjudicator.jsonio import read_request
from dipserver.adjudicator.turnio import answer
from dipserver.engine.turn import play_phase
requests = [json.loads(line) for line in open(sys.argv[1], "rb")]
stage = int(sys.argv[3])
for _ in range(int(sys.argv[2])):
    for data in requests:
        if stage < 1:
            continue
        request = read_request(data)
        if stage < 2:
            continue
        turn = play_phase(request.variant, request.board.map_state, request.position, request.orders)
        if stage < 3:
            continue
        answer(request.variant, turn, {}, changing=False, played=False, typed=request.orders)
"""
STAGES = ("read_request", "play_phase", "answer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stages", action="store_true", help="also count each step of an answer")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("callgrind: skipped (valgrind is not installed: apt-get install valgrind)")
        return 1
    counts = count(positions(args.positions, args.seed), stages=args.stages)
    for line in report(counts):
        print(line)
    return 0


def positions(wanted: int, seed: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_positions import play_games

    return play_games("standard", wanted, 12, seed)


def count(requests: list[dict[str, Any]], *, stages: bool = False) -> dict[str, Any]:
    """The instruction counts of each run (see the module's docstring), and the number of positions;
    ``stages``: the in-process runs that stop after each step of an answer too."""
    # Compiled first, as an installation has it (and bench_engine.py does): with PYTHONDONTWRITEBYTECODE
    # set, a module edited since would be compiled again in every run, tens of millions of instructions.
    subprocess.run([sys.executable, "-m", "compileall", "-qq", "dipserver"], cwd=ROOT, check=False)
    with tempfile.TemporaryDirectory() as tmp:
        one, batch = Path(tmp) / "one.jsonl", Path(tmp) / "batch.jsonl"
        one.write_text(json.dumps(requests[0]) + "\n")
        batch.write_text("".join(json.dumps(r) + "\n" for r in requests))
        command = [sys.executable, "-m", "dipserver.adjudicator", "adjudicate"]
        in_process = [sys.executable, "-c", _IN_PROCESS, str(batch)]
        found: dict[str, Any] = {
            "one request": _instructions(command, one),
            "one jsonl line": _instructions([*command, "--jsonl"], one),
            "jsonl batch": _instructions([*command, "--jsonl"], batch),
        }
        # The warm cost of the answer up to each step: a second pass over the positions, less the first.
        for stage in range(1, len(STAGES) + 1) if stages else (len(STAGES),):
            once = _instructions([*in_process, "1", str(stage)], None)
            twice = _instructions([*in_process, "2", str(stage)], None)
            found[f"warm to {STAGES[stage - 1]}"] = twice - once
    found["positions"] = len(requests)
    return found


def report(counts: dict[str, Any]) -> list[str]:
    n = counts["positions"]
    per_line = (counts["jsonl batch"] - counts["one jsonl line"]) / (n - 1)
    warm = counts[f"warm to {STAGES[-1]}"] / n
    lines = [
        f"callgrind: one request, whole process: {counts['one request'] / 1e6:.1f} M instructions",
        f"callgrind: one --jsonl line, whole process: {counts['one jsonl line'] / 1e6:.1f} M instructions",
        f"callgrind: --jsonl batch of {n} positions, whole process: {counts['jsonl batch'] / 1e6:.1f} M "
        f"instructions, {counts['jsonl batch'] / n / 1e3:.0f} k a position; each line after the first "
        f"{per_line / 1e3:.0f} k",
        f"callgrind: in process, one answer (adjudicate_request, JSON apart): {warm / 1e3:.0f} k "
        "instructions",
    ]
    if f"warm to {STAGES[0]}" in counts:  # every step was counted (--stages)
        before = 0
        for stage in STAGES:
            reached = counts[f"warm to {stage}"]
            lines.append(
                f"callgrind: in process, step {stage}: {(reached - before) / n / 1e3:.0f} k instructions"
            )
            before = reached
    return lines


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
