"""The engine's command line: ``python -m dipserver.adjudicator <command>``, a stable contract for tools.

It is a package of its own beside the engine (the JSON contract, the batch, the workers): it uses the
engine, and the engine never imports it. ``python -m dipserver.engine`` is an alias kept for old tools.

Commands:
- ``adjudicate`` reads one JSON request on stdin and writes one JSON answer on stdout (``jsonio.py`` has
  the shapes); with ``--jsonl`` it reads one request per line and answers each on its own line, in order,
  in one process. A bad request gets ``{"error": "..."}`` on its line and the batch goes on. The batch's
  answers are compact JSON in UTF-8 (orjson's: a non-ASCII character is written as itself; where orjson is
  not installed, the stdlib writes it as a ``\\uXXXX`` escape, the same JSON value); a single request's
  answer is the stdlib's, ASCII with escapes.
- ``options`` reads the same requests and answers each with every power's legal orders for the position,
  each power's in the shape of the API's ``GET .../options`` (``offers.py``); ``--jsonl``, ``--workers``
  and ``--pretty`` as for ``adjudicate``.
- ``check <variant>`` validates a variant's files and its map at the start and after every change of its
  timeline, then runs the variant's own tests (``tests/scenarios.toml`` in its folder, run by
  ``engine/scenarios.py``); it prints the problems and the failed tests and exits 1 if there are any.
  Notes (provinces the timeline cuts off on purpose) are printed too but are not problems.
- ``timeline <variant>`` lists the map changes season by season; ``map <variant> --at PHASE`` prints the
  map of a phase as JSON. Both, and ``check``, take ``--mode exact|random``, ``--seed SECRET`` and
  ``--option NAME=VALUE`` for every option a game takes: the variant's own switches (``true|false``) and
  the rule modules (``abstraction=true``, ``blizzards={"count": "1d6"}``), as ``adjudicate`` does.

Each command is a function ``(args, stdin, stdout) -> exit status`` registered in ``_COMMANDS``. Imports
are local to the commands: a batch of positions pays start-up time once per process, and ``adjudicate``
should not pay for networkx.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import IO, TYPE_CHECKING, Any

from dipserver.adjudicator import batch
from dipserver.adjudicator.codec import TOO_DEEP as TOO_DEEP
from dipserver.adjudicator.codec import TOO_DEEP_VALUE as TOO_DEEP_VALUE
from dipserver.adjudicator.codec import answer_text as answer_text

if TYPE_CHECKING:
    import argparse

    from dipserver.adjudicator.workers import Output

    Command = Callable[[argparse.Namespace, IO[bytes], IO[str]], int]


def main(
    argv: Sequence[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
    *,
    collector: bool | None = None,
) -> int:
    """Run one command; returns the process exit status.

    ``collector`` is for a caller that turned the cyclic garbage collector off for start-up (``__main__``):
    whether to turn it back on once start-up is over, that is after a batch's first answer (see
    ``batch.answer_lines``), or before any other command runs. A single request is start-up and one
    answer, and its process ends with it: the collector stays off (it found nothing to free there, and
    its passes over the loaded modules cost the run milliseconds).
    """
    args = _plain_request(sys.argv[1:] if argv is None else argv) or _parser().parse_args(argv)
    if collector is not None:
        if args.command in _ANSWERING and args.jsonl and args.workers == 1:
            batch.collector = collector
        elif collector and not (args.command in _ANSWERING and not args.jsonl):
            gc.enable()
    command: Command = _COMMANDS[args.command]
    try:
        return command(args, stdin or sys.stdin.buffer, stdout or sys.stdout)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's exit flush from complaining.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _plain_request(argv: Sequence[str]) -> Any:
    """The arguments of the answering commands' plain forms, read without argparse (building its parser
    is a tenth of a one-request run): ``adjudicate`` or ``options``, then ``--pretty``, or ``--jsonl``
    with ``--workers N`` or not. Anything else (help, other spellings, mistakes) is None, left to
    argparse and its messages."""
    if not argv or argv[0] not in _ANSWERING:
        return None
    rest = list(argv[1:])
    workers = "1"
    if len(rest) == 3 and rest[:2] == ["--jsonl", "--workers"]:
        workers = rest.pop()
        rest.pop()
    if rest not in ([], ["--pretty"], ["--jsonl"]) or not (workers.isascii() and workers.isdigit()):
        return None
    jsonl, pretty = rest == ["--jsonl"], rest == ["--pretty"]
    return SimpleNamespace(command=argv[0], jsonl=jsonl, pretty=pretty, workers=int(workers))


def _parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m dipserver.adjudicator", description="The dipserver engine, without the server."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    adjudicate = commands.add_parser(
        "adjudicate",
        help="adjudicate one phase: a JSON request on stdin, the JSON answer on stdout",
        description="Read a request (variant, phase, units, centers, [homes], [dislodged], orders) as JSON "
        "on stdin; write the results and the next position as JSON on stdout.",
    )
    _request_arguments(adjudicate, "adjudicate")
    offers = commands.add_parser(
        "options",
        help="every power's legal orders for one position: a JSON request on stdin, the answer on stdout",
        description="Read a request as adjudicate reads it (its orders are not needed, and not read); "
        'write {"phase", "options": {POWER: ...}}, each power\'s entry in the shape of the API\'s '
        "GET /api/v1/games/<id>/options: its units' orders, builds, conversions and rule module orders, "
        "each {text, kind, ...the order's fields}. Send an option's text back unchanged as an order.",
    )
    _request_arguments(offers, "answer")

    check = commands.add_parser(
        "check",
        help="validate a variant at the start and after every map change of its timeline",
        description="Load the variant, check its map and start position, then walk its timeline and check "
        "the map after every change. Exit status 1 if anything is wrong.",
    )
    _timeline_arguments(check)

    timeline = commands.add_parser(
        "timeline",
        help="the variant's map changes, season by season",
        description="List what changes on the map and when (the start units standing still).",
    )
    _timeline_arguments(timeline)

    board = commands.add_parser(
        "map",
        help="the map of one phase as JSON",
        description="Print every province's terrain, coasts, centre, owner and home at the start of a phase.",
    )
    _timeline_arguments(board)
    board.add_argument("--at", required=True, metavar="PHASE", help="phase name, e.g. S1905M")
    return parser


def _request_arguments(parser: argparse.ArgumentParser, verb: str) -> None:
    """The arguments of the commands that answer requests (``adjudicate``, ``options``)."""
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="one request per line in, one answer per line out, in order; bad lines get an error line",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the JSON (not with --jsonl)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=f"with --jsonl: {verb} in N processes (default 1), answers still in input order; from a "
        "pipe each chunk of requests already sent is answered and flushed as soon as it is done",
    )


def _timeline_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "variant", help="variant slug, e.g. standard or wall_of_ice, or the path of a variant's folder"
    )
    parser.add_argument("--mode", choices=("exact", "random"), default="exact", help="timeline mode")
    parser.add_argument("--seed", help="random mode: the game secret every draw is made from")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one of the game's options: a variant switch (errata=true, standard_convoys=true) or a rule"
        ' module (abstraction=true, blizzards=\'{"count": "1d6"}\'); may be repeated',
    )


def _game_options(args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    """The timeline options and secret the arguments ask for; ``ValueError`` explains a bad one.

    Every option a game takes is accepted, as ``adjudicate``'s ``"options"`` are: the variant's switches
    (``NAME=true|false``) and the rule modules (``abstraction=true``, ``supply_lines=true``,
    ``blizzards={"count": "1d6"}``: a JSON value). The modules are checked; they do not change the map,
    so the timeline gets the rest."""
    import json

    from dipserver.engine.modules import split_options

    options: dict[str, Any] = {"mode": args.mode}
    for text in args.option:
        name, _, value = text.partition("=")
        if value.lower() in ("true", "false"):
            options[name] = value.lower() == "true"
            continue
        try:
            options[name] = json.loads(value)
        except ValueError:
            raise ValueError(f"--option {text!r}: write NAME=true, NAME=false or NAME=<JSON value>") from None
    if args.mode == "random" and not args.seed:
        raise ValueError("random mode draws from a game secret: give it with --seed")
    modules, rest = split_options(options)
    if modules.blizzards is not None and not args.seed:
        raise ValueError("blizzards are drawn from the game secret: give it with --seed")
    return rest, (args.seed if args.mode == "random" else None)


# --- adjudicate, options -----------------------------------------------------------------------------------


def _answer(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    """``adjudicate`` and ``options``: requests in, the command's answers out."""
    out = batch.binary(stdout)
    try:
        return _answer_to(args, stdin, out)
    finally:
        out.flush()


