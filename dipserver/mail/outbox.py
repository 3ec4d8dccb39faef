"""Putting mails in the outbox: the only way anything in the project sends mail.

Callers describe each mail with an :class:`Outgoing` whose ``key`` names the logical mail (the event and
the recipient). The row is written first; a second call with the same key finds it and queues nothing,
so an event announced twice (a retried or redelivered task) mails once. Delivery is a Celery task
(``dipserver.mail.send_many``: the mails of one call, each then retried by ``dipserver.mail.send``) on the
deliveries queue, never the caller, queued once the caller's
transaction commits: nothing is sent inside a transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import make_msgid

from django.utils import timezone

from dipserver.core.inserts import models_inserted_once
from dipserver.mail.delivery import QUEUED_GRACE
from dipserver.mail.html import SIGNATURE
from dipserver.mail.models import Mail
from dipserver.mail.tasks import mails_send
from dipserver.mail.unsubscribe import list_headers, site_domain, unsubscribe_url


@dataclass(frozen=True)
class Outgoing:
    key: str
    kind: str  # a Mail.Kind value
    to: str
    subject: str
    body: str
    user_id: int | None = None
    picture: str = ""  # drawn into the mail when it is sent (``pictures.picture_ref``), not stored
    # A mail about a deadline (a reminder): dropped if it cannot be sent before it, and ``TIME_LEFT`` in
    # its subject is the time left to it when it is sent (``delivery.subject_at``).
    deadline: dt.datetime | None = None


def mail_queue(mails: Iterable[Outgoing], *, now: dt.datetime | None = None) -> list[int]:
    """Store each mail whose key is new and queue its delivery; returns the ids of the new rows. The rows
    are written in one statement (``core.inserts``: a key stored before, by an earlier or concurrent run
    of the event, is skipped).

    Every mail but account mail (confirmations, password resets) gets an unsubscribe link in its text
    and the ``List-Unsubscribe`` headers, for its own kind of mail.
    """
    now = now or timezone.now()
    domain = site_domain()
    rows = [_row(mail, domain, now + QUEUED_GRACE) for mail in mails]
    new = [mail_id for (mail_id,) in models_inserted_once(rows, unique=("key",), returning=("id",))]
    if new:  # sent once the rows are committed (at once outside a transaction), by one task
        mails_send.delay_on_commit(new)
    return new


def _row(mail: Outgoing, domain: str, next_attempt_at: dt.datetime) -> Mail:
    # One Message-ID per mail, on the site's domain, the same on every attempt to send it.
    body, headers = mail.body, {"Message-ID": make_msgid(domain=domain), "Auto-Submitted": "auto-generated"}
    if mail.kind != Mail.Kind.ACCOUNT and mail.user_id is not None:
        url = unsubscribe_url(mail.user_id, mail.kind)
        headers |= list_headers(url)
        label = Mail.Kind(mail.kind).label.lower()
        body = f"{body.rstrip()}{SIGNATURE}No more mails like this ({label}): {url}\n"
    return Mail(
        key=mail.key,
        kind=mail.kind,
        user_id=mail.user_id,
        to=mail.to,
        subject=mail.subject,
        body=body,
        headers=headers,
        picture=mail.picture,
        deadline=mail.deadline,
        next_attempt_at=next_attempt_at,
    )
