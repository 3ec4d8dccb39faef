"""Announcements that reach every channel even when their task is lost between the commit and the broker
(a game's start and end, press, a move to a newer studio version, deadline reminders, phase results).

An event's service calls ``announcement_later`` inside its transaction: an ``Announcement`` row written in
that transaction says the event is still to be told, ``PUBLISH_WINDOW`` ahead, and the task is queued on
commit (``told_later``); once the broker has the task, the row is due ``REQUEUE_AFTER`` ahead instead. A
process that died between the commit and the publish thus leaves the event due within seconds, not
minutes. The task deletes the row once every channel (mail outbox, inbox, webhooks) has
its rows; ``announcements_due_sweep`` queues again what is still there when its time has passed, each due
again ``REQUEUE_AFTER`` later. A processed phase's results are told the same way with
``Phase.announce_due`` in place of a row (set by the UPDATE that saves them). With the broker unreachable
at the commit, the event is due at once instead and what was asked for is answered as usual. Every
channel stores by key, so telling twice tells nobody twice.

Deadline reminders are told by the reminder sweep itself (``services.reminders``), which keeps a row
(``announcement_kept``) from its transaction until the mails are in the outbox; a sweep that died between
the two leaves the row, and the task queued for it tells the reminders of the game's open phase again
(``notifications.told_ids``).

A task deletes only the rows it saw before telling (``announcements_pending``): a row written meanwhile (a
game that ended, was reverted and ended again while the first end was being told) is another event, and
stays until its own task has told it.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from typing import Any

from django.db import transaction
from django.db.models import QuerySet, Value
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from dipserver.games import notifications
from dipserver.games.jobs import job_send
from dipserver.games.models import Announcement, Phase

# A job still not done this long after it was queued (an announcement untold, a phase due and unprocessed)
# is queued again: its message was lost (Redis restarted without its data, the process died between the
# commit and the publish). Redelivery after a worker crash is the broker's business (acks_late).
REQUEUE_AFTER = dt.timedelta(minutes=5)
# How long an event recorded as untold (or a phase marked queued) may wait for its task to reach the broker
# (the publish that follows the commit, normally milliseconds): past this, and not yet marked as published,
# its message never left.
PUBLISH_WINDOW = dt.timedelta(seconds=10)

PHASE_RESULTS = "phase_results_send"
REMINDERS = "deadline_reminder_send"
# The senders whose events keep an ``Announcement`` row until told -> the row's column their one argument
# names (a reminder's row names its game: told again, the reminders of its open phase are).
DURABLE = {
    "game_started_send": "game_id",
    "game_ended_send": "game_id",
    "press_send": "message_id",
    "version_changed_send": "change_id",
    REMINDERS: "game_id",
}

# (sender, its arguments): one announcement queued again by the sweep.
Queued = tuple[str, dict[str, Any]]

logger = logging.getLogger(__name__)


def announcement_later(
    name: str,
    *,
    game_id: int,
    message_id: int | None = None,
    change_id: int | None = None,
    now: dt.datetime | None = None,
) -> None:
    """Run the sender ``name`` for the game (or its press ``message_id``, or its version change
    ``change_id``) once the current transaction commits, and record in it that the event is untold (the
    row goes with the game, the message and the change)."""
    ids = _ids(name, game_id, message_id, change_id)
    kept = announcement_kept(
        name, game_id=game_id, message_id=message_id, change_id=change_id, now=now, due_in=PUBLISH_WINDOW
    )
    if kept is not None:
        told_later(name, ids)


def announcement_kept(
    name: str,
    *,
    game_id: int,
    message_id: int | None = None,
    change_id: int | None = None,
    now: dt.datetime | None = None,
    due_in: dt.timedelta = REQUEUE_AFTER,
) -> int | None:
    """Record in the current transaction that the event is untold, due to be queued again by the sweep
    ``due_in`` from ``now``; the row's id (None inside ``notifications_muted``: nothing to tell)."""
    _ids(name, game_id, message_id, change_id)
    if not notifications.notifications_on():
        return None
    due = (now or timezone.now()) + due_in
    row = Announcement.objects.create(
        game_id=game_id, message_id=message_id, change_id=change_id, sender=name, due=due
    )
    return row.id


def told_later(name: str, ids: dict[str, Any]) -> None:
    """Queue the task that tells a recorded event once the current transaction commits (a rollback sends
    nothing; inside ``notifications_muted``, nothing either)."""
    if name not in notifications.SENDERS:
        raise ValueError(f"No notification called {name!r}")
    if notifications.notifications_on():
        transaction.on_commit(functools.partial(_told_send, name, ids))


