"""Deeply nested JSON (``'[' * 988 + ']' * 988`` and deeper) gets an error answer, never a traceback.

The stdlib's decoder recurses once per level and gives up near the interpreter's recursion limit; orjson
stops at 1,024 levels; ``repr`` of a value in a message gives up near the same limit. None of these may
end the process or, in a batch, stop the lines after it: each line gets its answer or ``{"error": ...}``,
and a single request exits 1 with one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from dipserver.adjudicator import cli
from tests.adjudicator.command_line import ROOT, request

NOT_A_LIST = "a request is a JSON object, not a list"


def lists(depth: int) -> str:
    return "[" * depth + "]" * depth


def objects(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def deep_option(depth: int) -> str:
    """A Wall of Ice request whose ``"options"`` reads fine as JSON but holds a value ``depth`` deep."""
    line = json.dumps({"variant": "wall_of_ice", "phase": "S1901M", "units": {}, "centers": {}, "options": 0})
    return line.replace('"options": 0', f'"options": {{"mode": {lists(depth)}}}')


def run(args: list[str], stdin: str, without_orjson: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if without_orjson:
        code = "import sys; sys.modules['orjson'] = None; from dipserver.adjudicator.cli import main; "
        command = [sys.executable, "-c", code + "sys.exit(main())", *args]
    else:
        command = [sys.executable, "-m", "dipserver.adjudicator", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


# Around 1,000 levels whether the stdlib still reads the text depends on how deep the stack already is;
# either way the answer is an error that says what is wrong. Far deeper, it never reads it.
AROUND_THE_LIMIT = {cli.TOO_DEEP, NOT_A_LIST}


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        (lists(988), AROUND_THE_LIMIT),
        (lists(100_000), {cli.TOO_DEEP}),
        (objects(988), {cli.TOO_DEEP, '"variant" is required: the slug of a variant, such as "standard"'}),
        (objects(100_000), {cli.TOO_DEEP}),
    ],
)
def test_a_single_deeply_nested_request_exits_1_with_one_error_line(text: str, errors: set[str]) -> None:
    done = run(["adjudicate"], text)
    assert done.stderr == ""
    assert done.returncode == 1
    assert done.stdout.count("\n") == 1
    assert json.loads(done.stdout)["error"] in errors


def test_a_single_request_with_a_value_too_deep_to_name_exits_1_with_one_error_line() -> None:
    done = run(["adjudicate"], deep_option(950))  # the stdlib reads 950 levels, repr can name them
    assert (done.stderr, done.returncode, done.stdout.count("\n")) == ("", 1, 1)
    assert json.loads(done.stdout)["error"].startswith('"options": ')


def batch_lines() -> list[str]:
    good = [json.dumps(request(orders={"FRANCE": [order]})) for order in ("A PAR - BUR", "A PAR - PIC")]
    return [good[0], lists(988), lists(100_000), objects(5_000), deep_option(1_000), good[1]]


def answered(done: subprocess.CompletedProcess[str], lines: list[str]) -> list[dict[str, Any]]:
    """Every line's answer, after checking the batch ran to its end and said nothing on stderr."""
    assert done.stderr == ""
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["results"] == {"FRANCE": {"A PAR - BUR": "success"}}
    assert answers[-1]["results"] == {"FRANCE": {"A PAR - PIC": "success"}}
    return answers


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_answers_every_line_around_deeply_nested_ones(workers: str) -> None:
    lines = batch_lines()
    answers = answered(run(["adjudicate", "--jsonl", "--workers", workers], "\n".join(lines) + "\n"), lines)
    # orjson reads 988 levels (the request is then a list); deeper, it and the stdlib both give up; the
    # options value is read, but too deep for the engine to name in its message.
    assert answers[1:-1] == [
        {"error": NOT_A_LIST},
        {"error": cli.TOO_DEEP},
        {"error": cli.TOO_DEEP},
        {"error": cli.TOO_DEEP_VALUE},
    ]


def test_a_batch_without_orjson_answers_every_line_around_deeply_nested_ones() -> None:
    lines = batch_lines()
    answers = answered(run(["adjudicate", "--jsonl"], "\n".join(lines) + "\n", without_orjson=True), lines)
    assert answers[1]["error"] in AROUND_THE_LIMIT
    assert [answer["error"] for answer in answers[2:-1]] == [cli.TOO_DEEP] * 3


def test_answer_text_turns_the_decoders_recursion_into_an_error() -> None:
    assert cli.answer_text(lists(100_000).encode()) == {"error": cli.TOO_DEEP}
    assert cli.answer_text(objects(100_000)) == {"error": cli.TOO_DEEP}
