"""Token authentication with a short in-process memory, so a polling client costs no token query.

A revoked token or a deactivated user is noticed within ``TOKEN_CACHE_SECONDS``; polling every few
seconds is what bots and browsers do, and the token lookup was a third of a 304's database work.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from rest_framework.authentication import TokenAuthentication

TOKEN_CACHE_SECONDS = 30.0
_MAX_ENTRIES = 10_000


class CachedTokenAuthentication(TokenAuthentication):
    _cache: dict[str, tuple[float, Any, Any]] = {}
    _lock = threading.Lock()

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]
        user, token = super().authenticate_credentials(key)  # raises for unknown keys and inactive users
        with self._lock:
            if len(self._cache) >= _MAX_ENTRIES:
                self._cache.clear()
            self._cache[key] = (now + TOKEN_CACHE_SECONDS, user, token)
        return user, token

    @classmethod
    def forget(cls) -> None:
        """Drop every remembered token (tests; or after revoking tokens in bulk)."""
        with cls._lock:
            cls._cache.clear()
