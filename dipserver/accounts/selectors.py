"""Reads about accounts: a player's notification preferences (the defaults when never saved)."""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import available_timezones

from dipserver.accounts.models import NotificationPreferences

# The mail kinds a player can switch off, and the preference that switches each.
KIND_FIELDS = {
    "phase_processed": "phase_processed",
    "deadline_reminder": "deadline_reminder",
    "press": "press",
    "game_started": "game_started",
    "game_ended": "game_ended",
}


def preferences_of(user_ids: Iterable[int]) -> dict[int, NotificationPreferences]:
    """Each user's preferences, in one query; users who never saved any get unsaved defaults."""
    ids = list(user_ids)
    found = {p.user_id: p for p in NotificationPreferences.objects.filter(user_id__in=ids)}
    return {uid: found.get(uid) or NotificationPreferences(user_id=uid) for uid in ids}


def preference_wants(preferences: NotificationPreferences, kind: str) -> bool:
    """Whether the player wants mails of ``kind`` (a Mail.Kind value; account mail always goes)."""
    field = KIND_FIELDS.get(kind)
    if field is None:
        return True
    value = getattr(preferences, field)
    # Press by the message only for "each": "digest" players get the daily digest instead.
    return bool(value == NotificationPreferences.Press.EACH if field == "press" else value)


def time_zone_names() -> list[str]:
    return sorted(available_timezones())
