"""Map pictures as the API serves them: PNG widths snapped to a few sizes, each picture drawn once per
phase state and size (``dipserver.core.picture_cache``, which the pictures in mail share).

Drawing a 4000-pixel PNG takes seconds; with free widths, ``?width=4000``, ``3999``, ``3998`` were three
drawings. Now a width is rounded up to the next of :data:`PNG_WIDTHS` (the largest if above it), so a
phase has at most a handful of pictures, and each is drawn once.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError

from dipserver.api.inputs import whole_number

PNG_WIDTHS = (400, 800, 1200, 1600, 2400, 3200)
WIDTHS_TEXT = ", ".join(str(width) for width in PNG_WIDTHS)
MIN_WIDTH, MAX_WIDTH = 100, 4000  # what ?width= accepts before it is snapped


def png_width(raw: str | None) -> int | None:
    """The width to draw for ``?width=``: None (the map's own size) or the next size of PNG_WIDTHS."""
    if raw is None:
        return None
    asked = whole_number(raw, MIN_WIDTH, MAX_WIDTH)
    if asked is None:
        raise ValidationError(
            {"width": f"A whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}; drawn at {WIDTHS_TEXT}."}
        )
    return next((width for width in PNG_WIDTHS if width >= asked), PNG_WIDTHS[-1])
