"""The command line's answers on the benchmark's positions, byte for byte: a SHA-256 of them all.

    python scripts/check_answers.py                    # compare with the digest stored below
    python scripts/check_answers.py --revision d095b9d # compare with what that commit's command answers
    python scripts/check_answers.py --workers 2        # the same answers must come from two workers

The positions are those ``scripts/bench_engine.py`` plays by default (5,000 movement phases of seeded
random games, seed 1, 12 years each), written one per line as that script writes them. They go through
one ``adjudicate --jsonl`` process, and the digest is taken over its whole standard output. The answers
must not change when the engine is reorganised (issue 20: "byte-identical"); when a change of the rules
changes them on purpose, say so in the commit and store the new digest here.

With ``--revision`` the same positions also go through that commit's own command line (its files taken
with ``git archive`` into a temporary directory; ``--module`` there defaults to ``dipserver.engine``, the
command every commit has), and the two digests must be equal. Exit status 0 when they are, 1 when not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The digest of the answers to the default positions: 5,000 positions, seed 1, 12 years, the standard map.
# The positions are played out by the engine, so a rule change that ends games at other times (issue 15's
# endings, E17) draws other positions: this digest is of today's positions, answered identically by d095b9d
# (before issue 20 moved the command line out of the engine), as `--revision d095b9d` shows.
EXPECTED = {
    (5000, 1, 12, "standard"): "6a10b1c03e774a9a7a501d39085253c3be84a84c510592a6f73aaabafdf4534d",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=12)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--workers", type=int, default=1, help="adjudicate --jsonl --workers N (default 1)")
    parser.add_argument("--module", default="dipserver.adjudicator", help="the command line to run here")
    parser.add_argument("--revision", help="compare with this commit's command line instead of the digest")
    parser.add_argument("--revision-module", default="dipserver.engine", help="its command line")
    parser.add_argument("--save", metavar="PATH", help="also keep the requests (one per line) in PATH")
    args = parser.parse_args()

    batch = positions(args.positions, args.seed, args.years, args.variant)
    if args.save:
        Path(args.save).write_bytes(batch)
    ours = digest(answers(batch, args.module, args.workers, ROOT))
    print(f"answers of {args.module} ({args.workers} worker(s)) to {args.positions} positions: {ours}")
    if args.revision:
        with tempfile.TemporaryDirectory() as tmp:
            checkout = export(args.revision, Path(tmp))
            theirs = digest(answers(batch, args.revision_module, 1, checkout))
        print(f"answers of {args.revision_module} at {args.revision}: {theirs}")
    else:
        theirs = EXPECTED.get((args.positions, args.seed, args.years, args.variant), "")
        if not theirs:
            print("no digest stored for these positions: nothing to compare with (use --revision)")
            return 1
        print(f"the digest stored in {Path(__file__).name}: {theirs}")
    same = ours == theirs
    print("byte-identical" if same else "THE ANSWERS DIFFER")
    return 0 if same else 1


def positions(wanted: int, seed: int, years: int, variant: str) -> bytes:
    """The requests ``bench_engine.py`` plays, as the JSON lines it feeds the batch."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_positions import play_games

    return "".join(json.dumps(r) + "\n" for r in play_games(variant, wanted, years, seed)).encode()


def answers(batch: bytes, module: str, workers: int, root: Path) -> bytes:
    """What ``python -m MODULE adjudicate --jsonl`` writes for ``batch``, run from ``root``."""
    command = [sys.executable, "-m", module, "adjudicate", "--jsonl", "--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with tempfile.TemporaryFile() as stdin:
        stdin.write(batch)
        stdin.seek(0)
        done = subprocess.run(command, stdin=stdin, capture_output=True, cwd=root, env=env, check=False)
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{' '.join(command)} in {root}: status {done.returncode}\n{done.stderr.decode()}")
    return done.stdout


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def export(revision: str, into: Path) -> Path:
    """The files of ``revision`` (``git archive``) unpacked in ``into``."""
    archive = into / "revision.tar"
    subprocess.run(["git", "archive", "-o", str(archive), revision], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


if __name__ == "__main__":
    raise SystemExit(main())
