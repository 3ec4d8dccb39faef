"""Recovery from a PostgreSQL restart, on real PostgreSQL, Redis and Celery worker processes.

Restarting the server kills every connection, including the ones that workers keep between tasks. A
worker must notice at its next task and reconnect: no task may fail on the dead connection.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat
from dipserver.games.services.phases import phases_due_sweep

from .conftest import restart_postgres
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
