"""Recovery from a PostgreSQL restart and from Redis being down, on real PostgreSQL, Redis and Celery
worker processes.

Restarting PostgreSQL kills every connection, including the ones that workers keep between tasks. A
worker must notice at its next task and reconnect: no task may fail on the dead connection. While Redis
is down, what players ask for is saved and answered; the sweep queues the phase once Redis is back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.utils import timezone

from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat
from dipserver.games.models import Phase, Power
from dipserver.games.services.phases import phases_due_sweep
from tests.api.conftest import client_for

from .conftest import redis_stopped, restart_postgres
from .test_games_processing import Workers, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Generous: a worker with working connections processes these games in a second or two.
WITHIN_A_SWEEP = 30.0


def test_workers_process_every_due_phase_at_the_first_sweep_after_a_postgres_restart(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    workers.start()
    # Each worker holds a database connection open: it has run tasks before the restart.
    for n in range(4):
        heartbeat.delay(f"before-restart-{n}")
    wait_for(lambda: WorkerHeartbeat.objects.filter(name__startswith="before-restart").count() == 4)
    games = [due_game(f"restart{n}") for n in range(6)]

    restart_postgres()
    queued = phases_due_sweep()  # what beat's next sweep does

    assert sorted(queued) == sorted(g.current_phase_id for g in games)
    wait_for(
        lambda: all(processed_once(g) for g in games),
        timeout=WITHIN_A_SWEEP,
        what="every due phase to be processed after the restart",
    )
    assert sorted(workers.outcomes()) == ["processed"] * 6
    assert workers.errors() == []


def test_the_last_ready_with_redis_stopped_is_answered_and_the_phase_processed_once_it_is_back(
    workers: Workers, redis_url: str, wait_for: Callable[..., object]
) -> None:
    workers.start()
    game = due_game("redis-down")
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() + dt.timedelta(hours=1))

    with redis_stopped(redis_url):
        for power in Power.objects.filter(game=game).select_related("user"):
            answer = client_for(power.user).put(
                f"/api/v1/games/{game.id}/ready", {"ready": True}, format="json"
            )
            assert answer.status_code == 200, answer.content
        assert answer.json() == {"ready": True, "phase_due": True}
        assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.OPEN

    assert phases_due_sweep() == [game.current_phase_id]  # beat's next sweep, with Redis back
    wait_for(lambda: processed_once(game), timeout=90, what="the worker, reconnected, to process the phase")


def test_a_postgres_restart_mid_storm_leaves_no_phase_stuck(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    workers.start()
    games = [due_game(f"storm{n}") for n in range(20)]
    assert len(phases_due_sweep()) == 20

    wait_for(lambda: any(processed_once(g) for g in games), what="the storm to be under way")
    restart_postgres()  # tasks mid-transaction roll back; they and the ones refused meanwhile are retried

    # Exactly once each, from the database's own record (a task whose commit went through just before the
    # connection died is retried and then finds its phase done: "not due").
    wait_for(
        lambda: all(processed_once(g) for g in games),
        timeout=WITHIN_A_SWEEP,
        what="every phase of the storm to be processed after the restart",
    )
