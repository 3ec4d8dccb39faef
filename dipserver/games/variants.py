"""A game's variant: pinned when the game is created, loaded from that pin whenever the game is played.

A variant from ``variants/`` is archived (``VariantArchive``: its TOML files and its base's, keyed by the
version hash and shared by every game on that version); processing and reading load the pinned version —
straight from ``variants/`` while the files there still hash to it, otherwise from the archive. A
generated board (Ice Lords) has no files: it is rebuilt from ``Game.board`` (its power count, and the seed
it was dealt from, the game secret unless the creator gave one), and the rebuilt board must hash to the
pinned version. The variant pages show a sample deal (``sample_variant``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from dipserver.engine import (
    Modules,
    Timeline,
    TimelineError,
    Variant,
    VariantError,
    VariantSource,
    generated_sources,
    load_timeline,
    load_variant,
    load_variant_from_sources,
    modules_for,
    split_options,
    variant_slugs,
    variant_source,
    variant_sources,
)
from dipserver.games.errors import GameError
from dipserver.games.models import Game, VariantArchive
from dipserver.studio.models import VariantVersion

_T = TypeVar("_T")

# The fewest and most powers any generated board is dealt for (what the API's "powers" field accepts).
GENERATED_POWERS = (
    min(low for low, _ in (s.powers for s in generated_sources() if s.powers)),
    max(high for _, high in (s.powers for s in generated_sources() if s.powers)),
)
SAMPLE_SEED = "sample"  # the deal the variant pages and the variant API show for a generated board


def variant_pinned(
    *,
    slug: str,
    secret: str,
    powers: int | None = None,
    seed: str | None = None,
    studio: VariantVersion | None = None,
) -> tuple[Variant, dict[str, Any]]:
    """The variant a new game pins, and what regenerates it (``Game.board``); archives its files.

    A generated board is dealt for ``powers`` powers (default the most) from ``seed`` if given (the same
    seed deals the same board), else from the game ``secret``; the game's other draws (blizzards) always
    come from its secret. A studio version (``studio``) is pinned from its frozen files, archived as any
    variant's are, so the game plays it as it is now whatever is published later."""
    if studio is not None:
        return _studio_pinned(studio), {}
    source = source_of(slug)
    if source.generated:
        count = generated_powers(source)[1] if powers is None else powers
        if seed is not None and not (seed.strip() and len(seed) <= 100):
            raise GameError("A board seed is 1 to 100 characters, not blank")
        board: dict[str, Any] = {"powers": count} if seed is None else {"powers": count, "seed": seed}
        return _generated(slug, seed if seed is not None else secret, count), board
    if powers is not None:
        raise GameError(f"Only a generated board takes a number of powers; {slug} has its own")
    if seed is not None:
        raise GameError(f"Only a generated board is dealt from a seed; {slug} has its own map")
    try:
        files = variant_sources(slug)
    except VariantError as exc:
        raise GameError(f"Variant {slug!r} cannot be used: {exc}") from exc
    variant = _checked(slug, lambda: load_variant_from_sources(slug, files))
    VariantArchive.objects.get_or_create(version=variant.version, defaults={"slug": slug, "files": files})
    return variant, {}


def studio_version_published(version_id: int) -> VariantVersion:
    """A published studio version a new game may pin (``not_found`` otherwise: unpublished or missing)."""
    version = VariantVersion.objects.filter(id=version_id, published=True).first()
    if version is None:
        raise GameError(f"There is no published studio variant version {version_id}", code="not_found")
    return version


def studio_versions_published() -> list[VariantVersion]:
    """The newest published version of each studio variant: what the create form and the lobby offer."""
    newest: dict[str, VariantVersion] = {}
    for version in (
        VariantVersion.objects.filter(published=True).select_related("author").order_by("slug", "-number")
    ):
        newest.setdefault(version.slug, version)
    return list(newest.values())


@functools.lru_cache(maxsize=32)
def studio_variant(version_id: int) -> Variant:
    """A published studio version as the engine builds it (nothing archived: for reading, e.g. the create
    form's choices). A version's files never change, so it is built once per process."""
    version = VariantVersion.objects.get(id=version_id)
    return _checked(version.slug, lambda: load_variant_from_sources(version.slug, version.files))


def _studio_pinned(version: VariantVersion) -> Variant:
    return studio_files_pinned(version.slug, version.files, version.version, str(version))


def studio_files_pinned(slug: str, files: dict[str, str], version: str, called: str) -> Variant:
    """The variant studio files build (a published version's, or a checked draft's for a sandbox),
    archived as a ``VariantArchive`` so whatever pins ``version`` plays these files for good; ``called``
    names them in the refusal when they do not rebuild to ``version``."""
    variant = _checked(slug, lambda: load_variant_from_sources(slug, files))
    if variant.version != version:
        raise GameError(f"Studio variant {called} cannot be rebuilt from its files")
    VariantArchive.objects.get_or_create(version=variant.version, defaults={"slug": slug, "files": files})
    return variant


