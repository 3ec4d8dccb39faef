"""Recovery within seconds on real PostgreSQL, Redis, Celery workers and beat: phases queued before the
broker lost its messages, and results whose task never reached the broker (the process died between the
commit and the publish), are queued again by the first sweeps, each once.

The broker's loss is this run's own Redis database emptied (FLUSHDB), what a Redis restarted without its
data leaves, without stopping a Redis server that others may share."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from unittest import mock
from urllib.parse import urlsplit

import pytest

from dipserver.core.broker_sentinel import broker_lost_messages
from dipserver.games.models import Phase
from dipserver.games.services.announcements import PUBLISH_WINDOW
from dipserver.games.services.phases import Processed, phase_process, phases_due_sweep
from dipserver.notices.models import Notification

from .conftest import Workers, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The sweep runs every second; a worker and beat need a few seconds to start.
WITHIN_SECONDS = 30.0


def _flushdb(redis_url: str) -> None:
    parts = urlsplit(redis_url)
    db = (parts.path or "/0").strip("/") or "0"
    cli = ["redis-cli", "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 6379), "-n", db]
    subprocess.run([*cli, "flushdb"], check=True, capture_output=True, timeout=30)


def test_phases_queued_before_the_broker_lost_its_messages_are_processed_within_seconds_once(
    workers: Workers, redis_url: str, wait_for: Callable[..., object]
) -> None:
    assert broker_lost_messages()  # a new broker: the sentinel is put
    assert not broker_lost_messages()
    games = [due_game(f"lost{n}") for n in range(3)]
    assert len(phases_due_sweep()) == 3  # in Redis, no worker yet
    _flushdb(redis_url)  # Redis restarted without its data

    lost_at = time.monotonic()
    workers.start()
    workers.beat()
    wait_for(
        lambda: all(processed_once(g) for g in games),
        timeout=WITHIN_SECONDS,
        what="the phases lost with the broker's data to be queued again and processed",
    )
    took = time.monotonic() - lost_at
    print(f"phases lost with the broker processed {took:.1f}s after (re-queue time was 300 s)")
    time.sleep(2)  # a few more sweeps: nothing is queued twice
    assert sorted(workers.outcomes()) == ["processed"] * 3
    assert workers.errors() == []


def test_results_whose_task_never_reached_the_broker_are_told_within_seconds(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    broker_lost_messages()  # this queue's sentinel is in place: the broker itself loses nothing here
    workers.start()
    workers.beat()
    game = due_game("unpublished")
    # The processing process dies between its commit and the publish: nothing reaches the broker.
    with mock.patch("dipserver.games.services.phases.told_later"):
        assert phase_process(phase_id=game.current_phase_id) is Processed.DONE
    committed = time.monotonic()
    assert Phase.objects.get(id=game.current_phase_id).announce_due is not None

    wait_for(
        lambda: Notification.objects.filter(game=game, kind="phase_processed").count() == 7,
        timeout=PUBLISH_WINDOW.total_seconds() + WITHIN_SECONDS,
        what="the results to be told by the sweep",
    )
    took = time.monotonic() - committed
    print(f"results lost between commit and publish told {took:.1f}s after the commit (was 300 s)")
    assert PUBLISH_WINDOW.total_seconds() - 1 < took < PUBLISH_WINDOW.total_seconds() + 10
    wait_for(lambda: Phase.objects.get(id=game.current_phase_id).announce_due is None, what="told")


def test_a_phase_whose_task_never_reached_the_broker_is_processed_within_seconds_once(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    import datetime as dt

    from django.utils import timezone

    from dipserver.games.services.phases import phase_process_now

    broker_lost_messages()  # this queue's sentinel is in place: the broker itself loses nothing here
    game = due_game("unpublished-phase")
    Phase.objects.filter(game=game).update(deadline=timezone.now() + dt.timedelta(days=1))  # not due yet
    workers.start()
    workers.beat()
    # The web process that asked to process now dies between its commit and the publish: the phase is due
    # and marked queued in the database, but its task never reaches the broker.
    with mock.patch("dipserver.games.services.orders._phase_send"):
        phase_process_now(game_id=game.id)
    committed = time.monotonic()

    wait_for(
        lambda: processed_once(game),
        timeout=PUBLISH_WINDOW.total_seconds() + WITHIN_SECONDS,
        what="the phase to be queued again by the sweep and processed",
    )
    took = time.monotonic() - committed
    print(f"a phase lost between commit and publish processed {took:.1f}s after the commit (was 300 s)")
    assert PUBLISH_WINDOW.total_seconds() - 1 < took < PUBLISH_WINDOW.total_seconds() + 10
    time.sleep(3)  # a few more sweeps: nothing is queued twice
    assert workers.outcomes() == ["processed"]
    assert workers.errors() == []
