"""Requests that cannot be a position, or that would cost far more than any position does, are refused at
once with an error that names the field: a unit both standing and dislodged, an order text over
``MAX_ORDER_TEXT`` characters, a request over ``MAX_REQUEST`` bytes."""

from __future__ import annotations

import json
from typing import Any

from dipserver.adjudicator.cli import answer_text
from dipserver.adjudicator.codec import MAX_REQUEST
from dipserver.engine.readings import MAX_ORDER_TEXT
from tests.adjudicator.command_line import request, run


def answer(data: dict[str, Any]) -> dict[str, Any]:
    return answer_text(json.dumps(data))


def retreat(units: dict[str, list[str]], dislodged: dict[str, Any], **more: Any) -> dict[str, Any]:
    return request("S1901R", units=units, dislodged=dislodged, **more)


SERBIA = {"AUSTRIA": [{"unit": "A SER", "retreats": ["ALB"]}]}


def test_a_unit_standing_where_it_is_dislodged_is_refused() -> None:
    found = answer(retreat({"AUSTRIA": ["A SER"]}, SERBIA, orders={"AUSTRIA": ["A SER R ALB"]}))
    assert found == {
        "error": '"dislodged" of AUSTRIA: A SER: it stands in Serbia too (in "units"): a dislodged unit '
        "has left the board until it retreats"
    }


def test_a_unit_dislodged_where_its_own_power_stands_is_refused() -> None:
    found = answer(retreat({"AUSTRIA": ["A BUD", "F TRI"]}, {"AUSTRIA": [{"unit": "A TRI"}]}))
    assert found["error"].endswith("a unit is dislodged only by another power's unit")
    assert found["error"].startswith(
        '"dislodged" of AUSTRIA: A TRI: F TRI of the same power stands in Trieste'
    )


def test_another_powers_unit_standing_where_a_unit_was_dislodged_is_the_usual_retreat() -> None:
    found = answer(retreat({"TURKEY": ["A SER"]}, SERBIA, orders={"AUSTRIA": ["A SER R ALB"]}))
    assert found["results"] == {"AUSTRIA": {"A SER R ALB": "success"}}
    assert found["next"]["units"]["AUSTRIA"] == ["A ALB"] and found["next"]["units"]["TURKEY"] == ["A SER"]


def test_the_command_exits_1_on_the_duplicated_unit() -> None:
    done = run("adjudicate", stdin=json.dumps(retreat({"AUSTRIA": ["A SER"]}, SERBIA)))
    assert done.returncode == 1 and "stands in Serbia too" in json.loads(done.stdout)["error"]


def test_an_order_text_over_the_limit_is_refused_with_the_request() -> None:
    text = "A PAR - " + "BUR " * 250_000  # a megabyte: it used to cost seconds of CPU and 90 MB
    found = answer(request(orders={"FRANCE": ["A MAR H", text]}))
    assert found == {
        "error": f'"orders" of FRANCE, order 2: An order is at most {MAX_ORDER_TEXT} characters long; '
        f"this text has {len(text.strip()):,}"
    }


def test_an_order_text_at_the_limit_is_read_as_any_other() -> None:
    padded = "A PAR - BUR".ljust(MAX_ORDER_TEXT + 50)  # white space around a text does not count
    wordy = "A PAR - " + "X" * (MAX_ORDER_TEXT - 8)  # exactly at the limit: read, and refused as an order
    found = answer(request(orders={"FRANCE": [padded], "GERMANY": [wordy]}))
    assert found["results"]["FRANCE"] == {padded: "success"}
    assert found["results"]["GERMANY"] == {wordy: "invalid"}
    assert "characters long" not in found["reasons"]["GERMANY"][wordy]


def test_a_request_over_the_size_limit_is_refused_before_it_is_read() -> None:
    big = json.dumps(request(pad="x" * MAX_REQUEST))
    assert answer_text(big) == {
        "error": f"request too large: a request is at most {MAX_REQUEST:,} bytes of JSON"
    }
    done = run("adjudicate", "--jsonl", stdin=big + "\n" + json.dumps(request()) + "\n")
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["error"].startswith("request too large") and second["phase"] == "S1901M"


def test_a_huge_line_is_never_held_whole(tmp_path) -> None:
    """The readers keep a byte over the limit of a line, whatever its length: from a file, from a pipe
    with one process and with two (``--workers``), each answers the line and goes on."""
    import io

    from dipserver.adjudicator import batch

    huge = b'{"pad": "' + b"x" * (3 * MAX_REQUEST) + b'"}\n'
    lines = list(batch.bounded(io.BytesIO(huge + b"{}\n")))
    assert [len(line) for line in lines] == [MAX_REQUEST + 1, 3]
    path = tmp_path / "requests.jsonl"
    path.write_bytes(huge + json.dumps(request()).encode() + b"\n")
    for workers in ("1", "2"):
        with path.open("rb") as given:
            done = run_file("adjudicate", "--jsonl", "--workers", workers, stdin=given)
        first, second = (json.loads(line) for line in done.splitlines())
        assert first["error"].startswith("request too large") and second["phase"] == "S1901M"


def run_file(*args: str, stdin: Any) -> bytes:
    import os
    import subprocess
    import sys

    from tests.adjudicator.command_line import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "dipserver.adjudicator", *args]
    return subprocess.run(
        command, stdin=stdin, capture_output=True, cwd=ROOT, env=env, timeout=60, check=True
    ).stdout