def game_variant(game: Game) -> Variant:
    """The variant ``game`` is played with: exactly the version it pinned."""
    variant: Variant | None
    source = source_of(game.variant)
    if source.generated:
        variant = _generated(game.variant, deal_seed(game), _dealt_powers(game, source))
    else:
        variant = _current(game.variant)
        if variant is None or variant.version != game.variant_version:
            variant = _archived(game.variant_version)
    if variant.version != game.variant_version:
        raise GameError(f"{game.name}: its variant version {game.variant_version[:12]} cannot be rebuilt")
    return variant


def phase_variant(game: Game, version: str) -> Variant:
    """The variant a phase of ``game`` was played with (its ``variant_version``): the game's own, or a
    studio version its game master moved it on from (``services.versions``), kept in the archive."""
    return game_variant(game) if version == game.variant_version else _archived(version)


def deal_seed(game: Game) -> str:
    """What a generated board was dealt from: the seed its creator gave, else the game secret."""
    return str(game.board.get("seed") or game.secret)


def playable_slugs() -> list[str]:
    """Every variant a game can be created with: the folders of ``variants/`` and the generated board."""
    return variant_slugs()


def sample_variant(slug: str) -> Variant:
    """The variant as its pages show it: a generated board's sample deal (the most powers), else the
    variant from ``variants/`` (``VariantError`` if it does not load)."""
    source = source_of(slug)
    if source.generated:
        return _generated(slug, SAMPLE_SEED, generated_powers(source)[1])
    return load_variant(slug)


def sample_geometry(slug: str) -> dict[str, Any] | None:
    """The drawing of ``sample_variant(slug)`` when it is generated; ``None`` when its files draw it."""
    source = source_of(slug)
    if not source.generated:
        return None
    return generated_geometry(slug, SAMPLE_SEED, generated_powers(source)[1])


def source_of(slug: str) -> VariantSource:
    """Where variant ``slug`` comes from: its folder in ``variants/`` or its generator."""
    return variant_source(slug)


def is_generated(slug: str) -> bool:
    """Whether ``slug`` is dealt afresh for each game (a slug no longer playable is not)."""
    return any(source.slug == slug for source in generated_sources())


def generated_powers(source: VariantSource) -> tuple[int, int]:
    """The fewest and most powers a generated board is dealt for."""
    if source.powers is None:
        raise GameError(f"{source.slug} is not dealt for a number of powers")
    return source.powers


@functools.lru_cache(maxsize=32)
def generated_geometry(slug: str, seed: str, powers: int) -> dict[str, Any] | None:
    # The board is a pure function of (seed, powers), so its drawing is too.
    try:
        return variant_source(slug).geometry_for(seed, powers)
    except VariantError as exc:
        raise GameError(str(exc)) from exc


def game_timeline(game: Game) -> tuple[Variant, Timeline]:
    variant = game_variant(game)
    return variant, _checked(variant.slug, lambda: load_timeline(variant))


def game_modules(game: Game) -> Modules:
    """The rule modules the game plays with (checked when it was created), with the Abstraction A/F rules
    where its variant plays them unless an option says otherwise (Deluge)."""
    return modules_for(game_variant(game), game.options)


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
def _generated(slug: str, secret: str, powers: int) -> Variant:
    try:
        return variant_source(slug).variant_for(secret, powers)
    except VariantError as exc:
        raise GameError(str(exc)) from exc


def _dealt_powers(game: Game, source: VariantSource) -> int:
    return int(game.board.get("powers", generated_powers(source)[1]))


def _checked(slug: str, load: Callable[[], _T]) -> _T:
    try:
        return load()
    except (VariantError, TimelineError) as exc:
        raise GameError(f"Variant {slug!r} cannot be used: {exc}") from exc


def geometry_of(game: Game) -> dict[str, Any] | None:
    """The drawing of a generated board (Ice Lords), of a studio version drawn from an SVG map, or the one
    pinned in ``board["geometry"]`` (a sandbox of a studio draft keeps the draft's drawing there, frozen);
    ``None`` for a variant drawn from its (or its base's) files."""
    if game.studio_version_id is not None:
        return _studio_geometry(game.studio_version_id)
    pinned: dict[str, Any] | None = game.board.get("geometry")
    if pinned is not None:
        return pinned
    source = source_of(game.variant)
    if not source.generated:
        return None
    return generated_geometry(game.variant, deal_seed(game), _dealt_powers(game, source))


@functools.lru_cache(maxsize=32)
def _studio_geometry(version_id: int) -> dict[str, Any] | None:
    # A published version never changes, so its drawing is read once per process.
    geometry: dict[str, Any] | None = (
        VariantVersion.objects.filter(id=version_id).values_list("geometry", flat=True).first()
    )
    return geometry
