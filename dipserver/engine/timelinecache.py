"""Each variant's timeline, read once and kept (``load_timeline``): every game asks for it. A variant
without a ``timeline.toml`` has an empty one, and only a variant with the file loads TOML, the reader
(``timelinefile.py``) and its rows. Folders are ``os.path`` strings, as the variant loader's
(``variantcache.py``): a one-request process never imports ``pathlib``.
"""

from __future__ import annotations

import functools
import os

from dipserver.engine import variantcache
from dipserver.engine.definition import Variant
from dipserver.engine.timelinedata import Timeline


def load_timeline(variant: Variant, root: str | os.PathLike[str] | None = None) -> Timeline:
    """The checked timeline of ``variant`` (an empty one if it has no ``timeline.toml``), cached."""
    return _load_cached(variant, os.fspath(root or variant.source_root or variantcache.VARIANTS_ROOT))


@functools.lru_cache(maxsize=32)
def _load_cached(variant: Variant, root: str) -> Timeline:
    path = os.path.join(root, variant.slug, "timeline.toml")
    if not os.path.isfile(path):
        return Timeline(variant.slug, path)
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
