"""A processed phase stores its results as records, and nothing on the server reads a result's text back
as an order: the pictures, the mail and the admin read the records' fields."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dipserver.engine.records import FIELDS
from dipserver.games.models import Phase
from dipserver.games.results_upgrade import records_stripped
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.transfer import game_export, game_import
from tests.server.conftest import START, seat

SERVER = Path(__file__).resolve().parents[2] / "dipserver"
# The engine reads orders (it is where parse_order lives), the command line reads its JSON's orders, and
# results_upgrade is the one reading of results stored before records (games 0008, old exports).
READERS = ("engine", "adjudicator", "games/results_upgrade.py", "games/migrations")


def played(game) -> Phase:
    orders_submit(
        game_id=game.id, user=seat(game, "FRANCE").user, text="A PAR - BUR\nA MAR S A PAR - BUR", now=START
    )
    orders_submit(game_id=game.id, user=seat(game, "GERMANY").user, text="A MUN - BUR", now=START)
    phase_process(phase_id=game.current_phase_id, now=START, force=True)
    return Phase.objects.get(game=game, index=0)


def test_a_processed_phase_stores_a_record_for_every_result(game):
    results = played(game).results
    # Every field, in no particular order: PostgreSQL's jsonb keeps an object's keys in an order of its own.
    assert results and all(sorted(r) == sorted(FIELDS) for r in results)
    [move] = [r for r in results if r["order"] == "A MUN - BUR"]
    assert (move["kind"], move["from"], move["to"], move["outcome"]) == ("move", "MUN", "BUR", "bounce")


def test_a_game_exported_before_records_imports_with_its_records(game):
    stored = played(game).results
    data = json.loads(json.dumps(game_export(game_id=game.id)))
    for phase in data["phases"]:
        phase["results"] = records_stripped(phase["results"])

    copy = game_import(data=data)

    assert Phase.objects.get(game=copy, index=0).results == stored


def test_no_server_code_reads_a_stored_result_as_an_order_text():
    readers = []
    for path in SERVER.rglob("*.py"):
        where = path.relative_to(SERVER).as_posix()
        if not where.startswith(READERS) and re.search(r"\bparse_orders?\b", path.read_text()):
            readers.append(where)
    assert readers == []
