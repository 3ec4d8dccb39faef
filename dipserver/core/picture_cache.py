"""Pictures drawn once per phase state and size, kept in Django's cache (``CACHE_URL``: shared by every
worker in production), for the API's maps and for the pictures in mail alike.

Once also holds when many ask at the same moment for a picture not drawn yet (a new phase opens and every
player's page asks for its map; its results go to every player): the first takes a lock in the same cache
(``cache.add``) and draws, the others wait for its picture instead of drawing it too. A drawing that raises
stores nothing, so the next caller draws again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

# A processed phase never changes; an open one's tag changes with it, so its entries are never stale and
# need only outlive the phase.
PROCESSED_SECONDS = 30 * 24 * 3600
OPEN_SECONDS = 24 * 3600
# The lock outlives the slowest drawing (a 3200-pixel PNG takes seconds); a waiter that outlasts it, its
# drawer having died or stalled, draws the picture itself.
LOCK_SECONDS = 30.0
WAIT_STEP_SECONDS = 0.05

# A PNG is bytes, an SVG text: each caller gets back the type its drawing gives.
Body = TypeVar("Body", bound=bytes | str)


def picture(key: str, draw: Callable[[], Body], *, processed: bool) -> Body:
    """The picture stored under ``key``, drawn and stored first if it is not there yet, by one caller
    at a time: the others wait for it."""
    body: Body | None = cache.get(key)
    if body is not None:
        return body
    lock, give_up = f"{key}:drawing", time.monotonic() + LOCK_SECONDS
    while not (locked := cache.add(lock, 1, LOCK_SECONDS)) and time.monotonic() < give_up:
        time.sleep(WAIT_STEP_SECONDS)
        body = cache.get(key)
        if body is not None:
            return body
    try:
        body = cache.get(key)  # drawn between the first look and taking the lock
        if body is None:
            body = draw()
            cache.set(key, body, PROCESSED_SECONDS if processed else OPEN_SECONDS)
        return body
    finally:
        if locked:
            cache.delete(lock)


def picture_key(game_id: int, index: int, visibility: str, kind: str, tag: str | None) -> str:
    """One cache entry per phase, what its viewer may see, format and size, and the phase's state."""
    return f"dipserver:picture:{game_id}:{index}:{visibility}:{kind}:{tag}"