def _answer_to(args: argparse.Namespace, stdin: IO[bytes], out: Output) -> int:
    if args.workers < 1:
        import json

        out.write(json.dumps({"error": "--workers must be 1 or more"}).encode() + b"\n")
        return 1
    if args.jsonl:
        flush = not batch.is_file(stdin)
        if args.workers > 1:
            from dipserver.adjudicator.codec import line_answerer
            from dipserver.adjudicator.workers import WorkerError, answer_in_parallel

            try:
                answer_in_parallel(batch.chunks(stdin), out, args.workers, flush, line_answerer(args.command))
            except WorkerError as exc:
                print(f"dipserver: {exc}; no answers follow the last one written", file=sys.stderr)
                return 1
        elif flush:
            batch.answer_lines(batch.bounded(stdin), out, flush, args.command)
        else:
            # A file is read in large pieces too (the stream reads 8 KB at a time), from where it stands.
            with open(stdin.fileno(), "rb", buffering=batch.READ_SIZE, closefd=False) as lines:
                lines.seek(stdin.tell())
                batch.answer_lines(batch.bounded(lines), out, flush, args.command)
        return 0
    import json  # (only here: a batch with orjson never needs the stdlib's JSON, a millisecond to import)

    from dipserver.adjudicator.codec import MAX_REQUEST

    # The stdlib's JSON, in and out (see ``codec._loads``). A byte more than a request may be is enough
    # to refuse it: the rest is never read.
    answer = answer_text(stdin.read(MAX_REQUEST + 1), args.command)
    out.write(json.dumps(answer, indent=2 if args.pretty else None).encode() + b"\n")
    return 1 if "error" in answer else 0


