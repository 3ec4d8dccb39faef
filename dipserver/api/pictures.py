"""Map pictures as the API serves them: PNG widths snapped to a few sizes, and every picture drawn once per
phase state and size, kept in Django's cache (``CACHE_URL``: shared by every worker in production).

Drawing a 4000-pixel PNG takes seconds; with free widths, ``?width=4000``, ``3999``, ``3998`` were three
drawings. Now a width is rounded up to the next of :data:`PNG_WIDTHS` (the largest if above it), so a
phase has at most a handful of pictures, and each is drawn once.
"""

from __future__ import annotations

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


def png_width(raw: str | None) -> int | None:
    """The width to draw for ``?width=``: None (the map's own size) or the next size of PNG_WIDTHS."""
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or not MIN_WIDTH <= int(raw) <= MAX_WIDTH:
        raise ValidationError(
            {"width": f"A whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}; drawn at {WIDTHS_TEXT}."}
        )
    return next((width for width in PNG_WIDTHS if width >= int(raw)), PNG_WIDTHS[-1])


def picture(key: str, draw: Callable[[], bytes | str], *, processed: bool) -> bytes | str:
    """The picture stored under ``key``, drawn and stored first if it is not there yet."""
    body: bytes | str | None = cache.get(key)
    if body is None:
        body = draw()
        cache.set(key, body, PROCESSED_SECONDS if processed else OPEN_SECONDS)
    return body


def picture_key(game_id: int, index: int, visibility: str, kind: str, tag: str | None) -> str:
    """One cache entry per phase, what its viewer may see, format and size, and the phase's state."""
    return f"dipserver:picture:{game_id}:{index}:{visibility}:{kind}:{tag}"
