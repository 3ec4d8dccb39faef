"""How the command line's tests call it: ``python -m dipserver.adjudicator ...`` in a subprocess from the
repository root, and the requests they send (the standard opening, with whatever fields a case changes).

Shared by test_cli_adjudicate.py and test_cli_commands.py; test_cli_json, _long_lines and _nesting use it too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

OPENING_UNITS = {
    "AUSTRIA": ["A BUD", "A VIE", "F TRI"],
    "ENGLAND": ["A LVP", "F EDI", "F LON"],
    "FRANCE": ["A MAR", "A PAR", "F BRE"],
    "GERMANY": ["A BER", "A MUN", "F KIE"],
    "ITALY": ["A ROM", "A VEN", "F NAP"],
    "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC"],
    "TURKEY": ["A CON", "A SMY", "F ANK"],
}
OPENING_CENTRES = {
    "AUSTRIA": ["BUD", "TRI", "VIE"],
    "ENGLAND": ["EDI", "LON", "LVP"],
    "FRANCE": ["BRE", "MAR", "PAR"],
    "GERMANY": ["BER", "KIE", "MUN"],
    "ITALY": ["NAP", "ROM", "VEN"],
    "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
    "TURKEY": ["ANK", "CON", "SMY"],
}


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dipserver.adjudicator", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)


def python(*argv: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    """``python ARGV`` from the repository root, bytes in and out; a failure fails the test."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, *argv]
    return subprocess.run(
        command, input=stdin, capture_output=True, cwd=ROOT, env=env, timeout=120, check=True
    )


def adjudicate(request: dict[str, Any] | str) -> dict[str, Any]:
    """One request through the command line; its answer (stderr must stay empty: never a traceback)."""
    text = request if isinstance(request, str) else json.dumps(request)
    done = run("adjudicate", stdin=text)
    assert done.stderr == ""
    answer = json.loads(done.stdout)
    assert done.returncode == (1 if "error" in answer else 0)
    return answer


def request(phase: str = "S1901M", **fields: Any) -> dict[str, Any]:
    data = {"variant": "standard", "phase": phase, "units": OPENING_UNITS, "centers": OPENING_CENTRES}
    return {**data, **fields}
