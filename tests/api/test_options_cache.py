"""GET .../options computes a power's legal options once per phase, when first asked, and answers the same
as computing them afresh; processing a phase computes none (tests/server/test_processing_cost.py)."""

from __future__ import annotations

from unittest import mock

from dipserver.api import orders as orders_api
from dipserver.engine.options import legal_options
from dipserver.games.mappers import board_of, position_of
from dipserver.games.models import Phase
from dipserver.games.services.phases import phase_process
from dipserver.games.variants import game_variant
from tests.api.conftest import client_for, user_of


def _fresh(game, power: str) -> dict:
    """The options computed directly from the open phase, as the engine gives them."""
    game.refresh_from_db()
    snapshot = Phase.objects.get(id=game.current_phase_id).snapshot
    return legal_options(board_of(game_variant(game), snapshot), position_of(snapshot), power).to_data()


def test_options_are_computed_once_per_phase_and_power_and_answer_as_computed_afresh(game):
    england, france = client_for(user_of(game, "ENGLAND")), client_for(user_of(game, "FRANCE"))
    url = f"/api/v1/games/{game.id}/options"
    with mock.patch.object(orders_api, "legal_options", wraps=legal_options) as spy:
        first, again = england.get(url), england.get(url)
        assert spy.call_count == 1
        theirs = france.get(url)
        assert spy.call_count == 2  # each power its own
    assert first.status_code == again.status_code == theirs.status_code == 200
    assert first.json() == again.json() == _fresh(game, "ENGLAND")
    assert theirs.json() == _fresh(game, "FRANCE")


def test_the_next_phase_lists_its_own_options(game):
    england = client_for(user_of(game, "ENGLAND"))
    url = f"/api/v1/games/{game.id}/options"
    assert england.get(url).json()["phase"] == "S1901M"
    england.put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["F LON - NTH"]}, format="json"
    )
    phase_process(phase_id=game.current_phase_id, force=True)
    answer = england.get(url).json()
    assert answer["phase"] == "F1901M"
    assert "NTH" in answer["units"] and "LON" not in answer["units"]
    assert answer == _fresh(game, "ENGLAND")


def test_options_an_older_release_cached_are_not_served(game):
    # Before builds_first and builds_elsewhere the key had no format: such an entry, still in the cache
    # after an upgrade, would offer Deluge builds the order reader refuses.
    from django.core.cache import cache

    old_key = f"dipserver:options:{game.commitment}:{game.version}:{game.current_phase_id}:ENGLAND"
    cache.set(old_key, {"power": "ENGLAND", "phase": "S1901M", "units": {}}, 60)
    answer = client_for(user_of(game, "ENGLAND")).get(f"/api/v1/games/{game.id}/options").json()
    assert answer == _fresh(game, "ENGLAND") and answer["units"]
