"""The deadline sweep's policy: beat runs it every second; it queues each due phase once.

Deadlines stay database state: nothing is queued ahead of its deadline. A phase counts as queued until its
deadline moves past the time it was queued (extended, a grace period), or PUBLISH_WINDOW has passed and its
task never reached the broker (the process that queued it died between its commit and the publish), or
REQUEUE_AFTER has passed (its message was lost with the broker's data).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.games import tasks
from dipserver.games.models import Phase
from dipserver.games.services.announcements import PUBLISH_WINDOW
from dipserver.games.services.orders import power_ready_set
from dipserver.games.services.phases import (
    REQUEUE_AFTER,
    phase_deadline_extend,
    phase_process_now,
    phases_due_sweep,
)
from tests.server.conftest import seat
from tests.server.test_processing import LATE, SOON

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_beat_sweeps_every_second_and_drops_a_sweep_that_waited_in_the_queue():
    entry = settings.CELERY_BEAT_SCHEDULE["games-phases-due-sweep"]
    assert entry["task"] == "dipserver.games.phases_due_sweep"
    assert entry["schedule"] <= 1.0
    assert entry["options"] == {"expires": 2.0}
    reminders = settings.CELERY_BEAT_SCHEDULE["games-phase-reminders"]  # on their own, once a minute
    assert (reminders["task"], reminders["schedule"]) == (tasks.phase_reminders.name, 60.0)


@pytest.fixture
def published(monkeypatch, django_capture_on_commit_callbacks):
    """Runs a call as its transaction's commit would: the queued tasks reach the broker (kept here, not
    run), and the queuing is marked published. The phases the broker was given are in ``.phases``."""

    class Broker:
        def __init__(self) -> None:
            self.phases: list[int] = []

        def __call__(self, job):
            with django_capture_on_commit_callbacks(execute=True):
                return job()

    broker = Broker()
    monkeypatch.setattr(tasks.phase_process, "delay", broker.phases.append)
    return broker


def test_a_due_phase_is_queued_once_however_often_the_sweep_runs(game, published):
    assert published(lambda: phases_due_sweep(now=LATE)) == [game.current_phase_id]
    assert phases_due_sweep(now=LATE + dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=LATE + dt.timedelta(minutes=4)) == []
    assert published.phases == [game.current_phase_id]


def test_nothing_is_queued_before_its_deadline(game):
    deadline = Phase.objects.get(id=game.current_phase_id).deadline
    assert phases_due_sweep(now=deadline - dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=deadline) == [game.current_phase_id]


def test_a_phase_queued_then_extended_is_queued_again_at_its_new_deadline(game, published):
    assert published(lambda: phases_due_sweep(now=LATE)) == [game.current_phase_id]
    later = LATE + dt.timedelta(hours=1)
    phase_deadline_extend(game_id=game.id, deadline=later, now=LATE)  # the queued task finds it not due
    assert phases_due_sweep(now=later - dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=later) == [game.current_phase_id]


def test_a_phase_still_due_long_after_it_was_queued_is_queued_again(game, published):
    assert published(lambda: phases_due_sweep(now=LATE)) == [game.current_phase_id]
    assert phases_due_sweep(now=LATE + REQUEUE_AFTER - dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=LATE + REQUEUE_AFTER) == [game.current_phase_id]


def test_a_phase_whose_task_never_reached_the_broker_is_queued_again_within_seconds_once(game, published):
    # The sweep's process dies between its commit and the publish: its commit callbacks never run.
    assert phases_due_sweep(now=LATE) == [game.current_phase_id]
    assert phases_due_sweep(now=LATE + PUBLISH_WINDOW - dt.timedelta(seconds=1)) == []
    again = LATE + PUBLISH_WINDOW
    assert published(lambda: phases_due_sweep(now=again)) == [game.current_phase_id]
    assert phases_due_sweep(now=again + dt.timedelta(minutes=4)) == []  # published this time: once
    assert published.phases == [game.current_phase_id]


def test_the_last_ready_queues_the_phase_so_the_sweep_does_not(game, published):
    for power in POWERS:
        published(lambda power=power: power_ready_set(game_id=game.id, user=seat(game, power).user, now=SOON))
    assert phases_due_sweep(now=SOON + dt.timedelta(minutes=4)) == []
    assert published.phases == [game.current_phase_id]


def test_a_last_ready_whose_web_process_died_before_the_publish_is_queued_within_seconds(game, published):
    for power in POWERS[:-1]:
        power_ready_set(game_id=game.id, user=seat(game, power).user, now=SOON)
    # The last ready commits (the phase is due now) but its process dies before the task is published.
    power_ready_set(game_id=game.id, user=seat(game, POWERS[-1]).user, now=SOON)
    assert phases_due_sweep(now=SOON + dt.timedelta(seconds=1)) == []
    assert published(lambda: phases_due_sweep(now=SOON + PUBLISH_WINDOW)) == [game.current_phase_id]
    assert published.phases == [game.current_phase_id]


def test_process_now_queues_the_phase_so_the_sweep_does_not(game, published):
    published(lambda: phase_process_now(game_id=game.id, now=SOON))
    assert phases_due_sweep(now=SOON + dt.timedelta(minutes=4)) == []


def test_a_sweep_with_nothing_due_is_one_query(game):
    with CaptureQueriesContext(connection) as queries:
        phases_due_sweep(now=SOON)
    assert len([q for q in queries if "games_phase" in q["sql"]]) == 1