def _told_send(name: str, ids: dict[str, Any]) -> None:
    """Send the task, then mark the event as published: due again only ``REQUEUE_AFTER`` later (a task that
    has already told it left nothing to mark). With the broker unreachable the event stays untold and is
    due at once, so what was asked for (press, a game's start or end) stands and is answered, and the
    first sweep once the broker is back queues it."""
    due = "announce_due" if name == PHASE_RESULTS else "due"
    try:
        job_send("notification_send", name, ids)
    except BrokerUnreachable as exc:
        logger.warning("broker unreachable, %s %s is left to the sweep: %s", name, ids, exc)
        _untold(name, ids).update(**{due: timezone.now()})
        return
    later = timezone.now() + REQUEUE_AFTER
    _untold(name, ids).filter(**{f"{due}__lt": later}).update(**{due: later})


def phase_results_resumed(phase_id: int, *, now: dt.datetime | None = None) -> bool:
    """A phase's task found the phase already processed: if its results are still untold and due (the
    process that processed it died before the broker had their task), queue them now. The claim is the
    sweep's own (``announce_due`` moved on by the UPDATE that finds it due), so they are queued once."""
    now = now or timezone.now()
    claimed = Phase.objects.filter(id=phase_id, announce_due__lte=now).update(
        announce_due=now + REQUEUE_AFTER
    )
    if claimed:
        told_later(PHASE_RESULTS, {"phase_id": phase_id})
    return bool(claimed)


def _untold(name: str, ids: dict[str, Any]) -> QuerySet[Phase] | QuerySet[Announcement]:
    """The record that says the event is untold: its phase (results), or its announcement rows (every row
    of the event: a game that ended, was reverted and ended again has two)."""
    if name == PHASE_RESULTS:
        return Phase.objects.filter(id=ids["phase_id"], announce_due__isnull=False)
    arg = DURABLE[name]
    return Announcement.objects.filter(sender=name, **{arg: ids[arg]})


def _ids(
    name: str, game_id: int, message_id: int | None = None, change_id: int | None = None
) -> dict[str, int]:
    """The sender's arguments, from the row's columns."""
    arg = DURABLE.get(name)
    value = {"message_id": message_id, "change_id": change_id}.get(arg or "", game_id)
    if arg is None or value is None:
        raise ValueError(
            f"No announcement of {name!r} is recorded for game {game_id}, message {message_id}, "
            f"version change {change_id}"
        )
    return {arg: value}


def announcements_pending(name: str, ids: dict[str, Any]) -> list[int] | None:
    """The rows that say the event is untold, read before it is told (None: the sender keeps no rows, or
    its arguments name none, as the reminder sweep's own do)."""
    arg = DURABLE.get(name)
    if arg is None or arg not in ids:
        return None
    return list(_untold(name, ids).values_list("id", flat=True))


def announcement_told(
    *,
    name: str,
    ids: dict[str, Any],
    rows: list[int] | None = None,
    processed_at: dt.datetime | None = None,
) -> None:
    """Every channel has the event's rows: the sweep queues it no more. ``rows``: the ones
    ``announcements_pending`` read before telling, the only ones deleted (default: every row of the event).
    ``processed_at``: the results told were of the phase processed then (one reverted and processed again
    meanwhile keeps its new results untold)."""
    if name == PHASE_RESULTS:
        told = {"processed_at": processed_at} if processed_at is not None else {}
        Phase.objects.filter(id=ids["phase_id"], **told).update(announce_due=None)
    elif rows is not None:
        if rows:
            Announcement.objects.filter(id__in=rows).delete()
    elif DURABLE.get(name) in ids:
        _untold(name, ids).delete()


def _any_due(now: dt.datetime) -> bool:
    """One short query on the two small indexes (untold phases, announcement rows) whether any is due."""
    phases = Phase.objects.filter(announce_due__lte=now).order_by().values_list(Value(1))
    rows = Announcement.objects.filter(due__lte=now).order_by().values_list(Value(1))
    return bool(phases.union(rows, all=True)[:1])


def announcements_due_sweep(*, now: dt.datetime | None = None, limit: int = 1000) -> list[Queued]:
    """Queue again every announcement whose time has passed and that is still not told (its task message
    was lost), each due again ``REQUEUE_AFTER`` later; rows being handled are skipped. Beat runs this every
    second with ``phases_due_sweep``: one short query when nothing is due."""
    now = now or timezone.now()
    if not _any_due(now):
        return []
    again = now + REQUEUE_AFTER
    with transaction.atomic():
        phases = list(
            Phase.objects.select_for_update(skip_locked=True)
            .filter(announce_due__lte=now)
            .order_by()
            .values_list("id", flat=True)[:limit]
        )
        if phases:
            Phase.objects.filter(id__in=phases).update(announce_due=again)
        rows = list(
            Announcement.objects.select_for_update(skip_locked=True)
            .filter(due__lte=now)
            .order_by("due")
            .values_list("id", "sender", "game_id", "message_id", "change_id")[:limit]
        )
        if rows:
            Announcement.objects.filter(id__in=[row[0] for row in rows]).update(due=again)
        queued = [(PHASE_RESULTS, {"phase_id": p}) for p in phases]
        queued += [(row[1], _ids(*row[1:])) for row in rows]
        for name, ids in queued:
            told_later(name, ids)
    return queued
