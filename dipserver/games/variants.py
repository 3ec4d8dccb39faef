"""A game's variant: pinned when the game is created, loaded from that pin whenever the game is played.

A variant from ``variants/`` is archived (``VariantArchive``: its TOML files and its base's, keyed by the
version hash and shared by every game on that version); processing and reading load the pinned version —
straight from ``variants/`` while the files there still hash to it, otherwise from the archive. A
generated board (Ice Lords) has no files: it is rebuilt from the game secret and ``Game.board``, and the
rebuilt board must hash to the pinned version.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from dipserver.engine import icelords
from dipserver.engine.icelords import MapGenerationError
from dipserver.engine.modules import Modules, split_options
from dipserver.engine.timeline import Timeline, TimelineError, load_timeline
from dipserver.engine.variant import (
    Variant,
    VariantError,
    load_variant,
    load_variant_from_sources,
    variant_sources,
)
from dipserver.games.errors import GameError
from dipserver.games.models import Game, VariantArchive

_T = TypeVar("_T")

GENERATED = "ice_lords"  # the slug of the board generated per game (dipserver.engine.icelords)


def variant_pinned(*, slug: str, secret: str, powers: int | None = None) -> tuple[Variant, dict[str, Any]]:
    """The variant a new game pins, and what regenerates it (``Game.board``); archives its files."""
    if slug == GENERATED:
        count = 6 if powers is None else powers
        return _generated(secret, count), {"powers": count}
    if powers is not None:
        raise GameError(f"Only a generated board takes a number of powers; {slug} has its own")
    try:
        files = variant_sources(slug)
    except VariantError as exc:
        raise GameError(f"Variant {slug!r} cannot be used: {exc}") from exc
    variant = _checked(slug, lambda: load_variant_from_sources(slug, files))
    VariantArchive.objects.get_or_create(version=variant.version, defaults={"slug": slug, "files": files})
    return variant, {}


def game_variant(game: Game) -> Variant:
    """The variant ``game`` is played with: exactly the version it pinned."""
    variant: Variant | None
    if game.variant == GENERATED:
        variant = _generated(game.secret, game.board.get("powers", 6))
    else:
        variant = _current(game.variant)
        if variant is None or variant.version != game.variant_version:
            variant = _archived(game.variant_version)
    if variant.version != game.variant_version:
        raise GameError(f"{game.name}: its variant version {game.variant_version[:12]} cannot be rebuilt")
    return variant


def game_timeline(game: Game) -> tuple[Variant, Timeline]:
    variant = game_variant(game)
    return variant, _checked(variant.slug, lambda: load_timeline(variant))


def game_modules(game: Game) -> Modules:
    """The rule modules the game plays with (checked when it was created)."""
    return split_options(game.options)[0]


def options_checked(timeline: Timeline, options: dict[str, Any] | None) -> dict[str, Any]:
    """A new game's options: the variant's timeline options with their defaults, plus the rule modules
    switched on (``blizzards``, ``supply_lines``), each checked with a message for the user."""
    try:
        modules, rest = split_options(options)
    except ValueError as exc:
        raise GameError(str(exc)) from exc
    try:
        resolved = timeline.game_options(rest)
    except TimelineError as exc:
        raise GameError(str(exc)) from exc
    return {**resolved, **{k: v for k, v in modules.to_options().items() if v is not False}}


def timeline_options(game: Game) -> dict[str, Any]:
    """The game's options without the rule modules: what the timeline functions take."""
    return split_options(game.options)[1]


def _current(slug: str) -> Variant | None:
    try:
        return load_variant(slug)
    except VariantError:
        return None  # broken on disk now: the archive still has the pinned files


@functools.lru_cache(maxsize=64)
def _archived(version: str) -> Variant:
    # Content-addressed: a version's files never change, so the variant built from them is cached for good.
    archive = VariantArchive.objects.filter(version=version).first()
    if archive is None:
        raise GameError(f"Variant version {version[:12]} is not archived")
    return _checked(archive.slug, lambda: load_variant_from_sources(archive.slug, archive.files))


@functools.lru_cache(maxsize=64)
def _generated(secret: str, powers: int) -> Variant:
    try:
        return icelords.generate(secret, powers).variant
    except MapGenerationError as exc:
        raise GameError(f"Ice Lords: {exc}") from exc


def _checked(slug: str, load: Callable[[], _T]) -> _T:
    try:
        return load()
    except (VariantError, TimelineError) as exc:
        raise GameError(f"Variant {slug!r} cannot be used: {exc}") from exc
