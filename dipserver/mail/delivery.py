"""Sending one outbox row exactly once, and claiming the rows a failing server left behind.

The mail modules import in one direction only: ``outbox`` -> ``tasks`` -> ``delivery`` -> ``models``
(``tests/foundation/test_mail_layers.py``); so this module queues nothing itself, and the sweep task queues
the rows it claims."""

from __future__ import annotations

import datetime as dt
import enum
import smtplib
from collections.abc import Callable
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import make_msgid
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend
from django.core.mail.message import sanitize_address
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from dipserver.mail.html import html_of
from dipserver.mail.models import Mail
from dipserver.mail.pictures import PICTURE_WIDTH, Picture, picture_draw
from dipserver.mail.unsubscribe import site_domain

# After this many failed attempts (about a day with the back-off below) a mail is left for a person to
# look at in the admin, its last error beside it.
MAX_ATTEMPTS = 30
MAX_BACKOFF = dt.timedelta(hours=1)
# A mail whose task message was lost (a broker restart) is queued again by the sweep after this long.
QUEUED_GRACE = dt.timedelta(minutes=10)
# An attempt's claim lasts as long as the task may run (Celery's time limit) and this margin.
LEASE_MARGIN = dt.timedelta(seconds=60)
STAGE_SENDING, STAGE_DATA = "sending", "data"
UNCONFIRMED_NOTE = "Sent, unconfirmed (not sent again)"
DIED = "the attempt ended while the server was being given the message"
ACCOUNT_BODY_SENT = "(not kept once sent: it held a one-time link)"
# In the subject of a mail with a deadline: replaced by the time left to it when the mail is sent.
TIME_LEFT = "{time left}"
TOO_LATE = "Dropped: its deadline passed before it could be sent"


class Delivery(enum.StrEnum):
    SENT = "sent"
    UNCONFIRMED = "sent; the server did not confirm it in time"
    ALREADY_SENT = "already sent"
    TOO_LATE = "dropped: its deadline has passed"
    IN_FLIGHT = "being sent by another attempt"
    FAILED = "failed"
    MISSING = "no such mail"


class Unconfirmed(Exception):
    """The server was being given the message when the connection failed or timed out: it may have it."""


def backoff(attempts: int) -> dt.timedelta:
    """The wait before try ``attempts + 1``: 1, 2, 4, 8 ... minutes, at most an hour."""
    return min(dt.timedelta(minutes=2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def mail_deliver(*, mail_id: int, now: dt.datetime | None = None) -> Delivery:
    """Send the mail exactly once: the attempt is written down (claimed) and committed, the mail sent
    outside any transaction, and the outcome recorded.

    Once the server is being given the message (SMTP ``DATA``), only its clear refusal makes the mail
    go again: a timeout or a lost connection there (a server that answers ``250`` after
    ``EMAIL_TIMEOUT``), or an attempt that died there, counts the mail as sent, ``unconfirmed`` (a
    second copy is worse than the rare mail lost). A failure before that (no server, a refusal of the
    sender or recipient) leaves it in the outbox with its reason and when to try again."""
    now = now or timezone.now()
    # The picture is drawn before the attempt is claimed, so a slow drawing holds up no other attempt.
    ref = Mail.objects.filter(id=mail_id, sent_at__isnull=True).values_list("picture", flat=True).first()
    picture = picture_draw(ref) if ref else None
    mail = _claim(mail_id, now)
    if isinstance(mail, Delivery):
        return mail
    if mail.deadline is not None and now >= mail.deadline:
        _record(mail, sent=False, error=TOO_LATE)  # left unsent; the outbox sweep passes it over
        return Delivery.TOO_LATE
    try:
        _send(message_of(mail, picture, now=now), data_begun=lambda: _stage(mail, STAGE_DATA))
    except Unconfirmed as exc:
        cause = exc.__cause__
        _record(mail, sent=True, error=f"{UNCONFIRMED_NOTE}: {type(cause).__name__}: {cause}")
        return Delivery.UNCONFIRMED
    except (smtplib.SMTPException, OSError) as exc:
        _record(mail, sent=False, error=f"{type(exc).__name__}: {exc}")
        return Delivery.FAILED
    _record(mail, sent=True)
    return Delivery.SENT


def _claim(mail_id: int, now: dt.datetime) -> Mail | Delivery:
    """The mail, its attempt written down and committed; or why it is not to be sent now."""
    lease_until = now + dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + LEASE_MARGIN
    unsent = Mail.objects.filter(id=mail_id, sent_at__isnull=True)
    with transaction.atomic():
        # An attempt that died while giving the server the message: the server may have it.
        unsent.filter(stage=STAGE_DATA, lease_until__lte=now).update(
            sent_at=now,
            unconfirmed=True,
            stage="",
            lease_until=None,
            last_error=f"{UNCONFIRMED_NOTE}: {DIED}",
        )
        claimed = unsent.filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now)).update(
            attempts=F("attempts") + 1,
            stage=STAGE_SENDING,
            lease_until=lease_until,
            next_attempt_at=lease_until,
        )
        mail = Mail.objects.filter(id=mail_id).first()
    if mail is None:
        return Delivery.MISSING
    if claimed:
        return mail
    return Delivery.ALREADY_SENT if mail.sent_at is not None else Delivery.IN_FLIGHT


