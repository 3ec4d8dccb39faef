"""``python -m dipserver.adjudicator options``: every power's legal orders for a position, from the request
``adjudicate`` reads, each power's in the shape of the API's options (``tests/api/test_options_cli.py`` holds
the two to the same answer for a game's phase)."""

from __future__ import annotations

import json
from typing import Any

from dipserver.adjudicator.cli import answer_text
from dipserver.engine.board import board_for
from dipserver.engine.modules import Modules
from dipserver.engine.modules.phase import InPlay, ModuleState
from dipserver.engine.options import legal_options
from dipserver.engine.variant import load_variant
from tests.adjudicator.command_line import request, run


def options(data: dict[str, Any]) -> dict[str, Any]:
    return answer_text(json.dumps(data), "options")


def texts(answer: dict[str, Any], power: str, location: str) -> list[str]:
    return [option["text"] for option in answer["options"][power]["units"][location]]


def test_every_power_gets_the_options_the_engine_offers_it() -> None:
    standard = load_variant("standard")
    answer = options(request())
    assert answer["phase"] == "S1901M"
    assert list(answer["options"]) == list(standard.powers)
    board = board_for(standard, standard.map_state)
    for power in standard.powers:
        expected = legal_options(board, standard.start, power).to_data()
        assert answer["options"][power] == json.loads(json.dumps(expected))
    assert "A PAR - BUR" in texts(answer, "FRANCE", "PAR")
    assert "F LON C A LVP - BEL" not in texts(answer, "ENGLAND", "LON")  # no fleet at sea to convoy yet


def test_the_command_reads_one_request_and_writes_one_answer() -> None:
    done = run("options", stdin=json.dumps(request()))
    assert (done.returncode, done.stderr) == (0, "")
    answer = json.loads(done.stdout)
    assert "F BRE - MAO" in texts(answer, "FRANCE", "BRE")


def test_orders_in_the_request_are_not_needed_nor_read() -> None:
    assert options(request(orders={"FRANCE": ["A PAR - BUR"]})) == options(request())


def test_a_retreat_phase_offers_the_dislodged_units_retreats_and_disbands() -> None:
    dislodged = {"GERMANY": [{"unit": "A BUR", "retreats": ["RUH"]}]}
    answer = options(request("S1901R", units={"FRANCE": ["A BUR"]}, dislodged=dislodged))
    assert texts(answer, "GERMANY", "BUR") == ["A BUR R RUH", "A BUR D"]
    assert answer["options"]["FRANCE"]["units"] == {}  # the attacker, standing in Burgundy, waits


def test_an_adjustment_phase_offers_builds_with_the_count_due() -> None:
    answer = options(request("W1901A", units={"FRANCE": ["A PAR"]}))
    france = answer["options"]["FRANCE"]
    assert france["adjustment"] == 2
    assert {"A BRE B", "F BRE B", "A MAR B", "F MAR B", "WAIVE"} == {o["text"] for o in france["builds"]}


def test_the_next_position_of_an_answer_is_an_options_request() -> None:
    done = answer_text(json.dumps(request(orders={"FRANCE": ["A PAR - BUR"]})))
    answer = options(done["next"])
    assert answer["phase"] == "F1901M" and "A BUR - MUN" in texts(answer, "FRANCE", "BUR")


def test_a_snowed_in_unit_only_holds_as_the_modules_say() -> None:
    data = request(options={"seed": "s", "blizzards": {"count": "1d6"}}, module_state={"blizzards": ["PAR"]})
    answer = options(data)
    assert texts(answer, "FRANCE", "PAR") == ["A PAR H"]
    standard = load_variant("standard")
    modules = InPlay(
        Modules.from_options({"blizzards": {"count": "1d6"}}), ModuleState(blizzards=frozenset({"PAR"}))
    )
    board = board_for(standard, standard.map_state)
    expected = legal_options(board, standard.start, "FRANCE", modules=modules).to_data()
    assert answer["options"]["FRANCE"] == json.loads(json.dumps(expected))


def test_a_bad_request_gets_the_error_adjudicate_gives() -> None:
    bad = request(units={"FRANCE": ["A NTH"]})
    assert options(bad) == answer_text(json.dumps(bad)) and "sea" in options(bad)["error"]
    done = run("options", stdin="{")
    assert done.returncode == 1 and json.loads(done.stdout)["error"].startswith("not valid JSON")


def test_jsonl_answers_every_line_in_order_with_an_error_in_place_of_a_bad_one() -> None:
    lines = [json.dumps(request()), "", json.dumps(request("F1901M"))]
    for workers in ("1", "2"):
        done = run("options", "--jsonl", "--workers", workers, stdin="\n".join(lines) + "\n")
        assert (done.returncode, done.stderr) == (0, "")
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert [a.get("phase") for a in answers] == ["S1901M", None, "F1901M"]
        assert "empty" in answers[1]["error"]


def test_help_names_the_command() -> None:
    done = run("--help", stdin="")
    assert "options" in done.stdout
    done = run("options", "--help", stdin="")
    assert "GET /api/v1/games/<id>/options" in " ".join(done.stdout.split())
