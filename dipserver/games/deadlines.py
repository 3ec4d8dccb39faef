"""When a phase's orders are due: its length for the phase type, pushed to the game's time of day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dipserver.games.errors import GameError

DEFAULT_MINUTES = {"M": 24 * 60, "R": 12 * 60, "A": 12 * 60}
PHASE_TYPES = ("M", "R", "A")


def phase_minutes_checked(given: Mapping[str, object] | None) -> dict[str, int]:
    """Phase lengths per phase type ("M", "R", "A"), defaults filled in; clear errors otherwise."""
    minutes = dict(DEFAULT_MINUTES)
    for key, value in (given or {}).items():
        if key not in PHASE_TYPES:
            raise GameError(
                f"Phase lengths are given for M (movement), R (retreats) and A (adjustments), not {key!r}"
            )
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise GameError(f"The {key} phase length must be a whole number of minutes, at least 1")
        minutes[key] = value
    return minutes


DEADLINE_EXAMPLE = "2026-03-04 18:00Z or 2026-03-04T18:00+01:00"


def deadline_parsed(text: str, zone: dt.tzinfo | None = None) -> dt.datetime:
    """A deadline typed by a game master: ISO 8601 with its time zone, since a bare time would silently
    mean UTC to the server and something else to the person who typed it. With ``zone`` (the master's
    own), a bare time is read in that zone; a zone written in the text still wins."""
    try:
        deadline = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise GameError(f"{text!r} is not a date and time; write it like {DEADLINE_EXAMPLE}") from None
    if deadline.tzinfo is None and zone is not None:
        deadline = deadline.replace(tzinfo=zone)
    if deadline.tzinfo is None or deadline.utcoffset() is None:
        raise GameError(f"{text!r} has no time zone; add Z for UTC or an offset, e.g. {DEADLINE_EXAMPLE}")
    return deadline


def zone_checked(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise GameError(f"{name!r} is not a time zone name like 'Europe/London' or 'UTC'") from None


def deadline_after(
    now: dt.datetime,
    minutes: int,
    time_of_day: dt.time | None = None,
    zone: str = "UTC",
) -> dt.datetime:
    """``now`` plus the phase length; with a fixed time of day, the first such time at or after that."""
    earliest = now + dt.timedelta(minutes=minutes)
    if time_of_day is None:
        return earliest
    tz = zone_checked(zone)
    local = earliest.astimezone(tz)
    candidate = dt.datetime.combine(local.date(), time_of_day, tzinfo=tz)
    if candidate < local:
        candidate = dt.datetime.combine(local.date() + dt.timedelta(days=1), time_of_day, tzinfo=tz)
    return candidate.astimezone(dt.UTC)
