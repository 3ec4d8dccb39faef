"""Where a game's variant comes from: one interface, ``VariantSource``, for both kinds of variant.

A variant of ``variants/`` is read from its folder's files, the same for every game. A generated variant
(Ice Lords, ``icelords.py``) has no folder: a generator deals a board for each game from a seed and a
number of powers, and draws it. The server asks ``variant_source(slug)`` and never a variant's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from dipserver.engine import icelords
from dipserver.engine.definition import Variant
from dipserver.engine.variant import VARIANTS_DIR, VariantError, load_variant


class VariantSource(Protocol):
    """A variant a game can be created with."""

    @property
    def slug(self) -> str: ...

    @property
    def generated(self) -> bool:
        """Dealt afresh for each game (no files to pin): a game keeps its seed and power count instead."""
        ...

    @property
    def powers(self) -> tuple[int, int] | None:
        """The fewest and most powers a game may be dealt for; ``None``: the variant's own powers."""
        ...

    @property
    def default_options(self) -> Mapping[str, Any]:
        """The game options it plays with unless its creator says otherwise."""
        ...

    def variant_for(self, seed: str, powers: int | None = None) -> Variant:
        """The variant a game dealt from ``seed`` plays (``VariantError`` if it cannot be made)."""
        ...

    def geometry_for(self, seed: str, powers: int | None = None) -> dict[str, Any] | None:
        """Its drawing in the geometry.json shape; ``None`` when its folder's geometry.json draws it."""
        ...


@dataclass(frozen=True, slots=True)
class FileSource:
    """A folder of ``variants/``: every game plays the same files, whatever its seed."""

    slug: str
    generated: bool = False
    powers: tuple[int, int] | None = None
    default_options: Mapping[str, Any] = field(default_factory=dict)

    def variant_for(self, seed: str, powers: int | None = None) -> Variant:
        return load_variant(self.slug)

    def geometry_for(self, seed: str, powers: int | None = None) -> dict[str, Any] | None:
        return None


@dataclass(frozen=True, slots=True)
class IceLordsSource:
    """The Ice Lords generator: a 9x9 board dealt from a seed for 2 to 6 powers."""

    slug: str = icelords.SLUG
    generated: bool = True
    powers: tuple[int, int] = (2, len(icelords.POWERS))
    default_options: Mapping[str, Any] = field(default_factory=lambda: dict(icelords.DEFAULT_OPTIONS))

    def variant_for(self, seed: str, powers: int | None = None) -> Variant:
        return self._dealt(seed, powers).variant

    def geometry_for(self, seed: str, powers: int | None = None) -> dict[str, Any] | None:
        return icelords.geometry(self._dealt(seed, powers))

    def _dealt(self, seed: str, powers: int | None) -> icelords.IceLordsMap:
        try:
            return icelords.generate(seed, self.powers[1] if powers is None else powers)
        except icelords.MapGenerationError as exc:
            raise VariantError(f"Ice Lords: {exc}") from exc


_GENERATED: Mapping[str, VariantSource] = {source.slug: source for source in (IceLordsSource(),)}


def variant_source(slug: str) -> VariantSource:
    """The source of variant ``slug``: its generator, else its folder. The folder is not looked at here
    (loading says if it is missing): a game pinned to a folder since removed plays from its archive."""
    return _GENERATED.get(slug) or FileSource(slug)


def generated_sources() -> tuple[VariantSource, ...]:
    """The variants dealt afresh for each game."""
    return tuple(_GENERATED.values())


def variant_slugs() -> list[str]:
    """Every variant a game can be created with: the folders of ``variants/`` and the generated ones."""
    return sorted({*(p.parent.name for p in VARIANTS_DIR.glob("*/variant.toml")), *_GENERATED})
