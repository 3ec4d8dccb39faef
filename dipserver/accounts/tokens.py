"""Personal API tokens: several per user, named, shown once, revocable, rotatable, with optional expiry.

A secret is ``dip_`` and 43 URL-safe characters (256 random bits); only its SHA-256 is stored, so a
database leak gives no usable token. Keys of the old single token per user were moved here, hashed, by
accounts migration 0003, and keep working.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from dipserver.accounts.models import ApiToken, User
from dipserver.accounts.selectors import tokens_active

SECRET_PREFIX = "dip_"
MAX_ACTIVE_TOKENS = 50
SIGN_IN_NAME = "sign-in"
LAST_USE_STEP = dt.timedelta(minutes=1)  # last use is written at most this often per token
# How long the shared cache says "revoked" for a token: longer than any process remembers a token.
REVOKED_MARK_SECONDS = 300


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
    """Revoke a token at once, in every process: the shared cache marks it for those that remember it."""
    now = timezone.now()
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now)
    token.revoked_at = token.revoked_at or now
    cache.set(_revoked_key(token.pk), True, REVOKED_MARK_SECONDS)


def token_rotate(*, token: ApiToken) -> tuple[ApiToken, str]:
    """Replace a token with a new secret: same name, same remaining lifetime; the old one is revoked."""
    with transaction.atomic():
        token_revoke(token=token)
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        new = ApiToken.objects.create(
            user_id=token.user_id, name=token.name, key_hash=token_hash(secret), expires_at=token.expires_at
        )
    return new, secret


def token_revoked_recently(token_id: int) -> bool:
    """Whether any process revoked this token in the last ``REVOKED_MARK_SECONDS`` (a cache read)."""
    return bool(cache.get(_revoked_key(token_id)))


def token_touch(*, token: ApiToken, now: dt.datetime | None = None) -> None:
    """Note the token's use, writing at most once per ``LAST_USE_STEP``."""
    moment = now or timezone.now()
    if token.last_used_at is not None and moment - token.last_used_at < LAST_USE_STEP:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=moment)
    token.last_used_at = moment


def _revoked_key(token_id: int) -> str:
    return f"dipserver:token-revoked:{token_id}"
