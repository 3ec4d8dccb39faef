"""Exactly-once phase processing against PostgreSQL, Redis and real Celery worker processes.

Each test starts the workers it needs on a queue of its own. To catch a worker *in the middle* of
processing, the test holds a row lock the worker needs after it has claimed the phase (a Power row): the
worker then waits inside its transaction, with the claim written but not committed.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_deadline_extend, phases_due_sweep
from dipserver.games.tasks import phase_process

from .conftest import Workers, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def worker_waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # activity is snapshotted once per transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def test_a_duplicated_message_processes_the_phase_once(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    game = due_game("dup")

    phase_process.delay(game.current_phase_id)
    phase_process.delay(game.current_phase_id)

    wait_for(lambda: len(workers.outcomes()) == 2, what="both messages")
    assert sorted(workers.outcomes()) == ["not due", "processed"]
    assert processed_once(game)


def test_two_racing_workers_process_every_phase_exactly_once(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    workers.start()
    games = [due_game(f"race{n}") for n in range(6)]

    for game in games:
        for _ in range(3):  # every phase queued three times, the copies spread over both workers
            phase_process.delay(game.current_phase_id)

    wait_for(lambda: len(workers.outcomes()) == 18, timeout=90, what="all 18 messages")
    assert workers.outcomes().count("processed") == 6
    assert all(processed_once(game) for game in games)
    assert workers.errors() == []


def test_a_worker_killed_mid_processing_leaves_nothing_half_written(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    victim = workers.start()
    game = due_game("kill")
    phase_id = game.current_phase_id

    with transaction.atomic():
        # The worker locks the game, claims the phase, then waits for this Power row: mid-transaction.
        Power.objects.select_for_update().filter(game=game).order_by("id").first()
        phase_process.delay(phase_id)
        wait_for(worker_waiting_on_a_lock, what="the worker to be mid-processing")
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)

    assert Phase.objects.get(id=phase_id).status == Phase.Status.OPEN  # the claim was rolled back
    assert Phase.objects.filter(game=game).count() == 1

    workers.start()
    # The orphaned server process notices its client is gone only once it gets the lock we held: until
    # it has rolled back, the sweep skips the still-locked row; then it finds the phase again.
    wait_for(lambda: phases_due_sweep() == [phase_id], what="the sweep to find the phase again")
    wait_for(lambda: processed_once(game), what="the phase to be processed after the crash")


def test_orders_arriving_during_processing_wait_and_are_refused_with_the_phase_name(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    game = due_game("during")
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() + dt.timedelta(hours=1))
    england = Power.objects.get(game=game, name="ENGLAND")
    orders_submit(game_id=game.id, user=england.user, text="F LON - NTH")  # before: part of the phase
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now())
    france = Power.objects.select_related("user").get(game=game, name="FRANCE")
    answer: list[object] = []

    def late_orders() -> None:
        try:
            orders_submit(game_id=game.id, user=france.user, text="A PAR - BUR", phase="S1901M")
        except GameError as exc:
            answer.append(str(exc))
        finally:
            connections.close_all()

    with transaction.atomic():
        Power.objects.select_for_update().filter(game=game).order_by("id").first()
        phase_process.delay(game.current_phase_id)
        wait_for(worker_waiting_on_a_lock, what="the worker to be mid-processing")
        late = threading.Thread(target=late_orders)
        late.start()

    late.join(timeout=60)
    wait_for(lambda: processed_once(game), what="processing")
    assert answer == ["The Spring 1901 deadline has passed"]
    assert Phase.objects.get(game=game, index=0).orders == {"ENGLAND": ["F LON - NTH"]}


def test_a_deadline_extended_while_the_task_is_queued_is_respected(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    game = due_game("extend")

    with transaction.atomic():
        Game.objects.select_for_update().get(id=game.id)  # the task waits for the game behind this lock
        phase_process.delay(game.current_phase_id)
        wait_for(worker_waiting_on_a_lock, what="the queued task to start")
        phase_deadline_extend(game_id=game.id, deadline=timezone.now() + dt.timedelta(days=1))

    wait_for(lambda: workers.outcomes() == ["not due"], what="the task to give up")
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.OPEN


def test_the_sweep_queues_due_phases_for_the_worker(
    workers: Workers, wait_for: Callable[..., object]
) -> None:
    workers.start()
    games = [due_game(f"sweep{n}") for n in range(3)]

    queued = phases_due_sweep()

    assert sorted(queued) == sorted(g.current_phase_id for g in games)
    wait_for(lambda: all(processed_once(g) for g in games), what="the swept phases")
