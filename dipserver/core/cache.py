"""Django's Redis cache, made so that a Redis outage fails no request.

Everything the site keeps in the cache can be worked out again or done without: throttle counts, a
phase's options, drawn pictures. So while Redis is down (refusing, unreachable, timing out, read-only) a
read misses, a write is dropped, ``add`` says the key was free (whoever asks for a lock draws for
itself) and ``incr`` finds no key. The first failure is logged once, as a warning; after it the cache is
not asked again for ``RETRY_SECONDS``, so a Redis that hangs costs one request its socket timeout, not
every request (``cache_from_url`` gives the connections half-second socket timeouts: a cache answers in
well under a millisecond, so waiting longer only holds the request). The first answer after the outage
is logged too, and from then on the cache is used as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from dipserver.config.env import redact

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0  # how long a failed cache is left alone before it is asked again

_T = TypeVar("_T")


class OutageTolerantRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose operations answer "nothing cached" while
    the server cannot be reached (see the module's description). Django makes one per thread, so each
    thread notices an outage, and logs it, on its own."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._where = redact(server) if isinstance(server, str) else ", ".join(map(redact, server))
        self._lock = threading.Lock()
        self._down_since: float | None = None  # time.monotonic() of the first failure of this outage
        self._retry_at = 0.0

    def _guarded(self, operation: Callable[[], _T], fallback: _T) -> _T:
        if self._down_since is not None and time.monotonic() < self._retry_at:
            return fallback
        try:
            answer = operation()
        except RedisError as exc:
            self._failed(exc)
            return fallback
        if self._down_since is not None:
            self._recovered()
        return answer

    def _failed(self, exc: RedisError) -> None:
        now = time.monotonic()
        with self._lock:
            first = self._down_since is None
            if first:
                self._down_since = now
            self._retry_at = now + RETRY_SECONDS
        if first:
            log.warning(
                "The cache at %s cannot be used (%s: %s); requests go on without it, and it is tried "
                "again every %g s.",
                self._where,
                type(exc).__name__,
                exc,
                RETRY_SECONDS,
            )

    def _recovered(self) -> None:
        with self._lock:
            since, self._down_since = self._down_since, None
        if since is not None:
            log.warning("The cache at %s answers again after %.1f s.", self._where, time.monotonic() - since)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guarded(lambda: RedisCache.add(self, key, value, timeout, version), True)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guarded(lambda: RedisCache.get(self, key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        self._guarded(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guarded(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guarded(lambda: RedisCache.delete(self, key, version), False)

    def get_many(self, keys: Iterable[Any], version: Any = None) -> dict[Any, Any]:
        return self._guarded(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guarded(lambda: RedisCache.has_key(self, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        answer: int | None = self._guarded(lambda: RedisCache.incr(self, key, delta, version), None)
        if answer is None:
            raise ValueError(f"Key {key!r} not found (the cache cannot be reached).")
        return answer

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        return self._guarded(lambda: RedisCache.set_many(self, data, timeout, version), list(data))

    def delete_many(self, keys: Iterable[Any], version: Any = None) -> None:
        self._guarded(lambda: RedisCache.delete_many(self, keys, version), None)

    def clear(self) -> None:
        self._guarded(lambda: RedisCache.clear(self), None)
