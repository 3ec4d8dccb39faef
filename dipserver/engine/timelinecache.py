"""Each variant's timeline, read once and kept (``load_timeline``): every game asks for it. A variant
without a ``timeline.toml`` has an empty one, and only a variant with the file loads TOML, the reader
(``timelinefile.py``) and its rows.
"""

from __future__ import annotations

import functools
from pathlib import Path

from dipserver.engine.timelinedata import Timeline
from dipserver.engine.variant import VARIANTS_DIR, Variant


def load_timeline(variant: Variant, root: Path | None = None) -> Timeline:
    """The checked timeline of ``variant`` (an empty one if it has no ``timeline.toml``), cached."""
    return _load_cached(variant, root or variant.source_root or VARIANTS_DIR)


@functools.lru_cache(maxsize=32)
def _load_cached(variant: Variant, root: Path) -> Timeline:
    path = root / variant.slug / "timeline.toml"
    if not path.is_file():
        return Timeline(variant.slug, str(path))
    from dipserver.engine.timelinefile import read_timeline  # the one lazy place: a timeline file to read

    return read_timeline(variant, path)


def variant_orders(variant: Variant) -> frozenset[str]:
    """The conversion orders ``variant`` enables (its timeline's ``[orders]``: the names of their kinds),
    kept per variant: the reader asks before every power's lines, the options for each unit of every power."""
    found = _VARIANT_ORDERS.get(variant)
    if found is None:
        if len(_VARIANT_ORDERS) >= 64:  # a server's variants are few; generated boards make more
            _VARIANT_ORDERS.clear()
        found = _VARIANT_ORDERS[variant] = load_timeline(variant).orders
    return found


_VARIANT_ORDERS: dict[Variant, frozenset[str]] = {}  # by identity: a Variant compares as itself
