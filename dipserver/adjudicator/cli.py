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
- ``check <variant>`` validates a variant's files and its map at the start and after every change of its
  timeline; it prints the problems and exits 1 if there are any. Notes (provinces the timeline cuts off
  on purpose) are printed too but are not problems.
- ``timeline <variant>`` lists the map changes season by season; ``map <variant> --at PHASE`` prints the
  map of a phase as JSON. Both, and ``check``, take ``--mode exact|random``, ``--seed SECRET`` and
  ``--option NAME=true|false`` for the variant's own switches.

Each command is a function ``(args, stdin, stdout) -> exit status`` registered in ``_COMMANDS``. Imports
are local to the commands: a batch of positions pays start-up time once per process, and ``adjudicate``
should not pay for networkx.
"""

from __future__ import annotations

import gc
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import SimpleNamespace
from typing import IO, TYPE_CHECKING, Any

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
    ``_adjudicate_lines``), or before any other command runs.
    """
    global _collector
    args = _plain_batch(sys.argv[1:] if argv is None else argv) or _parser().parse_args(argv)
    if collector is not None:
        if args.command == "adjudicate" and args.jsonl and args.workers == 1:
            _collector = collector
        elif collector:
            gc.enable()
    command: Command = _COMMANDS[args.command]
    try:
        return command(args, stdin or sys.stdin.buffer, stdout or sys.stdout)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's exit flush from complaining.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _plain_batch(argv: Sequence[str]) -> Any:
    """The arguments of the batch's plain forms, ``adjudicate --jsonl`` and ``adjudicate --jsonl --workers
    N``, read without argparse: building its parser is a tenth of a one-request run. Anything else (help,
    other spellings, mistakes) is None, left to argparse and its messages."""
    if len(argv) == 2:
        workers = "1"
    elif len(argv) == 4 and argv[2] == "--workers":
        workers = argv[3]
    else:
        return None
    if argv[0] != "adjudicate" or argv[1] != "--jsonl" or not (workers.isascii() and workers.isdigit()):
        return None
    return SimpleNamespace(command="adjudicate", jsonl=True, pretty=False, workers=int(workers))


def _parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m dipserver.adjudicator", description="The dipserver engine, without the server."
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
    adj.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="with --jsonl: adjudicate in N processes (default 1), answers still in input order; from a "
        "pipe each chunk of requests already sent is answered and flushed as soon as it is done",
    )

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


def _timeline_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="variant slug, e.g. standard or wall_of_ice")
    parser.add_argument("--mode", choices=("exact", "random"), default="exact", help="timeline mode")
    parser.add_argument("--seed", help="random mode: the game secret every draw is made from")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=true|false",
        help="one of the variant's own switches (e.g. errata=true); may be repeated",
    )


