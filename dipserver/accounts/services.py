"""Writes about accounts: the email address and its confirmation, time zone, notification preferences,
the key of the deadlines feed."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from dipserver.accounts.confirmation import ConfirmationError, confirmation_read, confirmation_token
from dipserver.accounts.models import NotificationPreferences, User, new_calendar_key
from dipserver.accounts.selectors import KIND_FIELDS
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue
from dipserver.mail.unsubscribe import site_url

# Account mail goes to addresses nobody has confirmed yet: at most this many a day per account, so the
# site cannot be used to flood somebody's mailbox.
CONFIRMATIONS_PER_DAY = 5
PASSWORD_RESETS_PER_DAY = 5


class TooManyMails(Exception):
    """The account has had its share of account mail for today; the message says so, for the player."""


def account_mails_recent(*, user_id: int, what: str, now: dt.datetime | None = None) -> int:
    """How many account mails of one sort (``confirm``, ``password-reset``) the account had in a day."""
    since = (now or timezone.now()) - dt.timedelta(days=1)
    prefix = f"{Mail.Kind.ACCOUNT}:{what}:{user_id}:"
    return Mail.objects.filter(key__startswith=prefix, created_at__gte=since).count()


def email_change_request(*, user: User, email: str) -> bool:
    """Ask for ``email`` to become the account's address: it waits in ``email_pending`` and a signed link
    is mailed to it. The confirmed address (if any) keeps getting mail meanwhile. Returns whether a link
    was sent (not for the confirmed address itself; an empty one removes every address)."""
    email = get_user_model().objects.normalize_email(email.strip())
    if not email:  # no address at all: no more mail
        user.email = user.email_pending = ""
        user.save(update_fields=["email", "email_pending"])
        return False
    if email.lower() == user.email.lower():
        if user.email_pending:
            user.email_pending = ""
            user.save(update_fields=["email_pending"])
        return False
    if account_mails_recent(user_id=user.id, what="confirm") >= CONFIRMATIONS_PER_DAY:
        raise TooManyMails(
            f"We have sent {CONFIRMATIONS_PER_DAY} confirmation links today; "
            "use one of them, or try again tomorrow."
        )
    user.email_pending = email
    user.save(update_fields=["email_pending"])
    link = site_url(reverse("email-confirm", args=[confirmation_token(user.id, email)]))
    body = (
        f"Hello {user.username},\n\n"
        f"Please confirm that {email} is your address for dipserver by opening this link:\n\n{link}\n\n"
        "Until you do, no game mail goes to it. If you did not ask for this, ignore this mail."
    )
    mail = Outgoing(
        key=f"{Mail.Kind.ACCOUNT}:confirm:{user.id}:{uuid.uuid4().hex}",
        kind=Mail.Kind.ACCOUNT,
        to=email,
        subject="Confirm your email address for dipserver",
        body=body,
        user_id=user.id,
    )
    transaction.on_commit(lambda: mail_queue([mail]))
    return True


@transaction.atomic
def email_confirm(*, token: str) -> User:
    """Make the address in a confirmation link the account's email. Following it twice is harmless; a
    link for an address since replaced by another request no longer counts."""
    confirmation = confirmation_read(token)
    user = get_user_model().objects.select_for_update().filter(id=confirmation.user_id).first()
    if user is None:
        raise ConfirmationError("This confirmation link is not valid.")
    if user.email == confirmation.email:
        return user
    if user.email_pending != confirmation.email:
        raise ConfirmationError("This link is for an address you have replaced since; use the newest link.")
    user.email, user.email_pending = confirmation.email, ""
    user.save(update_fields=["email", "email_pending"])
    return user


@transaction.atomic
def account_settings_save(*, user: User, time_zone: str, preferences: dict[str, Any]) -> None:
    """Store the player's time zone and notification preferences (fields of NotificationPreferences)."""
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{time_zone!r} is not a time zone name like 'Europe/London' or 'UTC'") from None
    if user.time_zone != time_zone:
        user.time_zone = time_zone
        user.save(update_fields=["time_zone"])
    internal = {"id", "user", "updated_at", "press_digest_at", "press_digest_upto"}
    allowed = {f.name for f in NotificationPreferences._meta.get_fields()} - internal
    unknown = set(preferences) - allowed
    if unknown:
        raise ValueError(f"Unknown preferences: {', '.join(sorted(unknown))}")
    NotificationPreferences.objects.update_or_create(user=user, defaults=preferences)


def notifications_off(*, user_id: int, kind: str) -> bool:
    """Stop one kind of mail for a player (an unsubscribe link); False if there is no such player or kind."""
    field = KIND_FIELDS.get(kind)
    if field is None or not get_user_model().objects.filter(id=user_id).exists():
        return False
    value = NotificationPreferences.Press.OFF if field == "press" else False
    NotificationPreferences.objects.update_or_create(user_id=user_id, defaults={field: value})
    return True


def notifications_on(*, user_id: int, kind: str) -> bool:
    """Undo an unsubscribe (the page it lands on offers this)."""
    field = KIND_FIELDS.get(kind)
    if field is None or not get_user_model().objects.filter(id=user_id).exists():
        return False
    value = NotificationPreferences.Press.EACH if field == "press" else True
    NotificationPreferences.objects.update_or_create(user_id=user_id, defaults={field: value})
    return True


def calendar_key_renew(*, user: User) -> str:
    """A new key for the user's deadlines feed: every address given before answers 404 from now on."""
    user.calendar_key = new_calendar_key()
    user.save(update_fields=["calendar_key"])
    return user.calendar_key
