"""``--jsonl --workers N`` reads its input in pieces (``batch.chunks``); its work must be linear in the
input however long a line is. A 32 MB line used to take 8.9 s against 0.26 s in one process: every piece
read was added to the unfinished line and the whole line split again, so the bytes copied grew with the
square of the line's length.

Rather than time anything, these tests hand ``_chunks`` its input as pieces that count the bytes each
operation on them (or on what is made from them) goes over, and bound that count by a small multiple of
the input's size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, SupportsIndex

import pytest

from dipserver.adjudicator import batch
from dipserver.adjudicator.codec import MAX_REQUEST


class Counter:
    touched = 0


class Piece(bytes):
    """Bytes that count how many bytes every operation on them reads; what an operation makes from a piece
    (a concatenation, a slice, the parts of a split) is a piece too, so a rescan of it counts as well."""

    counter: Counter

    def _made(self, data: bytes, read: int) -> Piece:
        self.counter.touched += read
        made = Piece(data)
        made.counter = self.counter
        return made

    def __add__(self, other: Any) -> Piece:
        return self._made(bytes(self) + bytes(other), len(self) + len(other))

    def __radd__(self, other: Any) -> Piece:
        return self._made(bytes(other) + bytes(self), len(self) + len(other))

    def __getitem__(self, key: Any) -> Any:  # a slice copies what it takes
        part = bytes(self)[key]
        return self._made(part, len(part)) if isinstance(key, slice) else part

    def split(self, sep: Any = None, maxsplit: SupportsIndex = -1) -> list[bytes]:
        self.counter.touched += len(self)
        return [self._made(part, 0) for part in bytes(self).split(sep, maxsplit)]

    def find(self, *args: Any) -> int:
        self.counter.touched += len(self)
        return bytes(self).find(*args)

    def rfind(self, *args: Any) -> int:
        self.counter.touched += len(self)
        return bytes(self).rfind(*args)

    def index(self, *args: Any) -> int:
        self.counter.touched += len(self)
        return bytes(self).index(*args)


def pieces(data: bytes, size: int, counter: Counter) -> Iterator[Piece]:
    for start in range(0, len(data), size):
        piece = Piece(data[start : start + size])
        piece.counter = counter
        yield piece


def chunked(data: bytes, size: int, tmp_path: Path) -> tuple[list[bytes], int]:
    """Every line ``_chunks`` hands out for ``data`` read ``size`` bytes at a time, and the bytes touched."""
    counter = Counter()
    given = pieces(data, size, counter)

    def read(fd: int, wanted: int) -> bytes:
        return next(given, b"")

    source = tmp_path / "input"  # a real file for select() to look at; the bytes come from ``read``
    source.write_bytes(b"")
    with source.open("rb") as stream:
        lines = [line for chunk in batch.chunks(stream, read) for line in chunk]
    return lines, counter.touched


@pytest.mark.parametrize(
    "lines",
    [
        [b"x" * 2_000_000 + b"\n"],  # one long line
        [b"x" * 1_000_000 + b"\n", b"short\n", b"y" * 1_000_000 + b"\n"],
        [b"x" * 2_000_000],  # the last line without its newline
        [b"%d\n" % n for n in range(100_000)],  # many short lines
    ],
    ids=["one long line", "long, short, long", "no newline at the end", "many short lines"],
)
def test_the_work_of_chunking_is_linear_in_the_input(lines: list[bytes], tmp_path: Path) -> None:
    data = b"".join(lines)
    got, touched = chunked(data, 4096, tmp_path)
    # A line longer than a request may be is cut a byte past the limit: its answer says it is too large.
    kept = MAX_REQUEST + 1
    assert [line.rstrip(b"\n") for line in got] == [line.rstrip(b"\n")[:kept] for line in lines]
    assert all(line.endswith(b"\n") for line in got[:-1])
    # Each piece is split once and each line given its newline once (twice the input at most); the old
    # way went over a 2 MB line's bytes 250 to 500 times.
    assert touched <= 5 * len(data)


def test_the_counting_pieces_see_a_quadratic_reader(tmp_path: Path) -> None:
    """The check itself: the old way of adding each piece to the line so far is counted as quadratic."""
    counter = Counter()
    pending: bytes = b""
    for data in pieces(b"x" * 400_000, 4096, counter):
        *_, pending = (pending + data).split(b"\n")
    assert counter.touched > 20 * 400_000


def test_a_long_line_through_two_workers_gets_its_answer() -> None:
    """End to end, the same answer one process gives, for a line of 4 MB (from a pipe and a file)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    line = b'{"variant": "standard", "phase": "S1901M", "units": {}, "centers": {}, "pad": "'
    line += b"x" * (4 << 20) + b'"}\n'
    answers = {
        workers: subprocess.run(
            [sys.executable, "-m", "dipserver.adjudicator", "adjudicate", "--jsonl", "--workers", workers],
            input=line,
            capture_output=True,
            cwd=root,
            env=env,
            timeout=120,
            check=True,
        ).stdout
        for workers in ("1", "2")
    }
    assert answers["2"] == answers["1"]
    assert answers["1"] == b'{"error":"request too large: a request is at most 1,048,576 bytes of JSON"}\n'


def test_a_long_variant_name_is_an_unknown_variant_not_an_internal_error() -> None:
    from tests.adjudicator.command_line import adjudicate, request

    answer = adjudicate(request(variant="x" * 100_000))
    assert answer["error"].startswith("unknown or broken variant 'xxx")
    assert "no such variant folder" in answer["error"]
