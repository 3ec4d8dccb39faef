"""static/js/test_results.js, run in Node: a variant's tests as they ran in words, and why a run of them
gave no results (throttled, gone, a server failure, no connection)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parents[2] / "static" / "js" / "test_results.js"
NODE = shutil.which("node")


def run(expression: str) -> str:
    if NODE is None:  # like the browser tests: skipped on a developer's machine, a failure in CI
        problem = "Node.js is not installed (apt-get install -y nodejs)"
        if os.environ.get("CI"):
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)
    module = json.dumps(RESULTS.as_uri())
    script = f"import {{ runRefused, testsSummary }} from {module}; console.log({expression});"
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_summary_counts_the_tests_that_pass_and_fail():
    passed, failed = '{"passed": true, "failures": []}', '{"passed": false, "failures": ["x"]}'
    assert run(f"testsSummary([{passed}, {passed}])") == "2 of 2 test(s) pass"
    assert run(f"testsSummary([{passed}, {failed}, {failed}])") == "1 of 3 test(s) pass; 2 fail"


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (
            '{status: 429, message: "Request was throttled.", retryAfter: 42}',
            "Not run: too many test runs for now (each one plays its cases on the server). "
            "Try again in 42 s.",
        ),
        (
            '{status: 429, message: "Request was throttled.", retryAfter: null}',
            "Not run: too many test runs for now (each one plays its cases on the server). "
            "Try again in a minute.",
        ),
        (
            '{status: 404, message: "There is no published variant version 9"}',
            "Not run: There is no published variant version 9",
        ),
        (
            '{status: 500, message: "The server answered 500."}',
            "The tests could not be run: the server failed (The server answered 500.). Try again later.",
        ),
        (
            'new TypeError("Failed to fetch")',
            "The tests could not be run: the server could not be reached. "
            "Check the connection and try again.",
        ),
    ],
    ids=["throttled", "throttled-no-wait", "gone", "server-error", "offline"],
)
def test_a_run_that_gave_no_results_says_why(error, words):
    assert run(f"runRefused({error})") == words
