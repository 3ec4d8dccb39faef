"""static/js/test_results.js, run in Node: a variant's tests as they ran in words, and why a run of them
gave no results (throttled, gone, a server failure, no connection)."""

from __future__ import annotations

import pytest

from tests.web.node_js import js_value


def run(expression: str) -> str:
    return str(js_value("test_results.js", f"test_results.{expression}"))


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
