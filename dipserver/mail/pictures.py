"""Pictures drawn into a mail when it is sent, never stored with it: the outbox row names what to draw
(``"phase:12"``), and the app that knows how registers a drawer for that kind (games: ``phase``). The
drawer keeps what it draws (games: once per phase state and width, in the shared cache), so the mails of
one phase and the retries of one mail draw it once.

Drawing is best effort: whatever goes wrong (nothing registered, a map that cannot be drawn, a phase
gone) is logged and the mail goes without its picture, at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger(__name__)

# A drawer takes the id the reference names and a width in pixels, and gives the PNG and words that say
# what it shows.
Drawer = Callable[[int, int], tuple[bytes, str]]
_drawers: dict[str, Drawer] = {}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# How wide a mail's picture is drawn and shown: small enough for a mail, wide enough to read the orders.
PICTURE_WIDTH = 600


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str


def picture_drawer_register(kind: str, drawer: Drawer) -> None:
    """Draw references ``"<kind>:<id>"`` with ``drawer`` (registered in an app's ``ready``)."""
    _drawers[kind] = drawer


def picture_ref(kind: str, object_id: int) -> str:
    """What an outbox row stores to have ``kind`` ``object_id`` drawn into the mail when it is sent."""
    return f"{kind}:{object_id}"


def picture_draw(ref: str) -> Picture | None:
    """The picture ``ref`` names, or ``None`` (logged) when it cannot be drawn: the mail goes without."""
    kind, _, object_id = ref.partition(":")
    try:
        png, alt = _drawers[kind](int(object_id), PICTURE_WIDTH)
        if not png.startswith(PNG_SIGNATURE):
            raise ValueError("the drawing is not a PNG")
    except Exception:  # a picture is never worth a mail: anything the drawing raises is only logged
        logger.exception("The picture %r of a mail could not be drawn; the mail goes without it", ref)
        return None
    return Picture(png, alt)
