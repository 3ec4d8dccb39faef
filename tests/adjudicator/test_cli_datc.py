"""All 164 DATC v3.0 cases through the command line, as a tool would send them: one ``--jsonl`` batch of
movement and adjustment requests, then one of retreat requests built from the answers' ``next``.

The cases feed illegal orders on purpose. Here they go through the player-facing parser, which refuses
them with a reason (``invalid``, the unit holds) where the DATC driver hands them to the adjudicator;
both roads must end in the position the DATC expects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATC_JSON = ROOT / "tests" / "data" / "datc_v3_0_cases.json"


@cache
def cases() -> list[dict[str, Any]]:
    return list(json.loads(DATC_JSON.read_text())["cases"])


def batch(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "dipserver.adjudicator", "adjudicate", "--jsonl"],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=True,
    )
    assert done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


def by_power(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for row in rows:
        table.setdefault(row["power"].upper(), []).append(f"{row['type']} {row['loc']}")
    return table


def upper(table: dict[str, list[str]]) -> dict[str, list[str]]:
    return {power.upper(): value for power, value in table.items()}


def request(case: dict[str, Any]) -> dict[str, Any]:
    pre = case["prestate"]
    return {
        "variant": "standard",
        "phase": "W1901A" if pre["phase"] == "A" else "S1901M",
        "units": by_power(pre["units"]),
        "centers": upper(pre["sc_owners"]),
        "orders": upper(case["orders_mila"]),
    }


def units_of(answer: dict[str, Any]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    nxt = answer["next"]
    units = {(power, unit) for power, listed in nxt["units"].items() for unit in listed}
    dislodged = {(power, d["unit"]) for power, entries in nxt["dislodged"].items() for d in entries}
    return units, dislodged


def expected(case: dict[str, Any]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    want = case["expected"]
    units = {(p, u) for p, listed in by_power(want["units"]).items() for u in listed}
    dislodged = {(p, u) for p, listed in by_power(want["dislodged"]).items() for u in listed}
    return units, dislodged


def test_every_datc_case_ends_where_the_datc_says() -> None:
    all_cases = cases()
    assert len(all_cases) == 164
    final = dict(zip((c["id"] for c in all_cases), batch([request(c) for c in all_cases]), strict=True))
    retreats = [
        (case["id"], {**final[case["id"]]["next"], "orders": upper(case["retreat_orders_mila"])})
        for case in all_cases
        if case.get("retreat_orders_mila") is not None and final[case["id"]]["next"]["phase"].endswith("R")
    ]
    assert retreats, "the retreat cases (6.H) must reach a retreat phase"
    final.update(zip((cid for cid, _ in retreats), batch([r for _, r in retreats]), strict=True))
    wrong = {cid: answer for cid, answer in final.items() if "error" in answer}
    assert not wrong
    differ = [case["id"] for case in all_cases if units_of(final[case["id"]]) != expected(case)]
    assert differ == []
