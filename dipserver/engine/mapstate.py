"""The map of one phase, as the variants whose map changes change it: ``MapState`` (terrain, named coasts,
centres, homes), and ``FrozenMap``, the immutable mapping it is made of.

Below the variant and the board: ``definition.Variant`` holds its start map, ``board.Board`` derives the
adjacencies of one (``board.py`` names both again, as it always did).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dipserver.engine.types import Terrain


class FrozenMap(Mapping[str, Any]):
    """An immutable, hashable mapping, so ``MapState`` can key caches."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    # The dict's own lookups and views: ``Mapping``'s Python versions go through ``__getitem__`` and catch
    # KeyError for a missing key, slow where the board asks a terrain it lacks.
    def get(self, key: str, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def keys(self) -> Any:
        return self._data.keys()

    def items(self) -> Any:
        return self._data.items()

    def values(self) -> Any:
        return self._data.values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    # Pickled (the variant cache) without its hash: string hashes differ from one process to the next.
    def __getstate__(self) -> dict[str, Any]:
        return self._data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._data = data
        self._hash = None


@dataclass(frozen=True, slots=True)
class MapState:
    """The per-phase map. Plain mappings passed in are frozen, so equal states hash equally."""

    terrain: Mapping[str, Terrain]
    coasts: Mapping[str, Mapping[str, frozenset[str]]]  # province -> coast -> water provinces it touches
    supply_centres: frozenset[str]
    homes: Mapping[str, str]  # home centre -> power

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain", FrozenMap({p: Terrain(t) for p, t in self.terrain.items()}))
        coasts = {
            prov: FrozenMap({c: frozenset(w) for c, w in named.items()})
            for prov, named in self.coasts.items()
            if named
        }
        object.__setattr__(self, "coasts", FrozenMap(coasts))
        object.__setattr__(self, "supply_centres", frozenset(self.supply_centres))
        object.__setattr__(self, "homes", FrozenMap(self.homes))
