"""Where an announced game event lands in each player's inbox."""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import notices_of
from dipserver.notices.services import notifications_store


def event_announced(sender: str, ids: dict[str, Any], **_: Any) -> None:
    notifications_store(notices_of(sender, ids))
