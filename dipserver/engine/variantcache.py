"""Loading a variant, kept in memory and on disk: ``load_variant``, what a one-request process needs of
``variant.py``. Folders are ``os.path`` strings here: a process that reads its variant from the disk cache
never imports ``pathlib`` (with ``urllib.parse``, ``ipaddress`` and ``fnmatch``, which it loads, a good part
of a one-request command's start-up). ``variant.py`` is the face of loading (``VARIANTS_DIR``, the variant's
sources) and names ``load_variant`` again.
"""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from typing import Any

from dipserver.engine.board import Board, board_for, preload_board
from dipserver.engine.definition import Variant, toml_files

# hashlib, tomllib, tempfile, shutil and the loader (variantfiles.py) are imported where a variant is built:
# a variant read from the disk cache needs none of them, and together they cost a one-request process
# several milliseconds.

# The repository's variants/ (``variant.VARIANTS_DIR`` as a ``Path``); a test may point it elsewhere.
VARIANTS_ROOT = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "variants"
)
_REPOSITORY_VARIANTS = os.path.realpath(VARIANTS_ROOT)  # the only root kept on disk (see "The disk cache")


def load_variant(slug: str, root: str | os.PathLike[str] | None = None) -> Variant:
    """The validated variant ``slug`` from ``root`` (default: the repository's ``variants/``), cached."""
    return _load_cached(slug, os.path.realpath(root or VARIANTS_ROOT))


@functools.lru_cache(maxsize=32)
def _load_cached(slug: str, root: str) -> Variant:
    kept = root == _REPOSITORY_VARIANTS  # a copy (tests) or an archived version: built, never kept on disk
    if kept and (cached := _read_cache(slug, root)) is not None:
        return cached
    from pathlib import Path  # the loader's folders are paths (it imports pathlib itself)

    from dipserver.engine.variantfiles import _Loader  # only a variant being built needs the loader

    loader = _Loader(Path(root))
    variant = loader.build(slug)
    if kept:
        _write_cache(slug, loader.sources, variant)
        return variant
    return replace(variant, source_root=Path(root))  # its timeline is read from beside it too


# --- the disk cache -----------------------------------------------------------------------------------
# A variant built from the repository's variants/ is pickled together with its start board to
# ``<var>/cache/variants/<slug>.pickle`` (``<var>``: $DIPSERVER_VAR_DIR, else the repository's var/, the
# server's rule). The file opens with its key: the exact bytes of every TOML file the variant was built
# from (its base chain's too) and of the engine modules that decide what it holds. A load reads those files
# again and takes the cache only if every byte is the same, so any edit to a variant or to this code
# rebuilds it. Missing, stale, corrupt or unwritable, the cache is never an error: the variant is built as
# it would be without it. Like a .pyc the file is trusted (it is unpickled), so it lives in the server's
# own var/ directory.

_CACHE_FORMAT = 1  # bump when the layout of the file changes
# What a built variant and its start board are made by (board.py derives with coasts.py's shore rule).
_CODE_FILES = (
    "variant.py",
    "variantcache.py",
    "variantfiles.py",
    "definition.py",
    "mapstate.py",
    "board.py",
    "types.py",
    "position.py",
    "coasts.py",
)


def cache_dir() -> str:
    """The folder of built variants: ``$DIPSERVER_VAR_DIR/cache/variants``, default ``var/cache/variants``
    in the repository (as ``dipserver/config/env.py`` finds the server's ``var/``)."""
    var = os.environ.get("DIPSERVER_VAR_DIR", "").strip()
    return os.path.join(
        var or os.path.join(os.path.dirname(_REPOSITORY_VARIANTS), "var"), "cache", "variants"
    )


def _cache_key(slug: str, sources: list[tuple[str, bytes]]) -> tuple[Any, ...]:
    import sys

    engine = os.path.dirname(__file__)
    code = []
    for name in _CODE_FILES:
        with open(os.path.join(engine, name), "rb") as fh:
            code.append((name, fh.read()))
    return (_CACHE_FORMAT, sys.version, slug, code, sources)


def _read_cache(slug: str, root: str) -> Variant | None:
    """The variant kept on disk if it was built from exactly the files there now, else ``None``."""
    try:  # pickle's own loader, without the pure-Python rest of the module (a third of this read's cost)
        import _pickle as pickle
    except ImportError:  # another Python than CPython
        import pickle  # type: ignore[no-redef]

    try:
        with open(os.path.join(cache_dir(), f"{slug}.pickle"), "rb") as fh:
            key = pickle.load(fh)
            # The folders of the base chain, in the order the builder read them.
            folders = list(dict.fromkeys(name.partition("/")[0] for name, _ in key[4]))
            sources = [
                (f"{f}/{name}", data) for f in folders for name, data in toml_files(os.path.join(root, f))
            ]
            if key != _cache_key(slug, sources):
                return None
            variant, board = pickle.load(fh)
        if not (isinstance(variant, Variant) and isinstance(board, Board) and board.variant is variant):
            return None
    except Exception:  # missing, unreadable, truncated, or from code that no longer unpickles it
        return None
    preload_board(board)
    return variant


def _write_cache(slug: str, sources: list[tuple[str, bytes]], variant: Variant) -> None:
    """Keep a freshly built variant and its start board for the next process; quietly not, if it fails."""
    import contextlib
    import pickle

    folder = cache_dir()
    # Unique per process and per build (two threads building at once hold two variants): never shared.
    partial = os.path.join(folder, f".{slug}.{os.getpid()}.{id(variant)}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(partial, "wb") as fh:
            pickle.dump(_cache_key(slug, sources), fh, protocol=pickle.HIGHEST_PROTOCOL)
            board = board_for(variant, variant.map_state)
            pickle.dump((variant, board), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(
            partial, os.path.join(folder, f"{slug}.pickle")
        )  # atomic: readers see the old file or all the new
    except Exception:  # read-only or full disk, or an object that does not pickle: build again next time
        with contextlib.suppress(OSError):
            os.remove(partial)
