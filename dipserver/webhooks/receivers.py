"""Where an announced game event becomes webhook deliveries: stored, then queued (one task) on commit."""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import EVENTS, notices_of
from dipserver.webhooks.services import deliveries_store
from dipserver.webhooks.tasks import webhooks_deliver


def event_announced(sender: str, ids: dict[str, Any], **_: Any) -> None:
    if sender not in EVENTS:  # not news (press read): nothing to deliver
        return
    # The notices are the inbox's too, built once for both in the announcing task (``notices_of``); the
    # hooks that hear them are read in one query.
    new = deliveries_store(notices_of(sender, ids))
    if new:
        webhooks_deliver.delay_on_commit(new)  # one task message for the event's deliveries
