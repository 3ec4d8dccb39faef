"""Personal API tokens: several per user, named, shown once, revocable, rotatable, with optional expiry.

A secret is ``dip_`` and 43 URL-safe characters (256 random bits); only its SHA-256 is stored, so a
database leak gives no usable token. Keys of the old single token per user were moved here, hashed, by
accounts migration 0003, and keep working.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.db import DatabaseError, transaction
from django.db.models import F
from django.utils import timezone

from dipserver.accounts.models import ApiToken, User
from dipserver.accounts.selectors import tokens_active
from dipserver.core.read_only import is_read_only

SECRET_PREFIX = "dip_"
MAX_ACTIVE_TOKENS = 50
SIGN_IN_NAME = "sign-in"
LAST_USE_STEP = dt.timedelta(minutes=1)  # last use is written at most this often per token


class TokenError(ValueError):
    """A token request refused; ``code`` is mapped to its HTTP status in ``dipserver/api/errors.py``."""

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(
    *, user: User, name: str, expires_in_days: int | None = None, evict: bool = False
) -> tuple[ApiToken, str]:
    """A new token and its secret (shown once). Past ``MAX_ACTIVE_TOKENS`` active tokens: refused, or
    with ``evict`` (password sign-in) the least recently used sign-in tokens are revoked to make room."""
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one creation at a time per user
        active = tokens_active(user=user, now=now)
        excess = active.count() - MAX_ACTIVE_TOKENS + 1
        if excess > 0 and evict:
            never_first = F("last_used_at").asc(nulls_first=True)  # PostgreSQL puts NULLs last by default
            oldest = active.filter(name=SIGN_IN_NAME).order_by(never_first, "created_at", "id")
            for stale in oldest[:excess]:
                token_revoke(token=stale)
        elif excess > 0:
            raise TokenError(
                f"You have {MAX_ACTIVE_TOKENS} active tokens, the most allowed; revoke one first.",
                code="too_many_tokens",
            )
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        expires_at = now + dt.timedelta(days=expires_in_days) if expires_in_days else None
        token = ApiToken.objects.create(
            user=user, name=name, key_hash=token_hash(secret), created_at=now, expires_at=expires_at
        )
    return token, secret


def token_of(*, user: User, token_id: int) -> ApiToken:
    """One of the user's own active tokens; another user's is as unknown as a missing one."""
    token = tokens_active(user=user).filter(pk=token_id).first()
    if token is None:
        raise TokenError(f"You have no active token {token_id}.", code="not_found")
    return token


def token_revoke(*, token: ApiToken) -> None:
    """Revoke a token at once, in every process: authentication reads the token on every request."""
    now = timezone.now()
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now)
    token.revoked_at = token.revoked_at or now


def token_rotate(*, token: ApiToken) -> tuple[ApiToken, str]:
    """Replace a token with a new secret: same name, same remaining lifetime; the old one is revoked."""
    with transaction.atomic():
        token_revoke(token=token)
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        new = ApiToken.objects.create(
            user_id=token.user_id, name=token.name, key_hash=token_hash(secret), expires_at=token.expires_at
        )
    return new, secret


def token_touch(*, token: ApiToken, now: dt.datetime | None = None) -> None:
    """Note the token's use, writing at most once per ``LAST_USE_STEP``; not at all while the database
    takes no writes, so that a read-only database still answers reads."""
    moment = now or timezone.now()
    if token.last_used_at is not None and moment - token.last_used_at < LAST_USE_STEP:
        return
    try:
        with transaction.atomic():  # a savepoint inside a request's transaction: its failure stays here
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=moment)
    except DatabaseError as exc:
        if not is_read_only(exc):
            raise
        return
    token.last_used_at = moment
