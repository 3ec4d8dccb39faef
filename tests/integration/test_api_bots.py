"""Bots play whole games through the API with the real Celery path: the API answers in this process,
and every phase is processed by a separate `celery worker` on Redis writing to PostgreSQL."""

from __future__ import annotations

import pytest

from dipserver.bot import play
from dipserver.config import celery_app
from dipserver.engine.variant import load_variant
from dipserver.games.models import Game, Phase
from tests.api.bots import bots_for_a_new_game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def to_the_worker(celery_worker):
    """Route this process's tasks to the test worker's private queue."""
    saved = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = celery_worker.queue
    yield celery_worker
    celery_app.conf.task_default_queue = saved


@pytest.mark.parametrize("variant", ["standard", "wall_of_ice", "deluge", "sahara"])
def test_bots_play_a_whole_game_with_a_real_worker(variant, to_the_worker, settings):
    settings.DIPSERVER_API_THROTTLES = {"login": "1000/min", "register": "1000/min", "writes": "10000/min"}
    info = load_variant(variant)
    bots = bots_for_a_new_game(variant, len(info.powers), end_year=info.start.phase.year + 1)
    play(bots, poll_seconds=0.2, timeout=240)

    game = Game.objects.get(id=bots[0].game_id)
    assert game.status == Game.Status.FINISHED
    assert game.secret  # revealed through the API now
    assert bots[0].api.call("GET", f"/games/{game.id}")["secret"] == game.secret
    phases = Phase.objects.filter(game=game)
    assert phases.count() >= 4
    assert not phases.filter(status=Phase.Status.OPEN).exists()
    log = to_the_worker.log.read_text(errors="replace")
    assert "dipserver.games.phase_process" in log and "succeeded" in log
