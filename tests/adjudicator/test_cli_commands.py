"""The command line beyond one request, as other tools see it (a subprocess): the batch (``adjudicate
--jsonl``), ``check``, ``timeline`` and ``map``, and ``python -m dipserver.engine``, its old name.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

from tests.adjudicator.command_line import ROOT, request, run

# --- the batch ---------------------------------------------------------------------------------------------


def test_jsonl_answers_every_line_in_order_and_a_bad_line_does_not_stop_the_batch() -> None:
    lines = [
        json.dumps(request(orders={"FRANCE": ["A PAR - BUR"]})),
        "{this is not json",
        json.dumps(request(orders={"ATLANTIS": []})),
        "",
        json.dumps(request(orders={"GERMANY": ["A MUN - BUR"]})),
    ]
    done = run("adjudicate", "--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0
    assert done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["results"] == {"FRANCE": {"A PAR - BUR": "success"}}
    assert answers[1]["error"].startswith("not valid JSON")
    assert "ATLANTIS" in answers[2]["error"]
    assert "empty" in answers[3]["error"]
    assert answers[4]["results"] == {"GERMANY": {"A MUN - BUR": "success"}}


def test_a_tool_can_keep_the_batch_open_and_wait_for_each_answer() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dipserver.adjudicator", "adjudicate", "--jsonl"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for orders in (["A PAR - BUR"], ["A PAR - PIC"]):
            proc.stdin.write((json.dumps(request(orders={"FRANCE": orders})) + "\n").encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no answer while the batch is still open"
            answer = json.loads(proc.stdout.readline())
            assert answer["results"] == {"FRANCE": {orders[0]: "success"}}
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


# --- check -------------------------------------------------------------------------------------------------


def test_check_passes_the_standard_variant() -> None:
    done = run("check", "standard", stdin="")
    assert done.returncode == 0, done.stdout
    assert "standard: checked" in done.stdout
    assert "no problems" in done.stdout


def test_check_reports_an_unknown_variant() -> None:
    done = run("check", "atlantis", stdin="")
    assert done.returncode == 1
    assert "atlantis" in done.stdout
    assert done.stderr == ""


def test_check_walks_a_mutating_variant_through_its_timeline() -> None:
    done = run("check", "sahara", stdin="")
    assert done.returncode == 0, done.stdout
    assert "sahara: checked the start map and the map after each of" in done.stdout


def test_check_asks_for_a_secret_in_random_mode() -> None:
    done = run("check", "wall_of_ice", "--mode", "random", stdin="")
    assert done.returncode == 1
    assert "--seed" in done.stdout


# --- timeline and map ----------------------------------------------------------------------------------


def test_timeline_lists_the_changes_season_by_season() -> None:
    done = run("timeline", "wall_of_ice", stdin="")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "1903 after the Autumn retreats:"
    assert "  BAR becomes impassable" in lines
    assert run("timeline", "standard", stdin="").stdout == "standard: the map never changes\n"


def test_the_same_seed_gives_the_same_random_timeline() -> None:
    first = run("timeline", "wall_of_ice", "--mode", "random", "--seed", "game-42", stdin="")
    again = run("timeline", "wall_of_ice", "--mode", "random", "--seed", "game-42", stdin="")
    assert first.returncode == 0
    assert first.stdout == again.stdout


def test_an_unknown_variant_option_is_refused() -> None:
    done = run("timeline", "sahara", "--option", "snow=true", stdin="")
    assert done.returncode == 1
    assert "snow" in done.stdout and "errata" in done.stdout


def test_map_of_a_phase_as_json() -> None:
    done = run("map", "wall_of_ice", "--at", "S1905M", stdin="")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["phase"] == "S1905M"
    assert data["provinces"]["BAR"]["terrain"] == "impassable"  # frozen after the Autumn of 1903
    assert data["provinces"]["STP"]["coasts"] == ["NC", "SC"]
    assert data["provinces"]["LON"] == {
        "terrain": "land",
        "coasts": [],
        "sc": True,
        "owner": "ENGLAND",
        "home": "ENGLAND",
    }
    start = json.loads(run("map", "wall_of_ice", "--at", "S1901M", stdin="").stdout)
    assert start["provinces"]["BAR"]["terrain"] == "sea"


def test_map_of_a_bad_phase_is_an_error() -> None:
    done = run("map", "standard", "--at", "Spring", stdin="")
    assert done.returncode == 1
    assert "not a phase name" in json.loads(done.stdout)["error"]


# --- the old name ---------------------------------------------------------------------------------------


def test_the_old_command_python_m_dipserver_engine_is_the_same_command_line() -> None:
    """Bot researchers' tools run ``python -m dipserver.engine``: same answers, same exit status."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    good = json.dumps(request(orders={"FRANCE": ["A PAR - BUR"]}))
    cases = [
        (["adjudicate"], good),
        (["adjudicate"], "{not json"),
        (["adjudicate", "--jsonl"], f"{good}\n\n{good}\n"),
        (["timeline", "standard"], ""),
        (["map", "standard", "--at", "NOPE"], ""),
    ]
    for args, stdin in cases:
        new, old = (
            subprocess.run(
                [sys.executable, "-m", module, *args],
                input=stdin,
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=env,
                timeout=60,
            )
            for module in ("dipserver.adjudicator", "dipserver.engine")
        )
        assert (old.returncode, old.stdout, old.stderr) == (new.returncode, new.stdout, new.stderr), args
        assert new.stdout
    assert new.returncode != 0  # the last case fails, and the old name says so too


def test_check_runs_the_variants_own_tests(tmp_path) -> None:
    done = run("check", "sahara", stdin="")
    assert done.returncode == 0 and "sahara: 7 of 7 test(s) passed" in done.stdout


def test_check_fails_a_variant_whose_test_fails(tmp_path) -> None:
    (tmp_path / "mine" / "tests").mkdir(parents=True)
    (tmp_path / "mine" / "variant.toml").write_text('base = "standard"\nname = "Mine"\n')
    (tmp_path / "mine" / "tests" / "scenarios.toml").write_text(
        '[[scenarios]]\nname = "Paris holds"\nunits = { FRANCE = ["A PAR"] }\n'
        'orders = { FRANCE = ["A PAR - BUR"] }\nexpect = { units = { FRANCE = ["A PAR"] } }\n'
    )
    (tmp_path / "standard").symlink_to(ROOT / "variants" / "standard")
    done = run("check", str(tmp_path / "mine"), stdin="")
    assert done.returncode == 1
    assert "mine: test failed: Paris holds: FRANCE's units are A BUR, not A PAR" in done.stdout
    assert "mine: 0 of 1 test(s) passed" in done.stdout
