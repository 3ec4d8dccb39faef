"""The outage guard and the site's health on real PostgreSQL, Redis, Celery workers and beat: while no
sweep runs, /healthz answers 503 and /metrics counts the phase overdue; when beat is back, the deadline
that passed during the outage is moved on by the outage's length instead of being processed at once."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import timezone

from dipserver.core.models import WorkerHeartbeat
from dipserver.games.models import Phase
from dipserver.games.services.phases import phases_due_sweep
from dipserver.games.services.recovery import SWEEP_ALIVE

from .conftest import Workers, due_game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in\n{text}"
    return float(found.group(1))


def test_a_deadline_that_passed_while_beat_was_down_moves_on_when_it_is_back(
    workers: Workers, wait_for: Callable[..., object], client: Client
) -> None:
    down_since = timezone.now() - dt.timedelta(minutes=30)
    WorkerHeartbeat.objects.create(name=SWEEP_ALIVE, beat_at=down_since, hostname="gone")
    WorkerHeartbeat.objects.create(name="celery", beat_at=down_since, hostname="gone")
    game = due_game("outage")
    deadline = timezone.now() - dt.timedelta(minutes=5)  # passed during the outage
    Phase.objects.filter(id=game.current_phase_id).update(deadline=deadline)

    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.json()["phases"]["detail"] == "1 phases overdue, the oldest by 300s"
    assert _metric(client.get("/metrics").content.decode(), "dipserver_phases_overdue") == 1

    workers.start()
    workers.beat()
    moved = wait_for(
        lambda: Phase.objects.get(id=game.current_phase_id).deadline != deadline,
        timeout=60,
        what="beat's first sweep to move the deadline on",
    )
    assert moved
    phase = Phase.objects.get(id=game.current_phase_id)
    outage = phase.deadline - deadline
    assert dt.timedelta(minutes=30) <= outage <= dt.timedelta(minutes=32)
    assert phase.status == Phase.Status.OPEN  # its players keep the time the site took from them
    time.sleep(2)
    assert phases_due_sweep() == []
    assert "processed" not in workers.outcomes()
    wait_for(lambda: client.get("/healthz").status_code == 200, timeout=90, what="the heartbeat")


def test_metrics_count_the_messages_waiting_in_redis(workers: Workers, client: Client) -> None:
    queue = f'dipserver_queue_messages{{queue="{workers.queue}"}}'
    games = [due_game(f"waiting{n}") for n in range(3)]  # each start's announcement waits in the queue
    before = _metric(client.get("/metrics").content.decode(), queue)
    assert len(phases_due_sweep()) == len(games)  # no worker: the messages wait in Redis
    text = client.get("/metrics").content.decode()
    assert _metric(text, queue) == before + 3
    assert _metric(text, "dipserver_broker_up") == 1
    assert _metric(text, "dipserver_phases_due") == 3
