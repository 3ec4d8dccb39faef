"""Thin Celery tasks: deliver one mail (with back-off retries), and the beat sweep of the outbox."""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task

from dipserver.mail.delivery import Delivery, backoff, mail_deliver, mails_due_claim


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.mail.send", bind=True, trail=False, max_retries=4, ignore_result=True
)
def mail_send(self: Any, mail_id: int) -> str:
    """Deliver one outbox row, exactly once (``delivery.mail_deliver``). On a failure before the server
    was given the message, try again after 1, 2, 4, 8 minutes; after that the outbox sweep keeps trying.
    Never raises: a failing mail server must not fail whatever queued the mail. Runs on the deliveries
    queue, in its own worker pool."""
    result = mail_deliver(mail_id=mail_id)
    if result == Delivery.FAILED and self.request.retries < self.max_retries:
        raise self.retry(countdown=backoff(self.request.retries + 1).total_seconds())
    return str(result)


@shared_task(name="dipserver.mail.send_many", trail=False, ignore_result=True)  # type: ignore[untyped-decorator]
def mails_send(mail_ids: list[int]) -> int:
    """Deliver one event's mails in turn: one task message for all of them, since publishing a message
    costs the announcing worker more than the mail's row. A mail that fails before the server was given
    it goes on as ``mail_send``'s first retry; a worker that dies part way leaves the rest to the outbox
    sweep. Never raises. Returns how many were sent."""
    sent = 0
    for mail_id in mail_ids:
        result = mail_deliver(mail_id=mail_id)
        if result == Delivery.FAILED:
            mail_send.apply_async((mail_id,), countdown=backoff(1).total_seconds(), retries=1)
        sent += result == Delivery.SENT
    return sent


def mails_due_queue(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Queue again every unsent mail whose next attempt is due; returns their ids."""
    due = mails_due_claim(now=now, limit=limit)
    for mail_id in due:
        mail_send.delay(mail_id)
    return due


@shared_task(name="dipserver.mail.outbox_sweep", trail=False)  # type: ignore[untyped-decorator]
def outbox_sweep() -> int:
    """Periodic (beat): queue again the mails a failing server or a lost message left unsent."""
    return len(mails_due_queue())
