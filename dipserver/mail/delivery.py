"""Sending one outbox row, at most once, and claiming the rows a failing server left behind.

The mail modules import in one direction only: ``outbox`` -> ``tasks`` -> ``delivery`` -> ``models``
(``tests/foundation/test_mail_layers.py``); so this module queues nothing itself, and the sweep task queues
the rows it claims."""

from __future__ import annotations

import datetime as dt
import enum
import smtplib
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from dipserver.mail.html import html_of
from dipserver.mail.models import Mail
from dipserver.mail.pictures import PICTURE_WIDTH, Picture, picture_draw

# After this many failed attempts (about a day with the back-off below) a mail is left for a person to
# look at in the admin, its last error beside it.
MAX_ATTEMPTS = 30
MAX_BACKOFF = dt.timedelta(hours=1)
# A mail whose task message was lost (a broker restart) is queued again by the sweep after this long.
QUEUED_GRACE = dt.timedelta(minutes=10)
ACCOUNT_BODY_SENT = "(not kept once sent: it held a one-time link)"


class Delivery(enum.StrEnum):
    SENT = "sent"
    ALREADY_SENT = "already sent"
    FAILED = "failed"
    MISSING = "no such mail"


def backoff(attempts: int) -> dt.timedelta:
    """The wait before try ``attempts + 1``: 1, 2, 4, 8 ... minutes, at most an hour."""
    return min(dt.timedelta(minutes=2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def mail_deliver(*, mail_id: int, now: dt.datetime | None = None) -> Delivery:
    """Send the mail unless it has been sent. The row stays locked while sending, so a second delivery
    of the same mail waits and then finds it sent; a failure is recorded with its reason and when to try
    again, and the mail stays in the outbox."""
    now = now or timezone.now()
    # The picture is drawn before the row is locked, so a slow drawing holds up no other delivery.
    ref = Mail.objects.filter(id=mail_id, sent_at__isnull=True).values_list("picture", flat=True).first()
    picture = picture_draw(ref) if ref else None
    with transaction.atomic():
        mail = Mail.objects.select_for_update().filter(id=mail_id).first()
        if mail is None:
            return Delivery.MISSING
        if mail.sent_at is not None:
            return Delivery.ALREADY_SENT
        message = message_of(mail, picture)
        mail.attempts += 1
        try:
            message.send()
        except (smtplib.SMTPException, OSError) as exc:
            mail.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            mail.next_attempt_at = now + backoff(mail.attempts)
            mail.save(update_fields=["attempts", "last_error", "next_attempt_at"])
            return Delivery.FAILED
        mail.sent_at, mail.last_error = now, ""
        if mail.kind == Mail.Kind.ACCOUNT:  # its one-time link must not stay readable in the admin
            mail.body = ACCOUNT_BODY_SENT
        mail.save(update_fields=["attempts", "sent_at", "last_error", "body"])
    return Delivery.SENT


def message_of(mail: Mail, picture: Picture | None = None) -> EmailMessage:
    """The mail as it is sent: its text; and for a mail with a picture an HTML alternative too, with the
    picture inline when it could be drawn (``multipart/alternative``: the text, then
    ``multipart/related``: the HTML and the PNG its ``cid:`` names). A text-only reader sees the text and
    no attachment."""
    message = EmailMessage(
        mail.subject, mail.body, settings.DEFAULT_FROM_EMAIL, [mail.to], headers=mail.headers
    )
    if not mail.picture:
        return message
    message.mixed_subtype = "alternative"  # the text and the HTML are one content, not attachments
    if picture is None:
        message.attach(MIMEText(html_of(mail.body), "html", "utf-8"))
        return message
    cid = make_msgid("map", domain="dipserver")[1:-1]
    html = html_of(mail.body, image_cid=cid, image_alt=picture.alt, width=PICTURE_WIDTH)
    image = MIMEImage(picture.png, "png")
    image.add_header("Content-ID", f"<{cid}>")
    image.add_header("Content-Disposition", "inline", filename="map.png")
    parts = [MIMEText(html, "html", "utf-8"), image]
    message.attach(MIMEMultipart("related", _subparts=parts, type="text/html"))
    return message


def mails_due_claim(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Every unsent mail whose next attempt is due (failed, or its task message lost), its next attempt
    put off by ``QUEUED_GRACE`` so no other sweep claims it meanwhile; the caller queues their sending."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Mail.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS, next_attempt_at__lte=now)
            .order_by("next_attempt_at")
            .values_list("id", flat=True)[:limit]
        )
        Mail.objects.filter(id__in=due).update(next_attempt_at=now + QUEUED_GRACE)
    return due
