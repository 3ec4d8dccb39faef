"""static/js/words.js, run in Node: the game page's sentences about orders just sent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

WORDS = Path(__file__).resolve().parents[2] / "static" / "js" / "words.js"
NODE = shutil.which("node")


def saved_words(rejected: int, total: int) -> str:
    if NODE is None:  # like the browser tests: skipped on a developer's machine, a failure in CI
        problem = "Node.js is not installed (apt-get install -y nodejs)"
        if os.environ.get("CI"):
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)
    module = json.dumps(WORDS.as_uri())
    script = f"import {{ savedWords }} from {module}; console.log(savedWords({rejected}, {total}));"
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("rejected", "total", "words"),
    [
        (0, 3, "Orders saved."),
        (1, 1, "The order was rejected: see why below."),
        (2, 2, "All 2 orders were rejected: see why below."),
        (1, 3, "1 of 3 orders was rejected (see why below); the other 2 are saved."),
        (2, 3, "2 of 3 orders were rejected (see why below); the other one is saved."),
    ],
)
def test_the_notice_after_sending_orders_claims_only_what_was_saved(rejected, total, words):
    assert saved_words(rejected, total) == words
