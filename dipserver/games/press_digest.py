"""The press digest: for players who chose it, one mail a day with the press they have not read yet.

The beat sweep (``dipserver.games.press_digest_sweep``, hourly) picks the players whose last digest is a
day old, gathers the messages addressed to them (or public) in each of their games but those they muted,
newer than the last digest and not read on the site, and puts one mail in the outbox. Its key is the
player and the newest message in it, so a sweep that runs twice mails once; the preference row remembers
how far it got only after the mail is in the outbox, so a crash between the two sends the same digest
again, never none.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from dipserver.accounts.models import NotificationPreferences
from dipserver.games.models import Game, Power
from dipserver.games.press_channels import SeenMessage
from dipserver.games.selectors import press_marks, press_seen
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue
from dipserver.mail.unsubscribe import site_url

DIGEST_EVERY = dt.timedelta(hours=24)


def press_digests_send(*, now: dt.datetime | None = None) -> int:
    """Queue the digests that are due; returns how many were new."""
    now = now or timezone.now()
    due = (
        NotificationPreferences.objects.filter(
            Q(press_digest_at__isnull=True) | Q(press_digest_at__lte=now - DIGEST_EVERY),
            press=NotificationPreferences.Press.DIGEST,
            user__is_active=True,
        )
        .exclude(user__email="")
        .select_related("user")
    )
    sent = 0
    for preferences in due:
        sent += _digest_send(preferences, now)
    return sent


def _digest_send(preferences: NotificationPreferences, now: dt.datetime) -> int:
    user = preferences.user
    seats = Power.objects.filter(
        user=user, game__status__in=(Game.Status.ACTIVE, Game.Status.PAUSED)
    ).select_related("game")
    sections: list[str] = []
    newest, count = preferences.press_digest_upto, 0
    for seat in seats:
        if user.id in seat.game.muted_by:  # a muted game's press waits on its page
            continue
        unread = _unread(seat, after=preferences.press_digest_upto)
        if unread:
            newest, count = max(newest, unread[-1].message.id), count + len(unread)
            lines = [
                f"{(s.sender or 'Anonymous').title()} ({_audience(s, seat)}): {s.message.body}"
                for s in unread
            ]
            link = site_url(reverse("game", args=[seat.game_id]))
            sections.append(f"{seat.game.name}, as {seat.name.title()}:\n" + "\n".join(lines) + f"\n{link}")
    if not sections:
        return 0
    mail = Outgoing(
        key=f"{Mail.Kind.PRESS}:digest:{user.id}:{newest}",
        kind=Mail.Kind.PRESS,
        to=user.email,
        subject=f"dipserver: {count} unread press message{'s' if count != 1 else ''}",
        body="Press you have not read yet:\n\n" + "\n\n".join(sections) + "\n",
        user_id=user.id,
    )
    new = len(mail_queue([mail], now=now))
    preferences.press_digest_at, preferences.press_digest_upto = now, newest
    preferences.save(update_fields=["press_digest_at", "press_digest_upto", "updated_at"])
    return new


def _unread(seat: Power, *, after: int) -> list[SeenMessage]:
    """Press to ``seat`` from others, as it sees it, newer than ``after`` and than what it has read."""
    marks = press_marks(seat=seat)
    return [
        seen
        for seen in press_seen(game=seat.game, seat=seat)
        if not seen.mine and seen.message.id > after and seen.message.id > marks.get(seen.channel, 0)
    ]


def _audience(seen: SeenMessage, seat: Power) -> str:
    """Whom it was sent to, as the reader sees it (anonymous press names only the reader)."""
    if not seen.recipients:
        return "public"
    return "to " + ", ".join("you" if name == seat.name else name.title() for name in seen.recipients)
