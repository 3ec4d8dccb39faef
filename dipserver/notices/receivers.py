"""Where an announced game event lands in each player's inbox (not of a game they muted)."""

from __future__ import annotations

from typing import Any

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
    return [n for n in notices if n.user_id is not None and not n.muted]
