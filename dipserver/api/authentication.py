"""Token authentication that reads the token and its owner afresh on every request.

Tokens are ``dipserver.accounts.models.ApiToken`` rows, found by the SHA-256 of the secret sent, joined
with their user in one query. Nothing is remembered between requests, so everything takes effect at
once in every process: a revoked or deleted token, a deactivated user, a right taken away (staff,
superuser, a group) and a changed setting. No cache is asked, so a cache that is down cannot refuse a
token. Expiry is checked on every request; last use is written at most once a minute per token, and
not at all while the database takes no writes (reads go on working then).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from dipserver.accounts.models import ApiToken
from dipserver.accounts.selectors import user_zone
from dipserver.accounts.tokens import token_hash, token_touch


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = _stored(token_hash(key))
        _refuse_unusable(token)
        token_touch(token=token)
        user = token.user
        # The time-zone middleware ran before DRF read the token: give a token client the account's zone
        # too, so every client of an account reads the same instant written the same way.
        if user.time_zone:
            timezone.activate(user_zone(user))
        return user, token


def _stored(digest: str) -> ApiToken:
    token = ApiToken.objects.select_related("user").filter(key_hash=digest).first()
    if token is None:
        raise exceptions.AuthenticationFailed("Invalid token.")
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed("User inactive or deleted.")
    return token


def _refuse_unusable(token: ApiToken) -> None:
    if token.revoked_at is not None:
        raise exceptions.NotAuthenticated(
            f"This token ({token.name!r}) has been revoked; sign in again or use another token."
        )
    if token.expires_at is not None and token.expires_at <= timezone.now():
        raise exceptions.NotAuthenticated(
            f"This token ({token.name!r}) expired at {token.expires_at.isoformat()}; create a new one."
        )
