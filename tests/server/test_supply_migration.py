"""Games 0019: a game that plays supply lines keeps the rules it was created with (issue 31): free depots
and removal at Winter, which the module's new defaults (the seed's numbers) would otherwise change."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dipserver.engine.modules import Modules
from tests.server.test_migrations_round_trip import migrated

BEFORE = [("games", "0018_game_pins_studio_version")]
AFTER = [("games", "0019_supply_lines_keep_their_rules")]
OLD = {"range": 3, "range_by_power": {}, "strikes": 2, "check_seasons": ["F"], "depots": True,
       "max_depots": 2, "capture": True, "block_foreign_sc": False}  # fmt: skip


@pytest.fixture
def latest_after(transactional_db):
    yield
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_an_old_supply_lines_game_keeps_free_depots_and_winter_removal(latest_after):
    apps = migrated(BEFORE)
    games = apps.get_model("games", "Game").objects
    old = games.create(name="old", variant="standard", variant_version="x", secret="s", commitment="c",
                       options={"supply_lines": OLD})  # fmt: skip
    plain = games.create(name="plain", variant="standard", variant_version="x", secret="s", commitment="c")
    apps = migrated(AFTER)
    games = apps.get_model("games", "Game").objects
    supply = Modules.from_options(games.get(id=old.id).options).supply
    assert supply is not None and (supply.depot_cost, supply.removal, supply.range) == ("free", "winter", 3)
    assert games.get(id=plain.id).options == {}
    apps = migrated(BEFORE)
    assert apps.get_model("games", "Game").objects.get(id=old.id).options == {"supply_lines": OLD}
