"""Reads about accounts: a player's notification preferences (the defaults when never saved), API tokens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db.models import QuerySet
from django.utils import timezone

from dipserver.accounts.models import ApiToken, NotificationPreferences, User

# The mail kinds a player can switch off, and the preference that switches each.
KIND_FIELDS = {
    "phase_processed": "phase_processed",
    "deadline_reminder": "deadline_reminder",
    "press": "press",
    "game_started": "game_started",
    "game_ended": "game_ended",
    "version_changed": "version_changed",
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


def tokens_active(*, user: User, now: dt.datetime | None = None) -> QuerySet[ApiToken]:
    """The user's tokens that still work (neither revoked nor expired), oldest first."""
    moment = now or timezone.now()
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).exclude(expires_at__lte=moment)


def user_zone(user: Any) -> ZoneInfo:
    """The account's time zone for showing times; UTC when it has none, or one the system no longer knows."""
    try:
        return ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC")
