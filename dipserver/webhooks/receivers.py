"""Where an announced game event becomes webhook deliveries: stored, then each queued after the commit."""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import EVENTS, notices_of
from dipserver.webhooks.services import deliveries_store
from dipserver.webhooks.tasks import webhook_deliver


def event_announced(sender: str, ids: dict[str, Any], **_: Any) -> None:
    from dipserver.webhooks.models import Webhook

    if sender not in EVENTS:  # not news (press read): nothing to deliver
        return
    if not Webhook.objects.exists():  # most sites have none: skip building the notices
        return
    for delivery_id in deliveries_store(notices_of(sender, ids)):
        webhook_deliver.delay_on_commit(delivery_id)