def _stage(mail: Mail, stage: str) -> None:
    Mail.objects.filter(id=mail.id, lease_until=mail.lease_until).update(stage=stage)


def _record(mail: Mail, *, sent: bool, error: str = "") -> None:
    now = timezone.now()
    done: dict[str, Any] = {"stage": "", "lease_until": None, "last_error": error[:2000]}
    with transaction.atomic():
        if not sent:  # only while the attempt is still this one's
            Mail.objects.filter(id=mail.id, sent_at__isnull=True, lease_until=mail.lease_until).update(
                **done, next_attempt_at=now + backoff(mail.attempts)
            )
            return
        if mail.kind == Mail.Kind.ACCOUNT:  # its one-time link must not stay readable in the admin
            done["body"] = ACCOUNT_BODY_SENT
        Mail.objects.filter(id=mail.id, sent_at__isnull=True).update(
            **done, sent_at=now, unconfirmed=bool(error)
        )


def _send(message: EmailMessage, *, data_begun: Callable[[], None]) -> None:
    """Send through the configured backend. Over SMTP, step by step, so that the moment the server is
    given the message is known (``data_begun`` is called just before); a failure after it raises
    ``Unconfirmed``, unless the server clearly refused the message (``SMTPDataError``)."""
    backend = get_connection(fail_silently=False)
    if not isinstance(backend, SmtpBackend):  # the console, memory: nothing can be half sent
        backend.send_messages([message])
        return
    encoding = message.encoding or settings.DEFAULT_CHARSET
    sender = sanitize_address(message.from_email, encoding)
    recipients = [sanitize_address(address, encoding) for address in message.recipients()]
    content = message.message().as_bytes(linesep="\r\n")
    with backend:
        smtp = backend.connection
        if smtp is None:
            raise smtplib.SMTPServerDisconnected("no connection to the mail server")
        smtp.ehlo_or_helo_if_needed()
        code, answer = smtp.mail(sender)
        if code != 250:
            raise smtplib.SMTPSenderRefused(code, answer, sender)
        for recipient in recipients:
            code, answer = smtp.rcpt(recipient)
            if code not in (250, 251):
                raise smtplib.SMTPRecipientsRefused({recipient: (code, answer)})
        data_begun()
        try:
            code, answer = smtp.data(content)
        except smtplib.SMTPDataError:
            raise  # DATA refused, clearly: the message was not given
        except (smtplib.SMTPException, OSError) as exc:
            raise Unconfirmed from exc
        if code != 250:  # the message refused, clearly: it was not taken
            raise smtplib.SMTPDataError(code, answer)


def message_of(mail: Mail, picture: Picture | None = None, *, now: dt.datetime | None = None) -> EmailMessage:
    """The mail as it is sent: its text; and for a mail with a picture an HTML alternative too, with the
    picture inline when it could be drawn (``multipart/alternative``: the text, then
    ``multipart/related``: the HTML and the PNG its ``cid:`` names). A text-only reader sees the text and
    no attachment."""
    headers = {"Message-ID": message_id_of(mail), **mail.headers}
    message = EmailMessage(
        subject_at(mail, now), mail.body, settings.DEFAULT_FROM_EMAIL, [mail.to], headers=headers
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


def subject_at(mail: Mail, now: dt.datetime | None = None) -> str:
    """The mail's subject as sent ``now``: a mail with a deadline says the time left to it then."""
    if mail.deadline is None or TIME_LEFT not in mail.subject:
        return mail.subject
    head, tail = mail.subject.rsplit(TIME_LEFT, 1)  # the last: a game's name cannot take its place
    return f"{head}{time_left(mail.deadline - (now or timezone.now()))}{tail}"


def time_left(left: dt.timedelta) -> str:
    """A time left as a player reads it: minutes under an hour, hours and minutes under ten hours (a
    reminder 9 h 59 min before says so, not 10 hours), whole hours (rounded) from then on."""
    minutes = max(int(left.total_seconds() // 60), 1)
    if minutes < 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours, rest = divmod(minutes, 60)
    if hours < 10 and rest:
        return f"{hours} h {rest} min"
    hours = round(left.total_seconds() / 3600)
    return f"{hours} hour{'s' if hours != 1 else ''}"


def message_id_of(mail: Mail) -> str:
    """The mail's own Message-ID, the same on every attempt (the outbox stores one; this is for rows
    stored without)."""
    return f"<mail.{mail.id}.{mail.created_at:%Y%m%d%H%M%S%f}@{site_domain()}>"


def mails_due_claim(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Every unsent mail whose next attempt is due (failed, or its task message lost), its next attempt
    put off by ``QUEUED_GRACE`` so no other sweep claims it meanwhile; the caller queues their sending."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Mail.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS, next_attempt_at__lte=now)
            .exclude(deadline__lte=now)  # too late to be worth sending
            .order_by("next_attempt_at")
            .values_list("id", flat=True)[:limit]
        )
        Mail.objects.filter(id__in=due).update(next_attempt_at=now + QUEUED_GRACE)
    return due
