"""The engine's command line: ``python -m dipserver.engine <command>``, a stable contract for other tools.

Commands:
- ``adjudicate`` reads one JSON request on stdin and writes one JSON answer on stdout (``jsonio.py`` has
  the shapes); with ``--jsonl`` it reads one request per line and answers each on its own line, in order,
  in one process. A bad request gets ``{"error": "..."}`` on its line and the batch goes on.
- ``check <variant>`` validates a variant's files and its map at the start and after every change of its
  timeline; it prints the problems and exits 1 if there are any.

Each command is a function ``(args, stdin, stdout) -> exit status`` registered in ``_COMMANDS``, so more
(``timeline``, ``map``) slot in beside them. Imports are local to the commands: a batch of positions pays
start-up time once per process, and ``adjudicate`` should not pay for networkx.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

Command = Callable[[argparse.Namespace, IO[bytes], IO[str]], int]


def main(
    argv: Sequence[str] | None = None, stdin: IO[bytes] | None = None, stdout: IO[str] | None = None
) -> int:
    """Run one command; returns the process exit status."""
    args = _parser().parse_args(argv)
    command: Command = _COMMANDS[args.command]
    return command(args, stdin or sys.stdin.buffer, stdout or sys.stdout)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dipserver.engine", description="The dipserver engine, without the server."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    adj = commands.add_parser(
        "adjudicate",
        help="adjudicate one phase: a JSON request on stdin, the JSON answer on stdout",
        description="Read a request (variant, phase, units, centers, [homes], [dislodged], orders) as JSON "
        "on stdin; write the results and the next position as JSON on stdout.",
    )
    adj.add_argument(
        "--jsonl",
        action="store_true",
        help="one request per line in, one answer per line out, in order; bad lines get an error line",
    )
    adj.add_argument("--pretty", action="store_true", help="indent the JSON (not with --jsonl)")

    check = commands.add_parser(
        "check",
        help="validate a variant at the start and after every map change of its timeline",
        description="Load the variant, check its map and start position, then walk its timeline and check "
        "the map after every change. Exit status 1 if anything is wrong.",
    )
    check.add_argument("variant", help="variant slug, e.g. standard or wall_of_ice")
    check.add_argument("--mode", choices=("exact", "random"), default="exact", help="timeline mode")
    check.add_argument("--seed", help="random mode: the game secret the draws use")
    return parser


# --- adjudicate ---------------------------------------------------------------------------------------


def answer_text(text: str | bytes) -> dict[str, Any]:
    """The answer to one request's JSON text; every failure becomes ``{"error": ...}``, never a traceback."""
    from dipserver.engine.jsonio import RequestError, adjudicate_request

    if not text.strip():
        return {"error": "empty request: expected one JSON object"}
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return {"error": f"not valid JSON: {exc}"}
    try:
        return adjudicate_request(data)
    except RequestError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # a batch must go on; the message still lets someone file a bug
        return {"error": f"internal error ({type(exc).__name__}): {exc}"}


def _adjudicate(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    if args.jsonl:
        _adjudicate_lines(stdin, stdout)
        return 0
    answer = answer_text(stdin.read())
    stdout.write(json.dumps(answer, indent=2 if args.pretty else None) + "\n")
    return 1 if "error" in answer else 0


def _adjudicate_lines(lines: Iterable[bytes], stdout: IO[str]) -> None:
    # Flushed line by line: a tool may keep this process open and wait for each answer.
    for line in lines:
        stdout.write(json.dumps(answer_text(line), separators=(",", ":")) + "\n")
        stdout.flush()


# --- check --------------------------------------------------------------------------------------------


def _check(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    from dipserver.engine.timeline import TimelineError, load_timeline, walk
    from dipserver.engine.validate import validate
    from dipserver.engine.variant import VariantError, load_variant

    try:
        variant = load_variant(args.variant)
        timeline = load_timeline(variant)
        options = {"mode": args.mode}
        secret = args.seed if args.mode == "random" else None
        steps = walk(variant, options, secret)
    except (VariantError, TimelineError) as exc:
        stdout.write(f"{args.variant}: {exc}\n")
        return 1
    problems = [f"start: {p}" for p in validate(variant, position=variant.start)]
    for year, hook, result in steps:
        if result.events:
            at = f"{year} {hook.value}"
            problems += [f"{at}: {p}" for p in validate(variant, result.map_state, result.position)]
    for problem in problems:
        stdout.write(f"{variant.slug}: {problem}\n")
    changes = sum(1 for _, _, r in steps if r.events)
    summary = "no problems" if not problems else f"{len(problems)} problem(s)"
    where = f"the start map and {changes} timeline change(s)" if timeline.events else "the map (no timeline)"
    stdout.write(f"{variant.slug}: checked {where} ({args.mode} mode): {summary}\n")
    return 1 if problems else 0


_COMMANDS: dict[str, Command] = {"adjudicate": _adjudicate, "check": _check}
