"""What processing a phase costs: the queries of its commit path, and no work for the next phase's clients.

The next phase's legal options are computed only when a client asks (``GET .../options``); one task is
queued for the results, mail or not (every player's inbox and webhooks hear them), and it mails nobody
without a confirmed address.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.engine import options as engine_options
from dipserver.games.models import Phase
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process
from dipserver.notices.models import Notification
from tests.server.conftest import started_game
from tests.server.test_processing import ALL_ORDERS, LATE, SOON

# A standard phase with every unit ordered, nobody missing, nobody ready, on either database: BEGIN, the
# game and its current phase locked and read in one statement, the seats locked, their orders read, the
# phase marked processed with its results, the next phase inserted, the game's current phase set, COMMIT.
STANDARD_PHASE_QUERIES = {"postgresql": 8, "sqlite": 8}


@pytest.fixture
def quiet_players(db):
    """Seven players none of whom has a confirmed address."""
    return [get_user_model().objects.create(username=f"quiet{i}") for i in range(7)]


def _fully_ordered(players):
    game = started_game(players)
    for power in game.powers.select_related("user"):
        orders_submit(game_id=game.id, user=power.user, text=ALL_ORDERS[power.name], now=SOON)
    return game


def test_a_standard_phase_takes_a_fixed_number_of_queries_and_mails_nobody_without_addresses(
    quiet_players, django_capture_on_commit_callbacks
):
    game = _fully_ordered(quiet_players)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        CaptureQueriesContext(connection) as queries,
    ):
        assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
    assert len(queries) == STANDARD_PHASE_QUERIES[connection.vendor], [q["sql"][:80] for q in queries]
    assert len(callbacks) == 1  # the results task: the inboxes hear them, though nobody is mailed
    assert mail.outbox == []


def test_one_player_with_an_address_still_gets_the_results(quiet_players, django_capture_on_commit_callbacks):
    quiet_players[3].email = "four@example.org"
    quiet_players[3].save(update_fields=["email"])
    game = _fully_ordered(quiet_players)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
    assert len(callbacks) == 2  # the results task, and the one mail it queued on its commit
    assert [m.to for m in mail.outbox] == [["four@example.org"]]
    assert "Spring 1901 movement processed" in mail.outbox[0].subject


def test_processing_never_lists_legal_options(quiet_players):
    """Options are for clients that ask; processing movement, retreats and adjustments computes none."""
    game = _fully_ordered(quiet_players)
    spy = mock.Mock(side_effect=AssertionError("processing computed legal options"))
    with (
        mock.patch.object(engine_options, "legal_options", spy),
        mock.patch.object(engine_options, "_legal_options", spy),
    ):
        for _ in range(6):  # S1901M, F1901M, W1901A ... with the retreats and Winters that come up
            phase = Phase.objects.get(id=game.current_phase_id)
            assert phase_process(phase_id=phase.id, now=LATE, force=True) is Processed.DONE
            game.refresh_from_db()
    assert spy.call_count == 0
    played = set(Phase.objects.filter(game=game).values_list("name", flat=True))
    assert {"S1901M", "F1901M", "W1901A"} <= played


# The same phase with its announcement run as the worker runs it: the phase and its game (the next phase
# joined; who muted the game comes with it), the seats with their players, the game's masters (who get the
# results mail unless they play), the inbox's one INSERT, whether any webhook exists, the phase marked told
# (so the sweep does not queue it again), and the processing worker marking it published once the broker
# has the task (due again minutes later, not seconds: here the task ran first, so it marks nothing). The
# mail reads nothing more when nobody has an address.
ANNOUNCED_PHASE_QUERIES = {vendor: count + 7 for vendor, count in STANDARD_PHASE_QUERIES.items()}


def test_a_standard_phase_and_its_announcement_take_a_fixed_number_of_queries(
    quiet_players, django_capture_on_commit_callbacks
):
    game = _fully_ordered(quiet_players)
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        assert phase_process(phase_id=game.current_phase_id, now=LATE) is Processed.DONE
    assert len(callbacks) == 1
    assert len(queries) == ANNOUNCED_PHASE_QUERIES[connection.vendor], [q["sql"][:80] for q in queries]
    # Every player heard it in the inbox, though nobody was mailed.
    assert Notification.objects.filter(game=game, kind="phase_processed").count() == 7
