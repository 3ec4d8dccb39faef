"""What a one-request command line run loads: only what the request needs (docs/engine.md, "JSON, start-up
and exit"). A standard request plays no rule module, reads no timeline file, draws nothing at random and
takes the plain arguments, so the modules for those stay unloaded; a game that switches a module on loads
it then. The set of modules is read from the process's ``sys.modules`` once it has answered:
deterministic, unlike a timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.adjudicator.command_line import OPENING_CENTRES, OPENING_UNITS, ROOT

# Loaded only by a request that needs them (the face of the engine, ``dipserver/engine/__init__.py``,
# only by a caller that asks it for a name).
NOT_FOR_A_PLAIN_REQUEST = (
    "argparse",  # the plain forms of adjudicate and options are read without it
    "tomllib",  # the standard map has no timeline file
    "secrets",  # no random draw (randomness: hashlib, hmac, secrets)
    "dipserver.engine.randomness",
    "dipserver.engine.conditions",  # a timeline file's conditions
    "dipserver.engine.modules.blizzard",
    "dipserver.engine.modules.dice",
    "dipserver.engine.modules.screen",
    "dipserver.engine.modules.starvation",
    "dipserver.engine.modules.supply",
    "dipserver.engine.icelords",  # generated boards (networkx)
    "networkx",
    "dipserver.engine.checks",
    # The retreat and adjustment phases' orders and kinds (a standard movement phase disbands no unit).
    "dipserver.engine.lateorders",
    "dipserver.engine.kinds.retreat",
    "dipserver.engine.kinds.disband",
    "dipserver.engine.kinds.build",
    "dipserver.engine.kinds.waive",
    # The phase's values of what it decided of each order (the answer is made from their rows).
    "dipserver.engine.played",
    # The values of a dislodged unit and of a convoy route (the request has neither).
    "dipserver.engine.dislodged",
    "dipserver.engine.resolver.route",
    # The Abstraction A/F rules' orders, their kinds and their options (the rules are off).
    "dipserver.engine.ferryorders",
    "dipserver.engine.kinds.boarding",
    "dipserver.engine.modules.abstraction",
    # The map's fix-ups after a timeline's changes (the standard map has no timeline file).
    "dipserver.engine.fixups",
    # The values of a game's end (the request ends no game).
    "dipserver.engine.ending",
)


def _request(**fields: Any) -> str:
    return json.dumps(
        {"variant": "standard", "phase": "S1901M", "units": OPENING_UNITS, "centers": OPENING_CENTRES}
        | {"orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}}
        | fields
    )


def _imported(command: str, request: str) -> set[str]:
    """Every module a fresh process loads to answer ``request`` with ``command`` (``cli.main``, as
    ``python -m dipserver.adjudicator COMMAND`` runs it), by name."""
    code = (
        "import io, json, sys\n"
        "from dipserver.adjudicator.cli import main\n"
        "out = io.StringIO()\n"
        f"status = main([{command!r}], sys.stdin.buffer, out)\n"
        "print(json.dumps({'status': status, 'answer': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DIPSERVER_ORDER_KINDS": ""}
    argv = [sys.executable, "-c", code]
    done = subprocess.run(argv, input=request, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["status"] == 0 and "error" not in json.loads(run["answer"])
    return set(run["modules"])


@pytest.mark.parametrize("command", ["adjudicate", "options"])
def test_a_standard_request_loads_nothing_it_does_not_need(command: str) -> None:
    imported = _imported(command, _request())
    assert sorted(imported & set(NOT_FOR_A_PLAIN_REQUEST)) == []


def test_a_game_that_switches_a_rule_module_on_loads_it() -> None:
    imported = _imported("adjudicate", _request(options={"supply_lines": True}))
    assert "dipserver.engine.modules.supply" in imported
    assert "dipserver.engine.modules.blizzard" not in imported


def test_importing_an_engine_module_does_not_read_the_engines_face() -> None:
    """``from dipserver.engine import timeline`` asks the package's ``__getattr__`` first; the face's
    table (parsed from ``dipserver/engine/__init__.py``) is read only for a face name."""
    code = (
        "import dipserver.engine as engine\n"
        "from dipserver.engine import timeline\n"
        "print(engine._IMPORTS is None)\n"
        "engine.Phase\n"
        "print(engine._IMPORTS is None)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["True", "False"]
