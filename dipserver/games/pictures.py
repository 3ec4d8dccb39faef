"""A phase's picture: what ``dipserver.render`` is given to draw it, for the API's map and for mail.

The same arguments for every viewer: no orders before a phase is processed, everyone's with their
results after, and never the Snow Storms waiting to be drawn (other powers' secret orders).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from dipserver.core.picture_cache import picture, picture_key
from dipserver.engine import Variant
from dipserver.games.changes import next_changes
from dipserver.games.errors import GameError
from dipserver.games.mappers import map_state_of, position_of
from dipserver.games.models import Game, Phase
from dipserver.games.phase_names import game_phase_title
from dipserver.games.variants import game_variant, geometry_of
from dipserver.render import GeometryError, render_png

# What a mail's picture reference names for a phase (``dipserver.mail.pictures``).
PHASE_PICTURE = "phase"
# No orders before a phase is processed and everyone's after: every viewer sees the same picture.
_VISIBILITY = "public"


def phase_picture_args(game: Game, phase: Phase, variant: Variant | None = None) -> dict[str, Any]:
    """Everything ``render_svg`` takes for a phase: the pinned variant (a generated board with its own
    drawing; ``GameError`` if it cannot be rebuilt), the map, units, the rule modules as the phase
    opened, the changes to come and, once processed, every power's orders with their results (bounced,
    cut, dislodged)."""
    snapshot = phase.snapshot
    # The stored records are drawn as they are (an order that did not read has no kind: nothing drawn).
    results = phase.results if phase.status == Phase.Status.PROCESSED else []
    return {
        "variant": variant or game_variant(game),
        "map_state": map_state_of(snapshot),
        "position": position_of(snapshot),
        "results": results or None,
        "next_changes": next_changes(game, phase.name) or None,
        "modules": drawn_modules(snapshot),
        "geometry": geometry_of(game),
    }


def drawn_modules(snapshot: dict[str, Any]) -> dict[str, Any] | None:
    """The snapshot's modules for the picture, without the Snow Storms waiting to be drawn (secret)."""
    modules = snapshot.get("modules")
    if not modules:
        return None
    state = {k: v for k, v in (modules.get("state") or {}).items() if k != "storms"}
    return {**modules, "state": state}


def phase_png(phase_id: int, width: int) -> tuple[bytes, str]:
    """The phase drawn as a PNG ``width`` pixels wide, and words that say what it shows (its ``alt``).
    Drawn once per phase state and width, shared by every mail of the phase and every retry of one
    (``dipserver.core.picture_cache``). Raises whatever drawing raises (``GameError``,
    ``GeometryError``, a missing phase ...), and then nothing is kept."""
    phase = Phase.objects.select_related("game").get(id=phase_id)
    game, processed = phase.game, phase.status == Phase.Status.PROCESSED
    title = game_phase_title(game, phase.name)
    alt = f"The map of {game.name}, {title}" + (", with every order and its outcome" if processed else "")
    key = picture_key(game.id, phase.index, _VISIBILITY, f"image/png;{width}", phase_state(phase))
    png = picture(
        key, lambda: render_png(**phase_picture_args(game, phase), width=width), processed=processed
    )
    return png, alt


def phase_state(phase: Phase) -> str:
    """What the phase's picture depends on: the phase row (a phase reverted and processed again, or one
    whose index a reverted game fills anew, is another picture) and the game's version, which every save
    of the game bumps (its status decides, for one, whether a random timeline's changes may be drawn)."""
    processed_at = phase.processed_at.isoformat() if phase.processed_at else "-"
    return f"{phase.id}:{phase.status}:{processed_at}:{phase.game.version}"


# A PNG asked for through the API is drawn by the picture workers (their own queue, a bounded pool), never
# in a web process: a 3200-pixel map takes seconds. The web queues it once (this marker, in the shared
# cache, until the drawing ends or the marker lapses) and answers 202 until the picture is in the cache.
QUEUED_SECONDS = 60
# A phase that cannot be drawn (a board with no drawing yet): the web answers 404 with this text.
FAILED_SECONDS = 3600


def picture_queued_key(key: str) -> str:
    return f"{key}:queued"


def picture_failed_key(key: str) -> str:
    return f"{key}:failed"


def phase_png_drawn(*, game_id: int, index: int, width: int | None, key: str) -> bool:
    """Draw the phase's PNG into the picture cache under ``key`` (the picture worker's side). False when
    the phase is gone or cannot be drawn (then the reason is kept under ``picture_failed_key``)."""
    try:
        phase = Phase.objects.select_related("game").filter(game_id=game_id, index=index).first()
        if phase is None:
            return False
        game, processed = phase.game, phase.status == Phase.Status.PROCESSED
        try:
            picture(
                key, lambda: render_png(**phase_picture_args(game, phase), width=width), processed=processed
            )
        except (GameError, GeometryError) as exc:
            cache.set(picture_failed_key(key), f"There is no drawing of this map yet: {exc}", FAILED_SECONDS)
            return False
        return True
    finally:
        cache.delete(picture_queued_key(key))
