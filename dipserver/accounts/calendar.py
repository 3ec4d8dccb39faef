"""My deadlines as an iCalendar feed (RFC 5545): a private address that calendar apps fetch without
signing in. The address carries a signed token naming the account and its ``calendar_key``; a new key
(``services.calendar_key_renew``) makes every address given before answer 404."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core import signing
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from icalendar import Calendar, Event, vDuration

from dipserver.accounts.models import User
from dipserver.games.models import Game, Phase, Power
from dipserver.games.phase_names import game_phase_title
from dipserver.mail.unsubscribe import site_domain, site_url

SALT = "dipserver.accounts.calendar-feed"
# RFC 5545 wants an event's end after its start: a deadline is shown as a short event starting at it.
EVENT_LENGTH = dt.timedelta(minutes=15)
REFRESH = dt.timedelta(hours=1)
# Seats that still owe orders: an eliminated power has no deadlines.
SEATED = (Power.Status.ACTIVE, Power.Status.CIVIL_DISORDER)


@dataclass(frozen=True)
class Deadline:
    phase: Phase
    power: str


def calendar_token(user_id: int, key: str) -> str:
    """Without a timestamp (the feed does not expire), so the address stays the same until renewed."""
    return signing.Signer(salt=SALT).sign_object({"u": user_id, "k": key})


def calendar_address(user: User) -> str:
    """The absolute address of ``user``'s deadlines feed."""
    return site_url(reverse("calendar-feed", args=[calendar_token(user.id, user.calendar_key)]))


def calendar_owner(token: str) -> User | None:
    """The active account a feed token belongs to; None for a token not ours, altered, or revoked."""
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("k"), str):
        return None
    user = User.objects.filter(id=data["u"], is_active=True).first()
    if user is None or not user.calendar_key or not constant_time_compare(user.calendar_key, data["k"]):
        return None
    return user


def deadlines_of(user: User) -> list[Deadline]:
    """The open phases with a deadline of every game in play where ``user`` holds a seat that still
    orders, soonest first. A paused game's deadline is not a deadline until it resumes (it moves then)."""
    seats = Power.objects.filter(user=user, status__in=SEATED, game__status=Game.Status.ACTIVE)
    power_of = dict(seats.values_list("game_id", "name"))
    phases = (
        Phase.objects.filter(game_id__in=list(power_of), status=Phase.Status.OPEN, deadline__isnull=False)
        .select_related("game")
        .defer("snapshot", "orders", "results", "events", "game__options", "game__board")
        .order_by("deadline", "id")
    )
    return [Deadline(phase, power_of[phase.game_id]) for phase in phases]


def calendar_ics(user: User, now: dt.datetime | None = None) -> bytes:
    """The feed's body: one VEVENT per deadline, its UID fixed for the phase, its times in UTC."""
    stamp = now or timezone.now()
    calendar = Calendar()
    calendar.add("prodid", "-//dipserver//my deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"dipserver: {user.username}'s deadlines")
    # How often calendar apps should fetch the feed again (RFC 7986, and the older Microsoft name).
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    for deadline in deadlines_of(user):
        calendar.add_component(_event(deadline, stamp))
    return bytes(calendar.to_ical())


def _event(deadline: Deadline, stamp: dt.datetime) -> Event:
    phase, game = deadline.phase, deadline.phase.game
    assert phase.deadline is not None  # deadlines_of picks phases with one
    title = game_phase_title(game, phase.name)
    power = deadline.power.title() or "my seat"
    event = Event()
    event.add("uid", f"phase-{phase.id}@{site_domain()}")
    event.add("dtstamp", stamp.astimezone(dt.UTC))
    event.add("dtstart", phase.deadline.astimezone(dt.UTC))
    event.add("dtend", (phase.deadline + EVENT_LENGTH).astimezone(dt.UTC))
    event.add("summary", f"{game.name}: {title} deadline")
    event.add("description", f"Orders for {power} are due in {game.name}, {title}.")
    event.add("url", site_url(reverse("game", args=[game.id])))
    event.add("transp", "TRANSPARENT")  # a deadline does not make anyone busy
    return event
