"""The results of a phase reach every channel even when their task is lost between the commit and the
broker: the processed phase stays untold (``announce_due``) until the task has run, and the sweep queues
it again once that time has passed: seconds when the task never reached the broker, minutes once it did.
Telling twice tells nobody twice."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from dipserver.games.models import Phase
from dipserver.games.services.announcements import PUBLISH_WINDOW, announcement_told, phase_results_resumed
from dipserver.games.services.phases import REQUEUE_AFTER, Processed, announcements_due_sweep, phase_process
from dipserver.games.tasks import phase_process as phase_task
from dipserver.notices.models import Notification
from tests.server.test_processing import LATE
from tests.server.test_processing_cost import _fully_ordered


@pytest.fixture
def processed(db, django_capture_on_commit_callbacks):
    """A processed standard phase whose results task never reached the broker (its callbacks kept)."""
    players = [get_user_model().objects.create(username=f"told{i}") for i in range(7)]
    game = _fully_ordered(players)
    announcement_told(name="game_started_send", ids={"game_id": game.id})  # its start was told: not news here
    phase_id = game.current_phase_id
    with django_capture_on_commit_callbacks() as lost:
        assert phase_process(phase_id=phase_id, now=LATE) is Processed.DONE
    return game, phase_id, players, lost


def _results(phase_id: int):
    """The sweep's record of the phase's results queued again."""
    return ("phase_results_send", {"phase_id": phase_id})


def _told(game) -> list[int]:
    return sorted(Notification.objects.filter(game=game).values_list("user_id", flat=True))


def test_a_results_task_that_never_reached_the_broker_is_queued_again_within_seconds(
    processed, django_capture_on_commit_callbacks
):
    """The process died between the commit and the publish: once the publish window has passed."""
    game, phase_id, players, _lost = processed
    assert announcements_due_sweep(now=LATE + PUBLISH_WINDOW - dt.timedelta(seconds=1)) == []
    with django_capture_on_commit_callbacks(execute=True):
        assert announcements_due_sweep(now=LATE + PUBLISH_WINDOW) == [_results(phase_id)]
    assert _told(game) == sorted(p.id for p in players)
    assert Phase.objects.get(id=phase_id).announce_due is None
    assert announcements_due_sweep(now=LATE + 10 * REQUEUE_AFTER) == []


def test_a_results_task_the_broker_has_is_queued_again_only_after_the_requeue_time(processed):
    """Published (the broker took it): not queued again while it may still be on its way to a worker."""
    _game, phase_id, _players, lost = processed
    with mock.patch("dipserver.games.services.announcements.job_send"):  # the broker takes it, nobody runs it
        for callback in lost:
            callback()
    published = timezone.now()
    assert announcements_due_sweep(now=published + REQUEUE_AFTER - dt.timedelta(seconds=2)) == []
    assert announcements_due_sweep(now=published + REQUEUE_AFTER + dt.timedelta(seconds=2)) == [
        _results(phase_id)
    ]


def test_a_phase_task_that_finds_its_phase_processed_queues_its_untold_results_once(
    processed, django_capture_on_commit_callbacks
):
    """The worker that processed it died before publishing; the redelivered task tells the results."""
    game, phase_id, players, _lost = processed
    with django_capture_on_commit_callbacks(execute=True) as told:
        assert phase_task(phase_id) == str(Processed.NOT_DUE)
    assert len(told) == 1
    assert _told(game) == sorted(p.id for p in players)
    with django_capture_on_commit_callbacks(execute=True) as again:
        assert phase_task(phase_id) == str(Processed.NOT_DUE)  # a third message: nothing left to tell
    assert again == []


def test_results_within_their_publish_window_are_left_to_the_publisher(processed):
    """A duplicate task right after the commit must not queue what the processing worker is publishing."""
    _game, phase_id, _players, _lost = processed
    assert not phase_results_resumed(phase_id, now=LATE + PUBLISH_WINDOW - dt.timedelta(seconds=1))
    assert phase_results_resumed(phase_id, now=LATE + PUBLISH_WINDOW)
    assert not phase_results_resumed(phase_id, now=LATE + PUBLISH_WINDOW)  # claimed: once


def test_a_results_task_that_ran_leaves_nothing_to_the_sweep(processed):
    game, phase_id, players, lost = processed
    for callback in lost:
        callback()
    assert Phase.objects.get(id=phase_id).announce_due is None
    assert announcements_due_sweep(now=LATE + 10 * REQUEUE_AFTER) == []
    assert _told(game) == sorted(p.id for p in players)


def test_a_task_queued_again_while_the_first_is_still_coming_tells_each_player_once(
    processed, django_capture_on_commit_callbacks
):
    game, phase_id, players, lost = processed
    with django_capture_on_commit_callbacks() as again:
        assert announcements_due_sweep(now=LATE + REQUEUE_AFTER) == [_results(phase_id)]
    for callback in [*lost, *again]:  # the first message was only slow: both arrive
        callback()
    assert _told(game) == sorted(p.id for p in players)


def test_an_untold_phase_queued_again_waits_its_time_before_the_next_try(processed):
    _game, phase_id, _players, _lost = processed
    assert announcements_due_sweep(now=LATE + REQUEUE_AFTER) == [_results(phase_id)]  # and lost again
    assert announcements_due_sweep(now=LATE + 2 * REQUEUE_AFTER - dt.timedelta(seconds=1)) == []
    assert announcements_due_sweep(now=LATE + 2 * REQUEUE_AFTER) == [_results(phase_id)]


def test_results_told_of_an_earlier_processing_leave_the_new_results_untold(processed):
    """Processed, reverted and processed again while the first results were being told: the first task
    clears nothing of the second processing, whose own task (or the sweep) tells it."""
    _game, phase_id, _players, _lost = processed
    first = Phase.objects.get(id=phase_id)
    later = first.processed_at + dt.timedelta(minutes=1)
    Phase.objects.filter(id=phase_id).update(processed_at=later)  # as processing it again leaves it
    announcement_told(name="phase_results_send", ids={"phase_id": phase_id}, processed_at=first.processed_at)
    assert Phase.objects.get(id=phase_id).announce_due == first.announce_due
    announcement_told(name="phase_results_send", ids={"phase_id": phase_id}, processed_at=later)
    assert Phase.objects.get(id=phase_id).announce_due is None
