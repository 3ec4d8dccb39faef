"""Signed links that confirm an email address: they name the user and the address, and expire."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing

SALT = "dipserver.accounts.email-confirm"


@dataclass(frozen=True)
class Confirmation:
    user_id: int
    email: str


class ConfirmationError(Exception):
    """The link is not ours, was changed, or has expired; the message says which, for the player."""


def confirmation_token(user_id: int, email: str) -> str:
    return signing.dumps({"u": user_id, "e": email}, salt=SALT, compress=True)


def confirmation_read(token: str) -> Confirmation:
    max_age = settings.DIPSERVER_EMAIL_CONFIRM_DAYS * 24 * 3600
    try:
        data = signing.loads(token, salt=SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise ConfirmationError("This confirmation link has expired; ask for a new one.") from None
    except signing.BadSignature:
        raise ConfirmationError("This confirmation link is not valid.") from None
    return Confirmation(int(data["u"]), str(data["e"]))
