"""Map pictures as the API serves them: PNG widths snapped to a few sizes, and every picture drawn once per
phase state and size, kept in Django's cache (``CACHE_URL``: shared by every worker in production).

Drawing a 4000-pixel PNG takes seconds; with free widths, ``?width=4000``, ``3999``, ``3998`` were three
drawings. Now a width is rounded up to the next of :data:`PNG_WIDTHS` (the largest if above it), so a
phase has at most a handful of pictures, and each is drawn once.

Once also holds when many ask at the same moment for a picture not drawn yet (a new phase opens and every
player's page asks for its map): the first takes a lock in the same cache (``cache.add``) and draws, the
others wait for its picture instead of drawing it too.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.core.cache import cache
from rest_framework.exceptions import ValidationError

PNG_WIDTHS = (400, 800, 1200, 1600, 2400, 3200)
WIDTHS_TEXT = ", ".join(str(width) for width in PNG_WIDTHS)
MIN_WIDTH, MAX_WIDTH = 100, 4000  # what ?width= accepts before it is snapped
# A processed phase never changes; an open one's tag changes with it, so its entries are never stale and
# need only outlive the phase.
PROCESSED_SECONDS = 30 * 24 * 3600
OPEN_SECONDS = 24 * 3600
# The lock outlives the slowest drawing (a 3200-pixel PNG takes seconds); a waiter that outlasts it, its
# drawer having died or stalled, draws the picture itself.
LOCK_SECONDS = 30.0
WAIT_STEP_SECONDS = 0.05


def png_width(raw: str | None) -> int | None:
    """The width to draw for ``?width=``: None (the map's own size) or the next size of PNG_WIDTHS."""
    if raw is None:
        return None
    if not raw.isdigit() or not MIN_WIDTH <= int(raw) <= MAX_WIDTH:
        raise ValidationError(
            {"width": f"A whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}; drawn at {WIDTHS_TEXT}."}
        )
    return next((width for width in PNG_WIDTHS if width >= int(raw)), PNG_WIDTHS[-1])


def picture(key: str, draw: Callable[[], bytes | str], *, processed: bool) -> bytes | str:
    """The picture stored under ``key``, drawn and stored first if it is not there yet, by one caller
    at a time: the others wait for it."""
    body: bytes | str | None = cache.get(key)
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
