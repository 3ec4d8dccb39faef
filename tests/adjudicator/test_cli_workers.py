"""``adjudicate --jsonl --workers N``: the same answers in the same order as one process, from a file or a
pipe, and a tool on a pipe that waits for each answer still gets it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from dipserver.adjudicator.batch import chunks as _chunks

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COMMAND = [sys.executable, "-m", "dipserver.adjudicator", "adjudicate", "--jsonl", "--workers"]

OPENING = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"ITALY": ["A ROM", "A VEN"], "AUSTRIA": ["A VIE"]},
    "centers": {"ITALY": ["ROM", "VEN"], "AUSTRIA": ["VIE"]},
}


def _request(orders: list[str]) -> str:
    return json.dumps({**OPENING, "orders": {"ITALY": orders}})


def _batch() -> str:
    """Requests that differ, bad lines among them, and a last line without its newline."""
    lines = []
    for i in range(90):
        lines.append(_request(["A VEN - TRI" if i % 2 else "A VEN - TYR", "A ROM - APU"]))
        if i % 7 == 0:
            lines.extend(["not json", ""])
    return "\n".join(lines)


def _run(workers: str, text: str) -> list[str]:
    done = subprocess.run(
        [*COMMAND, workers], input=text, capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120
    )
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout.splitlines()


def test_workers_on_a_pipe_answer_as_one_process_does() -> None:
    text = _batch()
    alone, shared = _run("1", text), _run("2", text)
    assert shared == alone
    assert len(shared) == text.count("\n") + 1
    assert json.loads(shared[0])["results"]["ITALY"] == {"A VEN - TYR": "success", "A ROM - APU": "success"}
    assert json.loads(shared[1]) == {"error": "not valid JSON: Expecting value: line 1 column 1 (char 0)"}
    assert json.loads(shared[2]) == {"error": "empty request: expected one JSON object"}


def test_a_tool_waiting_on_a_pipe_gets_each_answer_before_sending_the_next() -> None:
    tool = subprocess.Popen(
        [*COMMAND, "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=ENV
    )
    assert tool.stdin is not None and tool.stdout is not None
    try:
        for dest in ("TRI", "TYR"):
            tool.stdin.write(_request([f"A VEN - {dest}"]) + "\n")
            tool.stdin.flush()
            ready, _, _ = select.select([tool.stdout], [], [], 60)
            assert ready, "no answer while the request's pipe stays open"
            answer = json.loads(tool.stdout.readline())
            assert answer["results"]["ITALY"] == {f"A VEN - {dest}": "success"}
    finally:
        tool.stdin.close()
        assert tool.wait(timeout=60) == 0


def test_chunks_hand_out_the_lines_already_there_without_waiting_for_more() -> None:
    read_end, write_end = os.pipe()
    with open(read_end, "rb", buffering=0) as stream:
        chunks = _chunks(stream)
        os.write(write_end, b"one\ntwo\nthr")
        assert next(chunks) == [b"one\n", b"two\n"]  # the pipe is still open: no third line is waited for
        os.write(write_end, b"ee\n" + b"x\n" * 40 + b"last")
        os.close(write_end)
        rest = list(chunks)
    assert [len(c) for c in rest] == [32, 10]
    assert rest[0][0] == b"three\n" and rest[-1][-1] == b"last"


def test_chunks_of_an_in_memory_stream_are_full_but_the_last() -> None:
    lines = [b"%d\n" % i for i in range(70)]
    assert [len(c) for c in _chunks(io.BytesIO(b"".join(lines)))] == [32, 32, 6]


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_a_worker_that_dies_stops_the_batch_with_a_message_instead_of_a_hang() -> None:
    tool = subprocess.Popen(
        [*COMMAND, "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    assert tool.stdin is not None and tool.stdout is not None and tool.stderr is not None
    try:
        tool.stdin.write(_request(["A VEN - TRI"]) + "\n")
        tool.stdin.flush()
        assert json.loads(tool.stdout.readline())["results"]["ITALY"] == {"A VEN - TRI": "success"}
        workers = _children(tool.pid)
        assert len(workers) == 2
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        for _ in range(4):  # whichever worker's turn it is, it is gone
            tool.stdin.write(_request(["A VEN - TYR"]) + "\n")
            tool.stdin.flush()
    except BrokenPipeError:
        pass  # the batch has stopped already
    finally:
        with contextlib.suppress(BrokenPipeError):
            tool.stdin.close()
        try:
            status = tool.wait(timeout=60)
        except subprocess.TimeoutExpired:
            tool.kill()  # the batch hung: leave no process behind for the next test
            raise
    assert status == 1
    assert tool.stdout.read() == ""
    assert "a --workers process" in tool.stderr.read()
