"""An order kind defined outside the engine's modules takes part in a phase everywhere, from its one module.

The scorched-earth kind (``kinds_outside/scorched_earth.py``: ``A PAR scorches``, the unit holds and burns
its centre) is read, offered, adjudicated, applied, recorded and drawn in process; the command line plays
it, compiled and from its sources alike, once ``DIPSERVER_ORDER_KINDS`` names its module; the server's
test is ``tests/api/test_kind_from_outside.py``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dipserver.engine.kinds.registry import drawing_of, kinds, register, unregister
from dipserver.engine.options import legal_options
from dipserver.engine.parse import parse_order
from dipserver.engine.turn import play_phase
from dipserver.engine.types import Phase, Unit, UnitType
from dipserver.engine.variant import Variant, load_variant

OUTSIDE = Path(__file__).resolve().parent / "kinds_outside"
ROOT = Path(__file__).resolve().parents[2]


def load_scorch() -> ModuleType:
    """The scorched-earth module, its kind registered (again, after an earlier test took it out)."""
    if str(OUTSIDE) not in sys.path:
        sys.path.insert(0, str(OUTSIDE))
    module = importlib.import_module("scorched_earth")
    if module.Scorch not in kinds():
        register(module.KIND)
    return module


@pytest.fixture
def scorch() -> Iterator[ModuleType]:
    module = load_scorch()
    try:
        yield module
    finally:
        unregister(module.KIND)


@pytest.fixture(scope="module")
def standard() -> Variant:
    return load_variant("standard")


def test_the_kind_is_read_and_offered_from_its_own_module(scorch: ModuleType, standard: Variant) -> None:
    board, start = _board(standard), standard.start
    assert parse_order("A PAR scorches", board, start, "FRANCE") == scorch.Scorch("PAR")
    offered = legal_options(board, start, "FRANCE").units["PAR"]
    assert offered[-1].to_data() == {"text": "A PAR scorches", "kind": "scorch", "unit": "PAR"}
    assert all(
        o.order != scorch.Scorch("BUR")
        for os in legal_options(board, start, "FRANCE").units.values()
        for o in os
    )


def test_the_kinds_option_carries_its_own_drawing(scorch: ModuleType, standard: Variant) -> None:
    """What the page draws the option by: the kind's ``drawing`` of the order's record, its mark."""
    offered = legal_options(_board(standard), standard.start, "FRANCE").to_data()["units"]["PAR"]
    assert offered[-1]["drawing"] == {
        "shape": "mark",
        "start": "PAR",
        "end": None,
        "via": None,
        "label": "Scorch",
        "dislodged": False,
        "unit": None,
        "words": "scorched",
    }


def test_a_standing_unit_burns_its_centre(scorch: ModuleType, standard: Variant) -> None:
    turn = play_phase(standard, standard.map_state, standard.start, {"FRANCE": ["A PAR scorches"]})
    [record] = [r for r in turn.results if r["power"] == "FRANCE"]
    assert (record["kind"], record["outcome"], record["text"]) == ("scorch", "success", "A PAR scorches")
    assert "PAR" not in turn.map_state.supply_centres and "PAR" not in turn.map_state.homes
    assert "PAR" not in turn.position.owners
    assert turn.events[0] == {"kind": "centre_lost", "province": "PAR", "owner": "FRANCE"}
    assert drawing_of(record).words == "scorched"


def test_a_dislodged_unit_burns_nothing(scorch: ModuleType, standard: Variant) -> None:
    units = {
        "PAR": Unit("FRANCE", UnitType.ARMY, "PAR"),
        "BUR": Unit("GERMANY", UnitType.ARMY, "BUR"),
        "PIC": Unit("GERMANY", UnitType.ARMY, "PIC"),
    }
    position = replace(standard.start, units=units, phase=Phase.parse("S1901M"))
    orders = {"FRANCE": ["A PAR scorches"], "GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]}
    turn = play_phase(standard, standard.map_state, position, orders)
    [record] = [r for r in turn.results if r["power"] == "FRANCE"]
    assert (record["kind"], record["outcome"], record["dislodged"]) == ("scorch", "void", True)
    assert "PAR" in turn.map_state.supply_centres and not turn.events


@pytest.mark.parametrize("native", ["1", "0"], ids=["compiled", "sources"])
def test_the_command_line_plays_the_kind_its_variable_names(native: str) -> None:
    answer = _adjudicate(_request(), native=native, kinds="scorched_earth")
    assert answer["results"]["FRANCE"] == {"A PAR scorches": "success", "F BRE - MAO": "success"}
    assert "PAR" not in answer["next"]["centers"]["FRANCE"]
    assert [e["text"] for e in answer["events"]] == ["PAR stops being a supply centre (was FRANCE)"]


def test_both_builds_answer_alike() -> None:
    assert _adjudicate(_request(), "1", "scorched_earth") == _adjudicate(_request(), "0", "scorched_earth")


def test_without_the_variable_the_order_is_refused_with_a_reason() -> None:
    answer = _adjudicate(_request(), native="1", kinds="")
    assert answer["results"]["FRANCE"]["A PAR scorches"] == "invalid"
    assert answer["reasons"]["FRANCE"]["A PAR scorches"]


def test_a_kind_module_that_cannot_be_loaded_is_named() -> None:
    done = _run(_request(), native="1", kinds="no_such_kinds")
    assert done.returncode != 0
    assert "DIPSERVER_ORDER_KINDS: cannot load the order kinds of 'no_such_kinds'" in done.stderr


def _board(variant: Variant) -> Any:
    from dipserver.engine.board import board_for

    return board_for(variant, variant.map_state)


def _request() -> dict[str, Any]:
    return {
        "variant": "standard",
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "F BRE"]},
        "centers": {"FRANCE": ["PAR", "BRE", "MAR"]},
        "orders": {"FRANCE": ["A PAR scorches", "F BRE - MAO"]},
    }


def _run(request: dict[str, Any], native: str, kinds: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DIPSERVER_NATIVE": native,
        "DIPSERVER_ORDER_KINDS": kinds,
        "PYTHONPATH": os.pathsep.join([str(OUTSIDE), str(ROOT)]),
    }
    return subprocess.run(
        [sys.executable, "-m", "dipserver.adjudicator", "adjudicate"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def _adjudicate(request: dict[str, Any], native: str, kinds: str) -> dict[str, Any]:
    done = _run(request, native, kinds)
    assert done.returncode == 0, done.stderr[-2000:]
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer
