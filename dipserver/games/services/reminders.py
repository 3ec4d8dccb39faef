"""Deadline reminders: each player chooses how many hours before a deadline to hear that they have not
ordered yet (``NotificationPreferences.reminder_hours``; at most half the phase's length), and only powers
that still have to order hear: those with no orders, and those with orders for some of their units only.

The sweep (beat, with the due-phase sweep) reads the open phases whose deadline is near, their seats and
their players' preferences, a handful of queries however many games there are, and loads a phase's
snapshot (to count each power's units) and its order counts only when somebody in it is due a reminder
not yet sent. A player is chosen by
whether they must act and the hours they chose, not by their address or mail switches: the reminder is
announced once (``notifications.announced``) and each channel decides how it arrives (webhooks for
everyone, the inbox unless the game is muted, mail only to a confirmed address with reminder mails on and
the game not muted). Whether a reminder was
announced is a ``Reminder`` row (phase, player, deadline), written in the same transaction as the
announcement, so each player hears once; a deadline that moves gets reminders again.

The mails are queued after that transaction commits; an ``Announcement`` row written in it says they are
still to come until they are in the outbox, so a sweep that dies in between (or whose mails fail to be
queued) leaves the reminders to ``announcements_due_sweep``, which has them told again
(``services.announcements``).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from dipserver.accounts.selectors import preferences_of
from dipserver.core.inserts import rows_inserted_once
from dipserver.games import notifications
from dipserver.games.models import Game, Phase, Power, Reminder
from dipserver.games.selectors import orders_short
from dipserver.games.services.announcements import REMINDERS, announcement_kept, announcement_told

# The most hours ahead a player may ask to be reminded (the account page offers up to this).
REMINDER_HOURS_MAX = 72


def phase_reminders_sweep(*, now: dt.datetime | None = None, hours: int = 24) -> int:
    """Queue reminders for every player whose chosen time before a deadline has come and whose power has
    to order and has not; ``hours`` is the choice of players who never saved preferences. Returns the
    number of phases with new reminders."""
    now = now or timezone.now()
    phases = {
        p.id: p
        for p in Phase.objects.filter(
            status=Phase.Status.OPEN,
            deadline__gt=now,
            deadline__lte=now + dt.timedelta(hours=max(hours, REMINDER_HOURS_MAX)),
            game__status=Game.Status.ACTIVE,
        )
        .select_related("game")
        .only("id", "name", "deadline", "game__phase_minutes")
    }
    if not phases:
        return 0
    seats = list(
        Power.objects.filter(
            game__current_phase_id__in=list(phases),
            status=Power.Status.ACTIVE,
            user__isnull=False,
        ).values_list("id", "name", "user_id", "game__current_phase_id")
    )
    wants = preferences_of({user_id for _, _, user_id, _ in seats})
    due: dict[int, list[tuple[int, str, int]]] = {}  # phase -> (power, its name, its player)
    for power_id, name, user_id, phase_id in seats:
        choice = wants[user_id]
        chosen = choice.reminder_hours if choice.pk is not None else hours
        phase = phases[phase_id]
        deadline = phase.deadline
        assert deadline is not None
        # When is the player's choice; whether a mail goes is the mail's (its switch, a confirmed address).
        if deadline - now > _window(phase, chosen):
            continue
        due.setdefault(phase_id, []).append((power_id, name, user_id))
    sent = set(Reminder.objects.filter(phase_id__in=list(due)).values_list("phase_id", "user_id", "deadline"))
    queued = 0
    for phase_id, due_seats in due.items():
        deadline = phases[phase_id].deadline
        assert deadline is not None  # the phases read have one
        fresh = [(p, name, u) for p, name, u in due_seats if (phase_id, u, deadline) not in sent]
        if not fresh:
            continue
        short = orders_short(phase_id, [power_id for power_id, _, _ in fresh])
        to_remind = [(power_id, user_id) for power_id, _, user_id in fresh if power_id in short]
        if to_remind and _announced(phases[phase_id], to_remind, now):
            queued += 1
    return queued


def _announced(phase: Phase, seats: list[tuple[int, int]], now: dt.datetime) -> bool:
    """Write each seat's (power, user) reminder and announce those written here (a concurrent sweep that
    wrote one first announces it instead); the inbox and webhooks store their news in the same
    transaction."""
    with transaction.atomic():
        rows = [(phase.id, user_id, phase.deadline) for _, user_id in seats]
        unique = ("phase_id", "user_id", "deadline")
        written = {u for (u,) in rows_inserted_once(Reminder, unique, rows, unique, returning=("user_id",))}
        power_ids = [power_id for power_id, user_id in seats if user_id in written]
        if not power_ids:
            return False
        ids = {"phase_id": phase.id, "power_ids": power_ids, "now": now}
        notifications.announced.send(sender=REMINDERS, ids=ids)
        untold = announcement_kept(REMINDERS, game_id=phase.game_id, now=now)
    # Mail (confirmed addresses only) after the commit: its task must find the outbox row it is sent.
    notifications.deadline_reminder_send(phase_id=phase.id, power_ids=power_ids, now=now)
    announcement_told(name=REMINDERS, ids={"game_id": phase.game_id}, rows=[untold] if untold else [])
    return True


def _window(phase: Phase, chosen_hours: int) -> dt.timedelta:
    """How long before the deadline to remind: the player's choice, but never more than half the phase,
    so a reminder never lands as the phase opens (24 hours before a 24-hour phase would)."""
    minutes = phase.game.phase_minutes.get(phase.name[-1], 24 * 60)
    return min(dt.timedelta(hours=chosen_hours), dt.timedelta(minutes=minutes / 2))
