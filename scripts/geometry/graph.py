"""The border graph the drawing must agree with, read from the variant files (never a copy of them).

The standard map plus every province that a variant extending it adds (SWI, IRE, ICE, CAS): one
geometry serves all of them, so the graph is their union.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VARIANTS = REPO / "variants"


@dataclass
class Province:
    code: str
    terrain: str
    borders: set[str] = field(default_factory=set)
    coasts: dict[str, list[str]] = field(default_factory=dict)


def _read(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def load_graph(base: str = "standard") -> dict[str, Province]:
    """Provinces of ``base`` and of every variant whose variant.toml says ``base = "<base>"``."""
    files = [VARIANTS / base / "map.toml"]
    files += [
        v.parent / "map.toml"
        for v in sorted(VARIANTS.glob("*/variant.toml"))
        if _read(v).get("base") == base and (v.parent / "map.toml").exists()
    ]
    provinces: dict[str, Province] = {}
    for path in files:
        for code, data in _read(path).get("provinces", {}).items():
            prov = provinces.setdefault(code, Province(code, data.get("terrain", "land")))
            prov.borders.update(data.get("borders", ()))
            prov.borders.update(data.get("add_borders", ()))
            prov.coasts.update(data.get("coasts", {}))
    for code, prov in provinces.items():  # borders are symmetric; a file may list one side only
        for other in prov.borders:
            provinces[other].borders.add(code)
    return provinces


def edges(provinces: dict[str, Province]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, p in provinces.items() for b in p.borders}
