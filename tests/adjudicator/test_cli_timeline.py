"""``adjudicate`` on the variants whose map changes, and ``check``'s problems against its notes.

A request may carry the game's ``options``, the phase's ``map`` (as ``map --at`` prints it), Sahara's
``stay_flags`` and Deluge's ``last_occupants``; the answer lists the map changes under ``events`` and its
``next`` carries the changed map, so ``next`` plus orders is again a valid request.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from dipserver.adjudicator.cli import answer_text
from dipserver.engine.chronicle import map_at
from dipserver.engine.types import Terrain
from dipserver.engine.validate import notes, validate
from dipserver.engine.variant import load_variant

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dipserver.adjudicator", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)


def adjudicate(data: dict[str, Any]) -> dict[str, Any]:
    return answer_text(json.dumps(data))


def test_an_iceberg_removes_a_fleet_and_next_carries_the_frozen_map() -> None:
    answer = adjudicate(
        {
            "variant": "wall_of_ice",
            "phase": "F1903M",
            "units": {"RUSSIA": ["F BAR", "A MOS", "A WAR", "A SEV"]},
            "centers": {"RUSSIA": ["MOS", "WAR", "SEV", "RUM"]},
            "orders": {"RUSSIA": ["F BAR H"]},
        }
    )
    assert answer["results"] == {"RUSSIA": {"F BAR H": "success"}}
    assert answer["skipped"] == ["F1903R"]
    texts = [e["text"] for e in answer["events"]]
    assert "BAR becomes impassable" in texts
    assert "F BAR (RUSSIA) is removed: BAR became impassable" in texts
    assert answer["outcome"] is None
    following = answer["next"]
    assert following["phase"] == "W1903A"  # the removal gave Russia a build: the Winter is played
    assert following["map"]["provinces"]["BAR"]["terrain"] == "impassable"
    assert following["map"]["provinces"]["STP"]["sc"] is False
    # next + orders is the following request, on the changed map.
    winter = adjudicate({**following, "orders": {"RUSSIA": ["A STP B", "F SEV B"]}})
    assert winter["results"]["RUSSIA"]["F SEV B"] == "invalid"  # an army stands there
    assert winter["results"]["RUSSIA"]["A STP B"] == "invalid"  # not a centre any more
    assert winter["next"]["phase"] == "S1904M"


def test_the_start_map_is_assumed_and_a_map_from_map_at_is_accepted() -> None:
    variant = load_variant("sahara")
    request = {
        "variant": "sahara",
        "phase": "S1903M",
        "units": {"TURKEY": ["F EAS", "A CON"]},
        "centers": {"TURKEY": ["CON", "SMY", "ANK"]},
        "map": map_at(variant, "S1903M", {}),
        "orders": {"TURKEY": ["F EAS H", "F EAS stays fleet"]},
    }
    answer = adjudicate(request)
    assert answer["results"]["TURKEY"] == {"F EAS H": "success", "F EAS stays fleet": "success"}
    assert any(e["kind"] == "unit_removed" and e["unit"] == "F EAS" for e in answer["events"])
    assert answer["next"]["units"]["TURKEY"] == ["A CON"]
    without = adjudicate({**request, "orders": {"TURKEY": ["F EAS H"]}})
    assert without["next"]["units"]["TURKEY"] == ["A CON", "A EAS"]


def test_conversion_orders_and_variant_options_are_read() -> None:
    base = {
        "variant": "deluge",
        "phase": "W1901A",
        "units": {},
        "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
        "orders": {"ENGLAND": ["A LON B"]},
    }
    sinks = adjudicate(base)
    assert sinks["next"]["units"]["ENGLAND"] == ["F LON"]  # E7: the new army sinks with London
    drowns = adjudicate({**base, "options": {"drowning_armies": True}})
    assert drowns["next"]["units"]["ENGLAND"] == []
    assert drowns["next"]["options"] == {"drowning_armies": True}
    wrong = adjudicate({**base, "phase": "S1901M", "orders": {"ENGLAND": ["F LON becomes army"]}})
    assert wrong["results"]["ENGLAND"]["F LON becomes army"] == "invalid"
    assert (
        "Deluge has no order to turn a fleet into an army"
        in wrong["reasons"]["ENGLAND"]["F LON becomes army"]
    )


def test_bad_options_maps_and_fields_are_refused_with_the_reason() -> None:
    base = {"variant": "wall_of_ice", "phase": "S1901M", "units": {}, "centers": {}}
    assert "unknown option" in adjudicate({**base, "options": {"errata": True}})["error"]
    assert 'give it as "seed"' in adjudicate({**base, "options": {"mode": "random"}})["error"]
    random = adjudicate({**base, "options": {"mode": "random", "seed": "g-1"}})
    assert random["next"]["options"] == {"mode": "random", "seed": "g-1"}
    start = map_at(load_variant("wall_of_ice"), "S1901M", {})
    start["provinces"]["STP"]["coasts"] = []
    assert "do not fit the terrain" in adjudicate({**base, "map": start})["error"]
    del start["provinces"]["STP"]
    assert "missing province(s) ['STP']" in adjudicate({**base, "map": start})["error"]
    # Options are for every variant now (the rule modules, test_cli_options.py); the map's fields are not.
    standard = {**base, "variant": "standard", "stay_flags": []}
    assert "standard's map never changes" in adjudicate(standard)["error"]


def test_a_jsonl_game_runs_on_next_alone() -> None:
    # Deluge from the start, every unit holding: each answer's next is the next line's request.
    request = {"variant": "deluge", "phase": "S1901M", "units": {}, "centers": {}}
    first = adjudicate({**request, "units": {"ITALY": ["A VEN"]}, "centers": {"ITALY": ["VEN"]}})
    second = adjudicate(first["next"])
    assert first["next"]["phase"] == "F1901M" and second["next"]["phase"] == "S1902M"
    assert second["next"]["units"]["ITALY"] == ["F VEN"]  # Venice sank after the Winter (E7)
    assert second["next"]["map"]["provinces"]["VEN"]["terrain"] == "sea"
    done = run("adjudicate", "--jsonl", stdin=json.dumps(second["next"]) + "\n")
    assert json.loads(done.stdout)["next"]["phase"] == "F1902M"


def test_check_passes_wall_of_ice_and_lists_britain_cut_off_as_a_note() -> None:
    done = run("check", "wall_of_ice", stdin="")
    assert done.returncode == 0, done.stdout
    assert (
        "note: 1910 after_fall_retreats: LON (London) cannot be reached from the rest of the map"
        in done.stdout
    )
    assert "no problems" in done.stdout and "note(s)" in done.stdout


def test_a_province_cut_off_on_the_start_map_is_a_problem_after_changes_a_note() -> None:
    variant = load_variant("standard")
    around_ber = dict.fromkeys(variant.borders["BER"], Terrain.IMPASSABLE)
    changed = replace(variant.map_state, terrain={**variant.map_state.terrain, **around_ber})
    assert not [p for p in validate(variant, changed) if "cannot be reached" in p]
    assert "BER (Berlin) cannot be reached from the rest of the map" in notes(variant, changed)
    assert notes(variant, variant.map_state) == []


def test_workers_answer_a_file_in_input_order(tmp_path: Path) -> None:
    # Requests of every kind, a bad line among them: answers pair up with lines whatever the worker count.
    lines = [
        json.dumps({"variant": "deluge", "phase": "W1901A", "units": {}, "centers": {"ITALY": ["ROM"]}}),
        "not json",
        json.dumps({"variant": "standard", "phase": "S1901M", "units": {"ITALY": ["A ROM"]}, "centers": {}}),
    ] * 50
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    answers = {}
    for workers in ("1", "2"):
        with path.open() as requests:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "dipserver.adjudicator",
                    "adjudicate",
                    "--jsonl",
                    "--workers",
                    workers,
                ],
                stdin=requests,
                capture_output=True,
                text=True,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                timeout=120,
            )
        assert done.returncode == 0 and done.stderr == ""
        answers[workers] = done.stdout.splitlines()
    assert answers["1"] == answers["2"]
    assert len(answers["2"]) == len(lines)
    assert ["error" in json.loads(a) for a in answers["2"][:3]] == [False, True, False]
