"""What a variant is, once loaded: the ``Variant`` record, its powers and its provinces' names.

``variantfiles.py`` reads and checks a variant's files and builds this record, ``variant.py`` loads and
keeps it (and names it again, as it always did); the board, the coasts and every rule read it. It lives
apart from the loader, which needs the board, so that the board can name it without an import cycle. So do
the two things both the loader and the disk cache need: ``VariantError`` and the list of a variant
folder's files (``toml_files``), here so that a variant read from the cache never loads the loader.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from dipserver.engine.mapstate import MapState
    from dipserver.engine.position import Position


@dataclass(frozen=True, slots=True)
class Power:
    """A power's display data (its key in ``Variant.powers`` is its upper-case name)."""

    name: str
    adjective: str
    colour: str


@dataclass(frozen=True, slots=True)
class ProvinceInfo:
    """A province's code and the names players may write for it."""

    code: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Variant:
    """One variant's fixed data. Compared and hashed by identity: it is loaded once and cached."""

    slug: str
    name: str
    description: str
    version: str  # sha256 of its files (and its base's): pin it on a game so replays stay identical
    base: str | None
    powers: Mapping[str, Power]
    provinces: Mapping[str, ProvinceInfo]
    borders: Mapping[str, frozenset[str]]  # symmetric, as drawn, regardless of terrain
    coast_waters: Mapping[str, Mapping[str, frozenset[str]]]  # multi-coast province -> coast -> waters
    fleet_exceptions: frozenset[frozenset[str]]  # coast-to-coast pairs the derivation must not produce
    map_state: MapState  # the map at the start
    start: Position
    victory_centres: int
    build_rule: str  # "home": owned home centres only; "owned": any owned centre
    names: Mapping[str, str]  # normalised name/alias/code -> province code, for the order parser
    impassable_seas: str = "shore"  # see IMPASSABLE_SEAS: [rules] impassable_seas in variant.toml
    # How a place that became impassable is drawn ([drawing] closed in variant.toml, see CLOSED_LOOKS).
    closed_look: str = "medium"
    # The variant's own [[victory]] conditions (victory.py), besides those of its timeline: a generated
    # board (Ice Lords) has no timeline file. And the last year a game plays when its game master sets
    # none (None: no limit); after its Winter the game ends with no winner.
    victory: tuple[Mapping[str, Any], ...] = ()
    default_end_year: int | None = None
    # Where its files were read when not from ``variants/`` (an archived version): its timeline is there too.
    source_root: Path | None = None

    def lookup(self, text: str) -> str | None:
        """Province code for a code, full name or alias in any case; ``None`` if unknown."""
        return self.names.get(normalise_name(text))


def normalise_name(text: str) -> str:
    """``"St. Petersburg"`` reads as ``"st petersburg"``, ``Mid-Atlantic`` as ``mid atlantic``."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


class VariantError(ValueError):
    """A variant's files are missing, malformed or inconsistent."""


def toml_files(folder: str | os.PathLike[str]) -> list[tuple[str, bytes]]:
    """A variant folder's TOML files, by name: all of them go into its version and the cache's key (none
    for a folder that is not there). ``os`` rather than ``pathlib``: the disk cache's check reads them."""
    if not os.path.isdir(folder):
        return []
    found = []
    for name in sorted(entry for entry in os.listdir(folder) if entry.endswith(".toml")):
        with open(os.path.join(folder, name), "rb") as fh:
            found.append((name, fh.read()))
    return found
