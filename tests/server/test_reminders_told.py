"""Deadline reminders survive a sweep that dies between its commit and the mails (issue 19): the sweep's
transaction keeps an ``Announcement`` row until the mails are in the outbox, and ``announcements_due_sweep``
has a row still there told again, once its time has passed, to every player reminded of the deadline; each
channel stores by key, so nobody hears twice. A task deletes only the rows it saw before telling."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.games import notifications
from dipserver.games.models import Announcement, Game
from dipserver.games.services.announcements import REMINDERS, REQUEUE_AFTER, announcements_due_sweep
from dipserver.games.services.phases import Processed, phase_process, phase_reminders_sweep
from dipserver.games.tasks import notification_send
from dipserver.mail.models import Mail
from dipserver.notices.models import Notification


def _deadline(game: Game) -> dt.datetime:
    game.refresh_from_db()
    assert game.current_phase is not None and game.current_phase.deadline is not None
    return game.current_phase.deadline


def _reminders(game: Game) -> tuple[int, int]:
    """(mails, inbox notices) of the game's deadline reminders."""
    return (
        Mail.objects.filter(kind=Mail.Kind.DEADLINE_REMINDER).count(),
        Notification.objects.filter(kind="deadline_reminder", game=game).count(),
    )


def _untold(game: Game) -> list[Announcement]:
    return list(Announcement.objects.filter(game=game, sender=REMINDERS))


@pytest.fixture
def died(game, monkeypatch) -> dt.datetime:
    """The sweep reminds the seven players and dies before their mails are queued; when it ran."""
    at = _deadline(game) - dt.timedelta(hours=12)

    def crash(**ids):
        raise SystemExit("the worker was killed")

    monkeypatch.setattr(notifications, "deadline_reminder_send", crash)
    with pytest.raises(SystemExit):
        phase_reminders_sweep(now=at)
    monkeypatch.undo()
    assert _reminders(game) == (0, 7)  # the inbox was written with the reminders; the mails never were
    return at


def test_a_reminder_sweep_that_completes_leaves_nothing_untold(game):
    assert phase_reminders_sweep(now=_deadline(game) - dt.timedelta(hours=12)) == 1
    assert _reminders(game) == (7, 7)
    assert _untold(game) == []


def test_reminders_whose_mails_were_lost_are_told_again_once_their_time_has_passed(
    game, died, django_capture_on_commit_callbacks
):
    assert [row.due for row in _untold(game)] == [died + REQUEUE_AFTER]
    queued = (REMINDERS, {"game_id": game.id})
    assert queued not in announcements_due_sweep(now=died + dt.timedelta(minutes=4))
    with django_capture_on_commit_callbacks(execute=True):
        assert queued in announcements_due_sweep(now=died + REQUEUE_AFTER)
    assert _reminders(game) == (7, 7)  # the mails now; the inbox heard nothing twice
    assert _untold(game) == []
    assert phase_reminders_sweep(now=died + REQUEUE_AFTER) == 0  # and the sweep reminds nobody again


def test_reminders_told_again_after_their_phase_was_processed_tell_nothing(game, died):
    game.refresh_from_db()
    assert phase_process(phase_id=game.current_phase_id, force=True) is Processed.DONE
    assert notification_send(REMINDERS, {"game_id": game.id}) == 0
    assert _reminders(game) == (0, 7)
    assert _untold(game) == []  # nothing left to tell: not queued again


def test_a_task_deletes_only_the_rows_it_saw_before_telling(game, monkeypatch):
    """An event written while an earlier one is being told (a game ended, reverted and ended again) keeps
    its row until its own task has run."""
    first = Announcement.objects.create(game=game, sender="game_ended_send", due=dt.datetime.now(dt.UTC))
    real = notifications.game_ended_send

    def meanwhile(**ids):
        Announcement.objects.create(game=game, sender="game_ended_send", due=dt.datetime.now(dt.UTC))
        return real(**ids)

    monkeypatch.setattr(notifications, "game_ended_send", meanwhile)
    notification_send("game_ended_send", {"game_id": game.id})
    left = list(Announcement.objects.filter(game=game, sender="game_ended_send"))
    assert len(left) == 1 and left[0].id != first.id
