"""``adjudicate --jsonl --workers N``: chunks of independent requests answered by forked processes.

Each worker reads chunks of request lines from a pipe of its own and writes their answers to another, each
chunk one frame (its length, then its bytes): bytes in, bytes out, nothing pickled. The calling thread hands
the chunks out in turn as they are read; one more thread reads the answers back in the order the chunks
went out and writes them, so a tool on a pipe that waits for an answer gets it as soon as its chunk is done.

Neither side can wait on the other in a circle: a worker answers its chunks in the order it got them, and
the answers are read in that same order, so the chunk whose answer is awaited is always one its worker has
or will come to. Should the output fail (the reader went away) the workers are stopped, which frees the
thread handing out chunks; should a worker die, the batch stops with ``WorkerError`` rather than wait.

The answerer is built before the fork, so the workers share its pages (the engine, the variant, the lane's
tables), and what start-up built is frozen out of their collectors' reach, which would otherwise copy it.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
from collections.abc import Callable, Iterable
from queue import SimpleQueue
from typing import Protocol

_HEADER = 8  # bytes of a frame's length, little-endian


class Output(Protocol):
    """What the answers are written to: a binary stream, or the command line's ``_TextWriter``."""

    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...


class WorkerError(RuntimeError):
    """A worker process stopped before it answered every chunk it was given."""


class _Worker:
    """One forked process and the parent's ends of its two pipes."""

    def __init__(self, pid: int, requests: int, answers: int) -> None:
        self.pid, self.requests, self.answers = pid, requests, answers

    @classmethod
    def start(cls, answer_line: Callable[[bytes], bytes], inherited: list[int]) -> _Worker:
        down_read, down_write = os.pipe()
        up_read, up_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                # The parent's ends of the pipes, this worker's and the earlier workers'.
                for fd in (down_write, up_read, *inherited):
                    os.close(fd)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
                _serve(down_read, up_write, answer_line)
                status = 0
            finally:
                os._exit(status)
        os.close(down_read)
        os.close(up_write)
        inherited += (down_write, up_read)
        return cls(pid, down_write, up_read)

    def send(self, lines: list[bytes]) -> None:
        chunk = b"".join(lines)
        _write_all(self.requests, len(chunk).to_bytes(_HEADER, "little") + chunk)

    def receive(self) -> bytes:
        head = _read_exactly(self.answers, _HEADER)
        if len(head) == _HEADER:
            size = int.from_bytes(head, "little")
            body = _read_exactly(self.answers, size)
            if len(body) == size:
                return body
        raise WorkerError(f"a --workers process (pid {self.pid}) stopped before answering its requests")

    def finish(self) -> None:
        """No more requests: the worker answers what it has, then leaves."""
        _close(self.requests)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def reap(self) -> None:
        _close(self.answers)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def answer_in_parallel(
    chunks: Iterable[list[bytes]],
    out: Output,
    workers: int,
    flush: bool,
    answer_line: Callable[[bytes], bytes],
) -> None:
    """Write the answers to every chunk's lines (``answer_line`` of each) in input order."""
    gc.freeze()
    inherited: list[int] = []
    pool = [_Worker.start(answer_line, inherited) for _ in range(workers)]  # before any thread starts
    order: SimpleQueue[_Worker | None] = SimpleQueue()
    failed: list[BaseException] = []
    writer = threading.Thread(target=_write_answers, args=(order, out, flush, pool, failed), daemon=True)
    writer.start()
    stopped: WorkerError | None = None
    try:
        for n, chunk in enumerate(chunks):
            if failed:
                break
            worker = pool[n % workers]
            try:
                worker.send(chunk)
            except BrokenPipeError:
                stopped = WorkerError(f"a --workers process (pid {worker.pid}) stopped before its requests")
                break
            order.put(worker)
    finally:
        for worker in pool:
            worker.finish()
        order.put(None)
        writer.join()
        for worker in pool:
            worker.reap()
    if failed:
        raise failed[0]  # the output's error (BrokenPipeError: the reader went away), or a worker's
    if stopped is not None:
        raise stopped


def _write_answers(
    order: SimpleQueue[_Worker | None],
    out: Output,
    flush: bool,
    pool: list[_Worker],
    failed: list[BaseException],
) -> None:
    try:
        while (worker := order.get()) is not None:
            out.write(worker.receive())
            if flush:
                out.flush()
    except BaseException as exc:  # the output or a worker failed: nothing more can be answered in order
        failed.append(exc)
        for other in pool:
            other.stop()


def _serve(requests: int, answers: int, answer_line: Callable[[bytes], bytes]) -> None:
    """The worker's loop: a chunk in, its answers out, until the parent has no more.

    As in one process (``cli._adjudicate_lines``), the first answers build what lives as long as the worker
    (the variant, the lane's tables), with the collector off; that is then frozen out of its reach, or
    every full collection would walk it again."""
    collector, first = gc.isenabled(), True
    gc.disable()
    while True:
        head = _read_exactly(requests, _HEADER)
        if len(head) < _HEADER:
            return
        chunk = _read_exactly(requests, int.from_bytes(head, "little"))
        # The lines as they came, each with its newline (a last line of the input may have none): a parse
        # error's message counts lines and columns.
        lines = chunk.split(b"\n")
        last = lines.pop()
        replies = [answer_line(line + b"\n") for line in lines]
        if last:
            replies.append(answer_line(last))
        body = b"".join(replies)
        _write_all(answers, len(body).to_bytes(_HEADER, "little") + body)
        if first:
            first = False
            gc.freeze()
            if collector:
                gc.enable()


def _read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes, or fewer only where the pipe ends first."""
    parts: list[bytes] = []
    while size:
        data = os.read(fd, min(size, 1 << 20))
        if not data:
            break
        parts.append(data)
        size -= len(data)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
