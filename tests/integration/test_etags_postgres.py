"""The ETag rules (tests/api/test_etags.py) on PostgreSQL, where an update moves a row and STRING_AGG
without ORDER BY joined the seats in whatever order it found them. Each test runs twice: with the plans
PostgreSQL picks, and with sequential scans only (the plan of a busy server's larger tables, which reads
rows in the order they lie on disk)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.api.conftest import admin, game, master, outsider, players  # noqa: F401 - the tests' fixtures
from tests.api.test_etags import (  # noqa: F401 - collected here too, against PostgreSQL
    test_a_first_order_or_a_ready_flag_changes_an_observers_tag,
    test_a_player_replaced_in_an_anonymous_game_changes_only_the_masters_tag,
    test_a_renamed_player_changes_the_tag_where_players_are_shown,
    test_a_superuser_right_taken_away_changes_the_tag,
    test_draw_votes_and_concessions_leave_an_observers_and_other_powers_tags_alone,
    test_other_powers_revising_their_orders_leave_an_observers_tag_alone,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture(autouse=True, params=["chosen plans", "sequential scans"])
def _on_postgresql(request: pytest.FixtureRequest, postgres_url: str, db: None) -> None:
    """Fails under CI, skips elsewhere, unless the tests run on PostgreSQL."""
    if request.param == "sequential scans":
        with connection.cursor() as cursor:  # SET inside the test's transaction: undone with it
            for scan in ("indexscan", "indexonlyscan", "bitmapscan"):
                cursor.execute(f"SET enable_{scan} = off")
