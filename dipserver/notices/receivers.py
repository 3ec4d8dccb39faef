"""Where an announced game event lands in each player's inbox (not of a game they muted)."""

from __future__ import annotations

from typing import Any

from dipserver.accounts.selectors import game_muted
from dipserver.games.phase_news import preferences_read
from dipserver.notices.events import Notice, notices_of
from dipserver.notices.services import notifications_store, press_notifications_read


def event_announced(sender: str, ids: dict[str, Any], **_: Any) -> None:
    from dipserver.games.notifications import PRESS_READ

    if sender == PRESS_READ:  # press read in the game: its news in the inbox is read too
        press_notifications_read(user_id=ids["user_id"], message_ids=ids["message_ids"])
        return
    notifications_store(_not_muted(notices_of(sender, ids)))


def _not_muted(notices: list[Notice]) -> list[Notice]:
    """The notices to players, but those of a game the player muted."""
    readers = {n.user_id for n in notices if n.user_id is not None}
    if not readers:
        return []
    # The same players' preferences the event's mail reads: inside its task, read once for both.
    wants = preferences_read(readers)
    return [n for n in notices if n.user_id is not None and not game_muted(wants[n.user_id], n.game_id)]