def _game_options(args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    """The timeline options and secret the arguments ask for; ``ValueError`` explains a bad one."""
    options: dict[str, Any] = {"mode": args.mode}
    for text in args.option:
        name, _, value = text.partition("=")
        if value.lower() not in ("true", "false"):
            raise ValueError(f"--option {text!r}: write NAME=true or NAME=false")
        options[name] = value.lower() == "true"
    if args.mode == "random" and not args.seed:
        raise ValueError("random mode draws from a game secret: give it with --seed")
    return options, (args.seed if args.mode == "random" else None)


# --- adjudicate ---------------------------------------------------------------------------------------
#
# JSON in and out of a batch is a good part of its time, so the batch uses orjson (compiled; decodes about
# a third faster and encodes three times faster) and falls back to the stdlib where orjson says no or is not
# installed. The stdlib stays the reference: a line orjson rejects is decoded again by ``json.loads``, which
# either gives the message the answer has always carried or accepts what orjson will not (a BOM, NaN or
# Infinity, a number beyond a double, a lone surrogate ``\udXXX``) and answers it as before. An answer
# orjson cannot write (a lone surrogate in an order text echoed back) is written by the stdlib, \u-escaped.
# One difference stays: orjson reads an integer beyond 64 bits as a float; no field of a request is a
# number, so such a request gets the same error either way (the tests hold both paths to that).


def _stdlib_loads(text: str | bytes) -> Any:
    import json

    return json.loads(text)


_stdlib_encoder: Callable[[Any], str] | None = None


def _stdlib_encode(answer: Any) -> bytes:
    """Compact JSON, non-ASCII as \\u escapes: what the stdlib writes, and the command wrote before orjson."""
    global _stdlib_encoder
    if _stdlib_encoder is None:
        import json

        # One encoder for the whole batch: json.dumps with any option builds a new one per call.
        _stdlib_encoder = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
    return _stdlib_encoder(answer).encode()


def _codec() -> tuple[Callable[[str | bytes], Any], Callable[[Any], bytes]]:
    """The batch's ``(loads, encode)``: orjson's with the stdlib behind them, or the stdlib's alone when
    orjson cannot be imported (a bare checkout: the engine needs nothing beyond Python)."""
    try:
        import orjson
    except ImportError:
        return _stdlib_loads, _stdlib_encode
    orjson_loads, orjson_dumps, decode_error = orjson.loads, orjson.dumps, orjson.JSONDecodeError

    def loads(text: str | bytes) -> Any:
        try:
            return orjson_loads(text)
        except decode_error:  # the stdlib's verdict, and its message if it agrees the line is not JSON
            return _stdlib_loads(text)

    def encode(answer: Any) -> bytes:
        try:
            return orjson_dumps(answer)
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int beyond 64 bits
            return _stdlib_encode(answer)

    return loads, encode


# ``_loads`` reads a request: the stdlib's until a batch sets up its codec. One request does not pay for
# importing orjson (17 million instructions, 4% of a one-request run) to save 0.2 million on its JSON.
_loads: Callable[[str | bytes], Any] = _stdlib_loads
# ``_encode(answer)`` is the bytes a batch writes for one answer (its newline apart), set by ``_use_codec``.
# orjson and the stdlib write the same bytes for an ASCII answer; orjson writes others as UTF-8, not \uXXXX.
_encode: Callable[[Any], bytes]


def _use_codec() -> Callable[[Any], bytes]:
    """Set up the batch's ``_loads`` and ``_encode`` (once); returns ``_encode``."""
    global _loads, _encode
    if "_encode" not in globals():
        _loads, _encode = _codec()
    return _encode


def __getattr__(name: str) -> Any:
    """``cli._encode`` from outside (the tests): the batch's encoder, set up on first use."""
    if name == "_encode":
        return _use_codec()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ``(adjudicate_request, RequestError)``, imported on the first request: an import statement costs about a
# microsecond each time it runs, and ``check`` or ``map`` need no adjudication.
_engine: tuple[Callable[..., dict[str, Any]], type[Exception]] | None = None


# The answer to JSON nested deeper than the stdlib's decoder can follow (it recurses once per level, and
# gives up near the interpreter's recursion limit, about 1,000 levels; orjson stops at 1,024). No request
# needs more than a few levels.
TOO_DEEP = "not valid JSON: arrays and objects nested too deeply (a request needs only a few levels)"
# The answer when JSON that could be read holds a value too deep for the engine to look at, or to name in
# its message (``repr`` gives up near the same limit).
TOO_DEEP_VALUE = "a value in the request is nested too deeply (a request needs only a few levels)"


def answer_text(text: str | bytes) -> dict[str, Any]:
    """The answer to one request's JSON text; every failure becomes ``{"error": ...}``, never a traceback."""
    try:
        data = _loads(text)
    except ValueError as exc:  # JSONDecodeError, and UnicodeDecodeError for bytes that are not UTF-8
        if not text.strip():
            return {"error": "empty request: expected one JSON object"}
        return {"error": f"not valid JSON: {exc}"}
    except RecursionError:
        return {"error": TOO_DEEP}
    return _answer_data(data)


def _answer_data(data: Any, express: bool = True) -> dict[str, Any]:
    """The answer to one decoded request, as ``answer_text`` gives it."""
    global _engine
    if _engine is None:
        from dipserver.adjudicator.jsonio import RequestError, adjudicate_request

        _engine = adjudicate_request, RequestError
    adjudicate, request_error = _engine
    try:
        return adjudicate(data, express=express)
    except request_error as exc:
        return {"error": str(exc)}
    except RecursionError:
        return {"error": TOO_DEEP_VALUE}
    except Exception as exc:  # a batch must go on; the message still lets someone file a bug
        return {"error": f"internal error ({type(exc).__name__}): {exc}"}


def _line_answerer() -> Callable[[bytes], bytes]:
    """The batch's ``line -> answer line`` (newline included): ``_encode(answer_text(line)) + b"\n"``, with
    orjson's decoding and encoding and the express lane called directly for the lines they take. A batch
    spends a few microseconds a line on the layers in between (two wrappers, an import statement, a copy
    of each answer to add its newline); every other line goes the layered way, which says what is wrong."""
    encode = _use_codec()
    try:
        import orjson
    except ImportError:
        return lambda line: encode(answer_text(line)) + b"\n"
    from dipserver.adjudicator.express import answer as lane

    loads, dumps, decode_error, newline = (
        orjson.loads,
        orjson.dumps,
        orjson.JSONDecodeError,
        orjson.OPT_APPEND_NEWLINE,
    )

    def answer_line(line: bytes) -> bytes:
        try:
            data = loads(line)
        except decode_error:  # not JSON to orjson: the stdlib decides, and gives the message
            return encode(answer_text(line)) + b"\n"
        try:
            answer = lane(data)
        except Exception:  # never for a request (it declines those); should it, the general path answers
            answer = None
        if answer is None:  # not the lane's request: the general path answers it (the lane left it as it was)
            answer = _answer_data(data, express=False)
        try:
            return dumps(answer, option=newline)
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int beyond 64 bits
            return _stdlib_encode(answer) + b"\n"

    return answer_line


def _binary(stdout: IO[str]) -> Output:
    """Where to write the answers' bytes: the text stream's own buffer (after what is already in the text
    layer), or, for a stream without one (a test's StringIO), an adapter that decodes them."""
    buffer = getattr(stdout, "buffer", None)
    if buffer is not None:
        stdout.flush()
        return buffer  # type: ignore[no-any-return]
    return _TextWriter(stdout)


class _TextWriter:
    """The part of a binary stream the command uses, writing UTF-8 bytes as text."""

    def __init__(self, stdout: IO[str]) -> None:
        self._stdout = stdout

    def write(self, data: bytes) -> int:
        return self._stdout.write(data.decode())

    def flush(self) -> None:
        self._stdout.flush()


def _adjudicate(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    out = _binary(stdout)
    try:
        return _adjudicate_to(args, stdin, out)
    finally:
        out.flush()


def _adjudicate_to(args: argparse.Namespace, stdin: IO[bytes], out: Output) -> int:
    if args.workers < 1:
        import json

        out.write(json.dumps({"error": "--workers must be 1 or more"}).encode() + b"\n")
        return 1
    if args.jsonl:
        flush = not _is_file(stdin)
        if args.workers > 1:
            from dipserver.adjudicator.workers import WorkerError, answer_in_parallel

            try:
                answer_in_parallel(_chunks(stdin), out, args.workers, flush, _line_answerer())
            except WorkerError as exc:
                print(f"dipserver: {exc}; no answers follow the last one written", file=sys.stderr)
                return 1
        elif flush:
            _adjudicate_lines(stdin, out, flush)
        else:
            # A file is read in large pieces too (the stream reads 8 KB at a time), from where it stands.
            with open(stdin.fileno(), "rb", buffering=_READ_SIZE, closefd=False) as lines:
                lines.seek(stdin.tell())
                _adjudicate_lines(lines, out, flush)
        return 0
    import json  # (only here: a batch with orjson never needs the stdlib's JSON, a millisecond to import)

    answer = answer_text(stdin.read())  # the stdlib's JSON, in and out: see ``_loads``
    out.write(json.dumps(answer, indent=2 if args.pretty else None).encode() + b"\n")
    return 1 if "error" in answer else 0


# Whether the collector goes back on after a batch's first answer, when ``main``'s caller turned it off for
# start-up; None: as it was when the batch began.
_collector: bool | None = None


def _adjudicate_lines(lines: Iterable[bytes], out: Output, flush: bool) -> None:
    write, rest = out.write, iter(lines)
    # The first answer loads the engine and the variant: many objects that live as long as the process and
    # no garbage cycles, so the cyclic collector is off for it, and what it built is then frozen, out of the
    # collector's sight (no later collection, nor the one at exit, walks it again). Phases leave no cycles.
    enabled = gc.isenabled() if _collector is None else _collector
    gc.disable()
    try:
        answer_line = _line_answerer()
        for line in rest:
            write(answer_line(line))
            if flush:
                out.flush()
            break
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
    if flush:
        for line in rest:
            write(answer_line(line))
            out.flush()
        return
    # Nobody waits for each answer (the input is a file): they are written in large pieces, one system call
    # each, also where the stream itself writes every call through (PYTHONUNBUFFERED, as in our image):
    # one write per answer was a twentieth of a batch's time.
    pending: list[bytes] = []
    size = 0
    try:
        for line in rest:
            answer = answer_line(line)
            pending.append(answer)
            size += len(answer)
            if size >= _WRITE_SIZE:
                write(b"".join(pending))
                pending.clear()
                size = 0
    finally:
        if pending:
            write(b"".join(pending))


_WRITE_SIZE = 1 << 16  # bytes of answers a batch from a file writes at once
_CHUNK_LINES = 32  # small enough to keep every worker busy, large enough that passing it costs little
_READ_SIZE = 1 << 18


def _chunks(stream: IO[bytes], read: Callable[[int, int], bytes] = os.read) -> Iterator[list[bytes]]:
    """The input's lines in chunks of those already there (at most ``_CHUNK_LINES``), never waiting for a
    second line once one is complete: from a pipe a tool may send one request and wait for its answer.

    Each piece read is searched and split once, and a line that spans many pieces is joined once, when its
    newline comes: the work is linear in the input, however long its lines (``read`` is ``os.read``; the
    tests count what it hands out)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # an in-memory stream (a test's): everything is already there
        yield from _batched(stream, _CHUNK_LINES)
        return
    import select

    partial, ready = list[bytes](), list[bytes]()  # the pieces of a line not complete yet; whole lines
    while data := read(fd, _READ_SIZE):  # blocks only until some input (or its end) comes
        *lines, rest = data.split(b"\n")
        if lines:
            if partial:  # a line that began in earlier pieces ends in this one
                lines[0] = b"".join((*partial, lines[0]))
                partial.clear()
            ready.extend(line + b"\n" for line in lines)
        if rest:
            partial.append(rest)  # the start of a line (or the middle of a long one), joined once it ends
        while len(ready) >= _CHUNK_LINES:
            yield ready[:_CHUNK_LINES]
            del ready[:_CHUNK_LINES]
        if ready and not select.select([fd], [], [], 0)[0]:
            yield ready  # nothing more is coming yet: someone may be waiting for these answers
            ready = []
    if partial:
        ready.append(b"".join(partial))  # a last line without its newline, as iterating the stream gives it
    if ready:
        yield ready


def _batched(lines: Iterable[bytes], size: int) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _is_file(stream: IO[bytes]) -> bool:
    """Whether input comes from a regular file. From a pipe or a terminal every answer is flushed as it is
    written, since a tool may keep the process open and wait for each; from a file nobody is waiting."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):  # no file descriptor at all (a test's in-memory stream)
        return False


# --- check --------------------------------------------------------------------------------------------


def _check(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    from dipserver.engine.timeline import load_timeline, walk
    from dipserver.engine.validate import notes, validate

    try:
        variant, (options, secret) = _load(args.variant), _game_options(args)
        timeline = load_timeline(variant)
        steps = walk(variant, options, secret)
    except ValueError as exc:  # VariantError and TimelineError among them
        stdout.write(f"{args.variant}: {exc}\n")
        return 1
    problems = [f"start: {p}" for p in validate(variant, position=variant.start)]
    remarks = []
    for year, hook, result in steps:
        if result.events:
            at = f"{year} {hook.value}"
            problems += [f"{at}: {p}" for p in validate(variant, result.map_state, result.position)]
            remarks += [f"{at}: {n}" for n in notes(variant, result.map_state)]
    for problem in problems:
        stdout.write(f"{variant.slug}: {problem}\n")
    for remark in remarks:
        stdout.write(f"{variant.slug}: note: {remark}\n")
    summary = f"{len(problems)} problem(s)" if problems else "no problems"
    if remarks:
        summary += f", {len(remarks)} note(s) (by design, not problems)"
    if timeline.events:
        changes = sum(1 for _, _, r in steps if r.events)
        where = f"the start map and the map after each of {changes} change(s) ({args.mode} mode)"
    else:
        where = "the map (it never changes)"
    stdout.write(f"{variant.slug}: checked {where}: {summary}\n")
    return 1 if problems else 0


def _timeline(args: argparse.Namespace, stdin: IO[bytes], stdout: IO[str]) -> int:
    from dipserver.engine.timeline import describe

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

    from dipserver.engine.timeline import map_at
    from dipserver.engine.types import Phase

    try:
        variant, (options, secret) = _load(args.variant), _game_options(args)
        data = map_at(variant, Phase.parse(args.at), options, secret)
    except ValueError as exc:
        stdout.write(json.dumps({"error": f"{args.variant}: {exc}"}) + "\n")
        return 1
    stdout.write(json.dumps(data, indent=2) + "\n")
    return 0


def _load(slug: str) -> Any:
    from dipserver.engine.variant import load_variant

    return load_variant(slug)


_COMMANDS: dict[str, Command] = {
    "adjudicate": _adjudicate,
    "check": _check,
    "timeline": _timeline,
    "map": _map,
}
