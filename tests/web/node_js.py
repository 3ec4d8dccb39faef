"""The pages' DOM-free script modules (static/js/) run in Node for the tests: ``js_value("press.js",
"press.pressHeading(2)")`` evaluates the expression with the module's exports in scope under its name
and gives its JSON value. Like the browser tests, it skips on a developer's machine without Node and
fails in CI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def js_value(module: str, expression: str) -> Any:
    node = shutil.which("node")
    if node is None:
        problem = "Node.js is not installed (apt-get install -y nodejs)"
        if os.environ.get("CI"):
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)
    name = Path(module).stem
    source = json.dumps((JS / module).as_uri())
    script = f"import * as {name} from {source}; console.log(JSON.stringify({expression}));"
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
