"""Token authentication with a short in-process memory, so a polling client costs no token query.

Tokens are ``dipserver.accounts.models.ApiToken`` rows, found by the SHA-256 of the secret sent. A token
revoked through the API stops working at once in every process (the shared cache marks it, and a
remembered token is checked against that mark); one deleted behind the API's back, or a deactivated
user, is noticed within ``TOKEN_CACHE_SECONDS``. Expiry is checked on every request. Last use is
written at most once a minute per token.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from dipserver.accounts.models import ApiToken
from dipserver.accounts.selectors import user_zone
from dipserver.accounts.tokens import token_hash, token_revoked_recently, token_touch

TOKEN_CACHE_SECONDS = 30.0
_MAX_ENTRIES = 10_000


class CachedTokenAuthentication(TokenAuthentication):
    _cache: dict[str, tuple[float, Any, ApiToken]] = {}
    _lock = threading.Lock()

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        digest = token_hash(key)
        now = time.monotonic()
        hit = self._cache.get(digest)
        if hit is not None and hit[0] > now:
            user, token = hit[1], hit[2]
        else:
            token = _stored(digest)
            user = token.user
            with self._lock:
                if len(self._cache) >= _MAX_ENTRIES:
                    self._cache.clear()
                self._cache[digest] = (now + TOKEN_CACHE_SECONDS, user, token)
        _refuse_unusable(token, revoked=token.revoked_at is not None or token_revoked_recently(token.pk))
        token_touch(token=token)
        # The time-zone middleware ran before DRF read the token: give a token client the account's zone
        # too, so every client of an account reads the same instant written the same way.
        if getattr(user, "time_zone", ""):
            timezone.activate(user_zone(user))
        return user, token

    @classmethod
    def forget(cls) -> None:
        """Drop every remembered token (tests; or after revoking tokens in bulk)."""
        with cls._lock:
            cls._cache.clear()


def _stored(digest: str) -> ApiToken:
    token = ApiToken.objects.select_related("user").filter(key_hash=digest).first()
    if token is None:
        raise exceptions.AuthenticationFailed("Invalid token.")
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed("User inactive or deleted.")
    return token


def _refuse_unusable(token: ApiToken, *, revoked: bool) -> None:
    if revoked:
        raise exceptions.NotAuthenticated(
            f"This token ({token.name!r}) has been revoked; sign in again or use another token."
        )
    if token.expires_at is not None and token.expires_at <= timezone.now():
        raise exceptions.NotAuthenticated(
            f"This token ({token.name!r}) expired at {token.expires_at.isoformat()}; create a new one."
        )
