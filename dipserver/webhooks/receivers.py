"""Where an announced game event becomes webhook deliveries: stored, then each queued after the commit."""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import EVENTS, notices_of
from dipserver.webhooks.services import deliveries_store
from dipserver.webhooks.tasks import webhook_deliver


def event_announced(sender: str, ids: dict[str, Any], **_: Any) -> None:
    if sender not in EVENTS:  # not news (press read): nothing to deliver
        return
    # The notices are the inbox's too, built once for both in the announcing task (``notices_of``); the
    # hooks that hear them are read in one query.
    for delivery_id in deliveries_store(notices_of(sender, ids)):
        webhook_deliver.delay_on_commit(delivery_id)
