"""Deadline reminders: each player chooses how many hours before a deadline to hear that they have not
ordered yet (``NotificationPreferences.reminder_hours``; at most half the phase's length), and only powers
that still have to order hear.

The sweep (beat, with the due-phase sweep) reads the open phases whose deadline is near, the seats without
orders there and their players' preferences, a handful of queries however many games there are, and
loads a phase's snapshot only when somebody in it is due a reminder not yet sent. Whether a reminder was
sent is the outbox's key (phase, deadline, player): a deadline that moves gets reminders again.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Exists, OuterRef
from django.utils import timezone

from dipserver.accounts.selectors import preference_wants, preferences_of
from dipserver.games import notifications
from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.turn import powers_to_act
from dipserver.mail.models import Mail

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
    late = list(
        Power.objects.filter(
            game__current_phase_id__in=list(phases),
            status=Power.Status.ACTIVE,
            user__isnull=False,
        )
        .exclude(user__email="")
        .annotate(
            ordered=Exists(
                Order.objects.filter(phase_id=OuterRef("game__current_phase_id"), power=OuterRef("pk"))
            )
        )
        .filter(ordered=False)
        .values_list("id", "name", "user_id", "game__current_phase_id")
    )
    wants = preferences_of({user_id for _, _, user_id, _ in late})
    due: dict[int, list[tuple[int, str, str]]] = {}
    for power_id, name, user_id, phase_id in late:
        choice = wants[user_id]
        chosen = choice.reminder_hours if choice.pk is not None else hours
        phase = phases[phase_id]
        deadline = phase.deadline
        assert deadline is not None
        wanted = preference_wants(choice, Mail.Kind.DEADLINE_REMINDER)
        if not wanted or deadline - now > _window(phase, chosen):
            continue
        key = f"{Mail.Kind.DEADLINE_REMINDER}:phase:{phase_id}:{deadline.timestamp():.0f}:{user_id}"
        due.setdefault(phase_id, []).append((power_id, name, key))
    sent = set(
        Mail.objects.filter(key__in=[k for seats in due.values() for _, _, k in seats]).values_list(
            "key", flat=True
        )
    )
    queued = 0
    for phase_id, seats in due.items():
        fresh = [(power_id, name) for power_id, name, key in seats if key not in sent]
        if not fresh:
            continue
        acting = powers_to_act(Phase.objects.values_list("snapshot", flat=True).get(id=phase_id))
        power_ids = [power_id for power_id, name in fresh if name in acting]
        if power_ids:
            ids = {"phase_id": phase_id, "power_ids": power_ids, "now": now}
            notifications.announced.send(sender="deadline_reminder_send", ids=ids)
        # Written to the outbox at once (the sweep runs in a worker), so the next sweep finds them.
        if power_ids and notifications.deadline_reminder_send(
            phase_id=phase_id, power_ids=power_ids, now=now
        ):
            queued += 1
    return queued


def _window(phase: Phase, chosen_hours: int) -> dt.timedelta:
    """How long before the deadline to remind: the player's choice, but never more than half the phase,
    so a reminder never lands as the phase opens (24 hours before a 24-hour phase would)."""
    minutes = phase.game.phase_minutes.get(phase.name[-1], 24 * 60)
    return min(dt.timedelta(hours=chosen_hours), dt.timedelta(minutes=minutes / 2))
