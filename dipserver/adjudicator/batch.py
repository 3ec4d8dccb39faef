"""``adjudicate --jsonl`` in one process: request lines in, answer lines out, in order.

From a pipe or a terminal every answer is flushed as it is written (a tool may wait for each); from a file
they are written in large pieces. ``chunks`` cuts the input into the pieces ``--workers`` hands out.
"""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING

from dipserver.adjudicator.codec import MAX_REQUEST, line_answerer

if TYPE_CHECKING:
    from dipserver.adjudicator.workers import Output


def binary(stdout: IO[str]) -> Output:
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


# Whether the collector goes back on after a batch's first answer, when ``main``'s caller turned it off for
# start-up; None: as it was when the batch began.
collector: bool | None = None


def bounded(stream: IO[bytes]) -> Iterator[bytes]:
    """The stream's lines, as iterating it gives them, except that a line longer than a request may be is
    cut to its first ``MAX_REQUEST + 1`` bytes (its answer says it is too large) and the rest of it read
    in pieces and dropped: no line is ever held whole, however long."""
    limit = MAX_REQUEST + 1
    readline = stream.readline
    while line := readline(limit):
        if len(line) == limit and line[-1:] != b"\n":
            while (rest := readline(READ_SIZE)) and rest[-1:] != b"\n":
                pass
        yield line


def answer_lines(lines: Iterable[bytes], out: Output, flush: bool, command: str = "adjudicate") -> None:
    """``command``'s answer to each line (``codec.COMMANDS``), written in order to ``out``."""
    write, rest = out.write, iter(lines)
    # The first answer loads the engine and the variant: many objects that live as long as the process and
    # no garbage cycles, so the cyclic collector is off for it, and what it built is then frozen, out of the
    # collector's sight (no later collection, nor the one at exit, walks it again). Phases leave no cycles.
    enabled = gc.isenabled() if collector is None else collector
    gc.disable()
    try:
        answer_line = line_answerer(command)
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
READ_SIZE = 1 << 18


def chunks(stream: IO[bytes], read: Callable[[int, int], bytes] = os.read) -> Iterator[list[bytes]]:
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
    # The bytes of ``partial``: of a line longer than a request may be, only the first ``limit`` are kept
    # (its answer says it is too large), so that no line is ever held whole.
    held, limit = 0, MAX_REQUEST + 1
    while data := read(fd, READ_SIZE):  # blocks only until some input (or its end) comes
        *lines, rest = data.split(b"\n")
        if lines:
            if partial:  # a line that began in earlier pieces ends in this one
                lines[0] = b"".join((*partial, lines[0][: limit - held]))
                partial.clear()
                held = 0
            ready.extend(line + b"\n" for line in lines)
        if rest and held < limit:
            # The start of a line (or the middle of a long one), joined once it ends.
            partial.append(rest[: limit - held] if held + len(rest) > limit else rest)
            held += len(partial[-1])
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


def is_file(stream: IO[bytes]) -> bool:
    """Whether input comes from a regular file. From a pipe or a terminal every answer is flushed as it is
    written, since a tool may keep the process open and wait for each; from a file nobody is waiting."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):  # no file descriptor at all (a test's in-memory stream)
        return False
