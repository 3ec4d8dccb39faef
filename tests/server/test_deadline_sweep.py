"""The deadline sweep's policy: beat runs it every second; it queues each due phase once.

Deadlines stay database state: nothing is queued ahead of its deadline. A phase counts as queued until its
deadline moves past the time it was queued (extended, a grace period) or REQUEUE_AFTER has passed (its
message was lost with the broker's data).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dipserver.games import tasks
from dipserver.games.models import Phase
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


def test_a_due_phase_is_queued_once_however_often_the_sweep_runs(game):
    assert phases_due_sweep(now=LATE) == [game.current_phase_id]
    assert phases_due_sweep(now=LATE + dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=LATE + dt.timedelta(minutes=4)) == []


def test_nothing_is_queued_before_its_deadline(game):
    deadline = Phase.objects.get(id=game.current_phase_id).deadline
    assert phases_due_sweep(now=deadline - dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=deadline) == [game.current_phase_id]


def test_a_phase_queued_then_extended_is_queued_again_at_its_new_deadline(game):
    assert phases_due_sweep(now=LATE) == [game.current_phase_id]
    later = LATE + dt.timedelta(hours=1)
    phase_deadline_extend(game_id=game.id, deadline=later, now=LATE)  # the queued task finds it not due
    assert phases_due_sweep(now=later - dt.timedelta(seconds=1)) == []
    assert phases_due_sweep(now=later) == [game.current_phase_id]


def test_a_phase_still_due_long_after_it_was_queued_is_queued_again(game):
    assert phases_due_sweep(now=LATE) == [game.current_phase_id]
    assert phases_due_sweep(now=LATE + REQUEUE_AFTER) == [game.current_phase_id]


def test_the_last_ready_queues_the_phase_so_the_sweep_does_not(game):
    for power in POWERS:
        power_ready_set(game_id=game.id, user=seat(game, power).user, now=SOON)
    assert phases_due_sweep(now=SOON + dt.timedelta(seconds=1)) == []


def test_process_now_queues_the_phase_so_the_sweep_does_not(game):
    phase_process_now(game_id=game.id, now=SOON)
    assert phases_due_sweep(now=SOON + dt.timedelta(seconds=1)) == []


def test_a_sweep_with_nothing_due_is_one_query(game):
    with CaptureQueriesContext(connection) as queries:
        phases_due_sweep(now=SOON)
    assert len([q for q in queries if "games_phase" in q["sql"]]) == 1