# --- check --------------------------------------------------------------------------------------------


def _check(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    from dipserver.engine.checks import check_variant

    try:
        variant, (options, secret) = _load(args.variant), _game_options(args)
        report = check_variant(variant, options, secret)
    except ValueError as exc:  # VariantError and TimelineError among them
        stdout.write(f"{args.variant}: {exc}\n")
        return 1
    for problem in report.problems:
        stdout.write(f"{variant.slug}: {problem.at}: {problem.message}\n")
    for remark in report.notes:
        stdout.write(f"{variant.slug}: note: {remark.at}: {remark.message}\n")
    summary = f"{len(report.problems)} problem(s)" if report.problems else "no problems"
    if report.notes:
        summary += f", {len(report.notes)} note(s) (by design, not problems)"
    if report.has_timeline:
        where = f"the start map and the map after each of {report.changes} change(s) ({args.mode} mode)"
    else:
        where = "the map (it never changes)"
    stdout.write(f"{variant.slug}: checked {where}: {summary}\n")
    return 1 if _scenarios(variant, stdout) or report.problems else 0


def _scenarios(variant: Any, stdout: IO[str]) -> int:
    """Run the variant's own tests and print each failure; how many failed (or could not be read)."""
    from dipserver.engine.scenarios import load_scenarios, run_scenarios
    from dipserver.engine.variant import VARIANTS_DIR

    try:
        cases = load_scenarios((variant.source_root or VARIANTS_DIR) / variant.slug)
    except ValueError as exc:  # ScenarioError: the file in a shape the runner cannot read
        stdout.write(f"{variant.slug}: tests: {exc}\n")
        return 1
    if not cases:
        return 0
    results = run_scenarios(variant, cases)
    failed = [result for result in results if not result.passed]
    for result in failed:
        stdout.write(f"{variant.slug}: test failed: {result.name}: {'; '.join(result.failures)}\n")
    stdout.write(f"{variant.slug}: {len(results) - len(failed)} of {len(results)} test(s) passed\n")
    return len(failed)


def _timeline(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    from dipserver.engine.chronicle import describe

    try:
        variant, (options, secret) = _load(args.variant), _game_options(args)
        lines = describe(variant, options, secret)
    except ValueError as exc:
        stdout.write(f"{args.variant}: {exc}\n")
        return 1
    stdout.write("".join(f"{line}\n" for line in lines) or f"{variant.slug}: the map never changes\n")
    return 0


def _map(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    import json

    from dipserver.engine.chronicle import map_at
    from dipserver.engine.types import Phase

    try:
        variant, (options, secret) = _load(args.variant), _game_options(args)
        data = map_at(variant, Phase.parse(args.at), options, secret)
    except ValueError as exc:
        stdout.write(json.dumps({"error": f"{args.variant}: {exc}"}) + "\n")
        return 1
    stdout.write(json.dumps(data, indent=2) + "\n")
    return 0


def _load(name: str) -> Any:
    """The variant a command names: a slug of ``variants/``, or the path of a variant's folder (one being
    written, its base variants beside it)."""
    from pathlib import Path

    from dipserver.engine.variant import load_variant

    if "/" not in name and name not in (".", ".."):
        return load_variant(name)
    folder = Path(name).resolve()
    return load_variant(folder.name, folder.parent)  # which records its root: its timeline is read there


_ANSWERING = ("adjudicate", "options")  # the commands that answer requests (``codec.COMMANDS``)

_COMMANDS: dict[str, Command] = {
    "adjudicate": _answer,
    "options": _answer,
    "check": _check,
    "timeline": _timeline,
    "map": _map,
}
