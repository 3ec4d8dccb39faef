"""The outage guard: a deadline sweep that finds the last one long ago (beat or the workers were down)
moves the deadlines that passed meanwhile on by the outage's length, so nobody loses a turn to the site;
and a broker that lost its messages has what it held queued again at once."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.core.models import WorkerHeartbeat
from dipserver.games import tasks
from dipserver.games.models import Announcement, Game, Phase
from dipserver.games.services.orders import power_ready_set
from dipserver.games.services.phases import phases_due_sweep
from dipserver.games.services.recovery import (
    ALIVE_EVERY,
    SWEEP_ALIVE,
    in_flight_requeued,
    outage_guard,
    sweep_alive_at,
)
from tests.server.conftest import START, seat, started_game

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
DOWN = dt.timedelta(minutes=30)


@pytest.fixture
def outage(settings, game):
    """The sweep last ran just before the game's deadline; it runs again ``DOWN`` later."""
    settings.DIPSERVER_OUTAGE_MINUTES = 10
    deadline = Phase.objects.get(id=game.current_phase_id).deadline
    started = deadline - dt.timedelta(minutes=1)
    WorkerHeartbeat.objects.create(name=SWEEP_ALIVE, beat_at=started, hostname="h")
    return game, deadline, started, started + DOWN


def _deadline(game: Game) -> dt.datetime:
    return Phase.objects.get(id=game.current_phase_id).deadline


def test_the_first_sweep_records_that_it_runs(game):
    assert sweep_alive_at() is None
    assert outage_guard(now=START) is None
    assert sweep_alive_at() == START


def test_a_deadline_that_passed_during_an_outage_moves_on_by_its_length(outage):
    game, deadline, _started, back = outage
    assert outage_guard(now=back) == DOWN
    assert _deadline(game) == deadline + DOWN
    assert phases_due_sweep(now=back) == []  # not due: its players get the time the site took from them
    assert sweep_alive_at() == back


def test_a_short_gap_is_no_outage(outage):
    game, deadline, started, _back = outage
    assert outage_guard(now=started + dt.timedelta(minutes=9)) is None
    assert _deadline(game) == deadline


def test_a_phase_everyone_readied_during_the_outage_is_not_moved(outage):
    game, _deadline_then, started, back = outage
    readied = started + dt.timedelta(seconds=30)  # before the deadline, while the workers were down
    for power in POWERS:
        power_ready_set(game_id=game.id, user=seat(game, power).user, now=readied)
    assert outage_guard(now=back) == DOWN
    assert _deadline(game) == readied


def test_a_deadline_before_the_outage_is_not_moved(outage, users):
    game, _deadline_then, started, back = outage
    earlier = started - dt.timedelta(minutes=1)
    Phase.objects.filter(id=game.current_phase_id).update(deadline=earlier)
    outage_guard(now=back)
    assert _deadline(game) == earlier


def test_a_paused_game_is_not_moved(outage):
    game, deadline, _started, back = outage
    Game.objects.filter(id=game.id).update(status=Game.Status.PAUSED)
    outage_guard(now=back)
    assert _deadline(game) == deadline


def test_the_extension_can_be_turned_off(outage, settings):
    settings.DIPSERVER_OUTAGE_EXTEND = False
    game, deadline, _started, back = outage
    assert outage_guard(now=back) == DOWN
    assert _deadline(game) == deadline
    assert phases_due_sweep(now=back) == [game.current_phase_id]


def test_the_sweep_records_that_it_runs_at_most_every_few_seconds(outage):
    _game, _deadline_then, started, _back = outage
    outage_guard(now=started + ALIVE_EVERY / 2)
    assert sweep_alive_at() == started
    outage_guard(now=started + ALIVE_EVERY)
    assert sweep_alive_at() == started + ALIVE_EVERY


def test_phases_queued_before_the_broker_lost_its_messages_are_queued_again_at_once(
    game, monkeypatch, django_capture_on_commit_callbacks
):
    deadline = _deadline(game)
    monkeypatch.setattr(tasks.phase_process, "delay", lambda phase_id: None)  # the broker takes it
    with django_capture_on_commit_callbacks(execute=True):  # and the sweep marks it published
        assert phases_due_sweep(now=deadline) == [game.current_phase_id]
    lost_at = deadline + dt.timedelta(seconds=30)  # Redis restarted empty: the message is gone
    assert phases_due_sweep(now=lost_at) == []  # minutes before the re-queue would find it
    assert in_flight_requeued(before=lost_at) == (1, 0)
    assert phases_due_sweep(now=lost_at) == [game.current_phase_id]
    assert phases_due_sweep(now=lost_at + dt.timedelta(seconds=1)) == []  # once


def test_untold_announcements_are_due_at_once_after_a_loss(users):
    started_game(users)  # its start is told by an Announcement row
    Announcement.objects.all().update(due=START + dt.timedelta(minutes=5))
    count = Announcement.objects.count()
    assert count
    assert in_flight_requeued(before=START + dt.timedelta(seconds=30)) == (0, count)
    assert set(Announcement.objects.values_list("due", flat=True)) == {START + dt.timedelta(seconds=30)}


def test_one_loss_is_requeued_by_one_sweep(game):
    at = START + dt.timedelta(hours=1)
    assert in_flight_requeued(before=at) is not None
    assert in_flight_requeued(before=at + dt.timedelta(seconds=1)) is None  # a second sweep, same loss
    assert in_flight_requeued(before=at + dt.timedelta(minutes=1)) is not None  # a later loss
