"""games 0008: the phases processed before results were records get their records, read once from the
order text each row kept; rolled back, the rows are as they were stored; applied again, nothing is lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dipserver.engine.records import PLAIN_FIELDS
from dipserver.engine.variant import load_variant
from dipserver.games.mappers import snapshot_from
from dipserver.games.results_upgrade import records_stripped
from dipserver.games.turn import turn_play
from tests.server.test_migrations_round_trip import migrated

RECORDS = [("games", "0008_result_records")]
BEFORE = [("games", "0007_power_away_until")]
ORDERS = {
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A PAR H", "A XYZ - PAR"],
    "GERMANY": ["A MUN - BUR", "F KIE - HOL"],
    "ENGLAND": ["A LVP - EDI VIA", "F EDI - NTH"],
}


@pytest.fixture
def latest_after(transactional_db):
    yield
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())


def engine_records() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A standard S1901M snapshot and its results as the engine makes them now (records)."""
    variant = load_variant("standard")
    snapshot = snapshot_from(variant.map_state, variant.start)
    turn = turn_play(variant=variant, options={}, secret="s", snapshot=snapshot, order_texts=ORDERS)
    return snapshot, turn.results


def stored_phase(apps: Any, results: list[dict[str, Any]], variant: str = "standard") -> int:
    """A processed phase as the code before records stored it; its id."""
    version = load_variant("standard").version if variant == "standard" else "gone"
    game = apps.get_model("games", "Game").objects.create(
        name=variant, variant=variant, variant_version=version, secret="s", commitment="c"
    )
    snapshot, _ = engine_records()
    phase = apps.get_model("games", "Phase").objects.create(
        game=game, index=0, name="S1901M", status="processed", variant_version=version,
        snapshot=snapshot, orders=ORDERS, results=results,
    )  # fmt: skip
    return phase.id


def results_of(apps: Any, phase_id: int) -> list[dict[str, Any]]:
    return apps.get_model("games", "Phase").objects.get(id=phase_id).results


def test_an_old_phase_gets_the_records_the_engine_would_have_made(latest_after):
    _, records = engine_records()
    plain = [{k: r[k] for k in PLAIN_FIELDS} for r in records]
    phase_id = stored_phase(migrated(BEFORE), plain)

    filled = results_of(migrated(RECORDS), phase_id)

    assert filled == [{k: v for k, v in r.items() if k != "text"} for r in records]


def test_the_old_fields_of_each_row_are_kept_as_stored(latest_after):
    plain = [
        {"power": "FRANCE", "order": "A PAR - BUR", "outcome": "bounce", "reason": "r", "dislodged": True}
    ]
    phase_id = stored_phase(migrated(BEFORE), plain)

    [row] = results_of(migrated(RECORDS), phase_id)

    assert {k: row[k] for k in PLAIN_FIELDS} == plain[0]
    assert (row["kind"], row["from"], row["to"]) == ("move", "PAR", "BUR")


def test_rolled_back_the_rows_are_as_they_were_stored(latest_after):
    _, records = engine_records()
    plain = [{k: r[k] for k in PLAIN_FIELDS} for r in records]
    phase_id = stored_phase(migrated(BEFORE), plain)
    migrated(RECORDS)

    assert results_of(migrated(BEFORE), phase_id) == plain


def test_applied_again_the_records_come_back_exactly(latest_after):
    apps = migrated(RECORDS)
    _, records = engine_records()
    made = [{k: v for k, v in r.items() if k != "text"} for r in records]
    made[0] = {**made[0], "reason": "only the engine knew"}  # not what reading the text would give
    phase_id = stored_phase(apps, made)

    migrated(BEFORE)
    again = results_of(migrated(RECORDS), phase_id)

    assert again == made


def test_a_phase_whose_variant_cannot_be_loaded_keeps_its_rows(latest_after):
    plain = [{"power": "FRANCE", "order": "A PAR H", "outcome": "success", "reason": "", "dislodged": False}]
    phase_id = stored_phase(migrated(BEFORE), plain, variant="gone")

    assert results_of(migrated(RECORDS), phase_id) == plain
    assert records_stripped(plain) == plain
