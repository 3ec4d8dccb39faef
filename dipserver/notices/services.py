"""Writing the inbox: storing each player's notices of an event (once), and marking them read."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.utils import timezone

from dipserver.accounts.models import User
from dipserver.notices.events import Notice, press_key
from dipserver.notices.models import Notification


def notifications_store(notices: list[Notice]) -> int:
    """Each notice to a player becomes an unread notification, unless stored before (its key); returns
    how many are new."""
    rows = [n for n in notices if n.user_id is not None]
    if not rows:
        return 0
    now = timezone.now()
    stored = 0
    for start in range(0, len(rows), _BATCH):
        stored += _inserted(rows[start : start + _BATCH], now)
    return stored


# Rows per INSERT: eight parameters each, well inside SQLite's limit on a statement's parameters.
_BATCH = 500


def _inserted(notices: list[Notice], now: dt.datetime) -> int:
    """One statement that skips the keys stored before (by another run of the event, or a concurrent one)
    and counts the rows it wrote: no read before the write, and no transaction of its own around it (the
    ORM's ``bulk_create`` opens one, and cannot count what ``ignore_conflicts`` kept)."""
    quote = connection.ops.quote_name
    table = quote(Notification._meta.db_table)
    columns = ("user_id", "game_id", "key", "kind", "title", "text", "url", "created_at")
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(notices))
    field = Notification._meta.get_field("created_at")
    when = field.get_db_prep_value(now, connection)
    params = [
        value
        for n in notices
        for value in (n.user_id, n.game_id, n.key, n.kind, n.title, n.text, n.url, when)
    ]
    sql = (
        f"INSERT INTO {table} ({', '.join(map(quote, columns))}) VALUES {values}"
        f" ON CONFLICT ({quote('key')}) DO NOTHING RETURNING {quote('id')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return len(cursor.fetchall())


def notification_read(*, user: User, notification_id: int) -> bool:
    """Mark one of the user's notifications read; False when it is not theirs (or not there)."""
    found = Notification.objects.filter(user=user, id=notification_id)
    if not found.exists():
        return False
    found.filter(read_at__isnull=True).update(read_at=timezone.now())
    return True


def notifications_read_all(*, user: User, game_id: int | None = None) -> int:
    """Mark every unread notification of the user (in one game, when given) read; how many were."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if game_id is not None:
        unread = unread.filter(game_id=game_id)
    return unread.update(read_at=timezone.now())


def press_notifications_read(*, user_id: int, message_ids: list[int]) -> int:
    """Mark read the user's news of the given press (read in the game: one read state); how many were."""
    if not message_ids:
        return 0
    keys = [press_key(i, user_id) for i in message_ids]
    unread = Notification.objects.filter(user_id=user_id, key__in=keys, read_at__isnull=True)
    return unread.update(read_at=timezone.now())
