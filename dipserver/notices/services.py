"""Writing the inbox: storing each player's notices of an event (once), and marking them read."""

from __future__ import annotations

from django.utils import timezone

from dipserver.accounts.models import User
from dipserver.core.inserts import rows_inserted_once
from dipserver.notices.events import Notice, press_key
from dipserver.notices.models import Notification


def notifications_store(notices: list[Notice]) -> int:
    """Each notice to a player becomes an unread notification, unless stored before (its key: by an
    earlier run of the event or a concurrent one); returns how many are new. One statement."""
    columns = ("user_id", "game_id", "key", "kind", "title", "text", "url")
    rows = [
        (n.user_id, n.game_id, n.key, n.kind, n.title, n.text, n.url)
        for n in notices
        if n.user_id is not None
    ]
    if not rows:
        return 0
    return len(rows_inserted_once(Notification, columns, rows, unique=("key",), returning=("id",)))


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
