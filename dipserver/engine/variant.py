"""Loading a variant from ``variants/<slug>/`` (TOML data, format in ``variants/README.md``).

A variant is read once, validated, and cached. Reading and checking its files is ``variantfiles.py``'s:
anything wrong in them raises ``VariantError`` with a message naming the file, the province and the
problem, so a variant author can fix it without reading this code.

The repository's variants are also kept built on disk (``var/cache/variants/``, see "The disk cache"
below): a one-request ``adjudicate`` process would otherwise spend more time reading and checking the
variant than adjudicating.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from dipserver.engine.board import Board, board_for, preload_board
from dipserver.engine.definition import Power as Power
from dipserver.engine.definition import ProvinceInfo as ProvinceInfo
from dipserver.engine.definition import Variant as Variant
from dipserver.engine.definition import VariantError as VariantError
from dipserver.engine.definition import normalise_name as normalise_name
from dipserver.engine.definition import toml_files

# hashlib, tomllib, tempfile, shutil and the loader (variantfiles.py) are imported where a variant is built:
# a variant read from the disk cache needs none of them, and together they cost a one-request process
# several milliseconds.

VARIANTS_DIR = Path(__file__).resolve().parents[2] / "variants"
_REPOSITORY_VARIANTS = VARIANTS_DIR.resolve()  # the only root kept on disk (see "The disk cache")


def load_variant(slug: str, root: Path | None = None) -> Variant:
    """The validated variant ``slug`` from ``root`` (default: the repository's ``variants/``), cached."""
    return _load_cached(slug, (root or VARIANTS_DIR).resolve())


@functools.lru_cache(maxsize=32)
def _load_cached(slug: str, root: Path) -> Variant:
    kept = root == _REPOSITORY_VARIANTS  # a copy (tests) or an archived version: built, never kept on disk
    if kept and (cached := _read_cache(slug, root)) is not None:
        return cached
    from dipserver.engine.variantfiles import _Loader  # only a variant being built needs the loader

    loader = _Loader(root)
    variant = loader.build(slug)
    if kept:
        _write_cache(slug, loader.sources, variant)
        return variant
    return replace(variant, source_root=root)  # its timeline is read from beside it too


def variant_sources(slug: str, root: Path | None = None) -> dict[str, str]:
    """Every TOML file of ``slug`` and of its base chain, as ``{"<slug>/<file>.toml": text}``: what
    ``load_variant_from_sources`` needs to rebuild exactly this version (the same ``version`` hash)."""
    from dipserver.engine.variantfiles import _read_toml

    root = (root or VARIANTS_DIR).resolve()
    files: dict[str, str] = {}
    seen: tuple[str, ...] = ()
    current: str | None = slug
    while current is not None:
        if current in seen or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", current):
            raise VariantError(f"variant {slug!r}: cannot follow the base chain at {current!r}")
        seen = (*seen, current)
        folder = root / current
        if not (folder / "variant.toml").is_file():
            raise VariantError(f"{folder}: no such variant folder")
        for path in sorted(folder.glob("*.toml")):
            files[f"{current}/{path.name}"] = path.read_text(encoding="utf-8")
        base = _read_toml(folder / "variant.toml")
        current = base.get("base") if base else None
        if current is not None and not isinstance(current, str):
            raise VariantError(f"{folder / 'variant.toml'}: 'base' must be a variant slug")
    return files


def load_variant_from_sources(slug: str, files: Mapping[str, str]) -> Variant:
    """The variant ``slug`` built from stored file texts (``variant_sources``), not from ``variants/``: a
    game keeps playing the version it pinned after the files change. The texts are written once to a
    content-addressed folder under the temporary directory, so the timeline is read from there too."""
    for name in files:
        folder, _, file = name.partition("/")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", folder) or not re.fullmatch(r"[a-z0-9_-]+\.toml", file):
            raise VariantError(f"archived variant {slug!r}: bad file name {name!r}")
    import hashlib
    import shutil
    import tempfile

    digest = hashlib.sha256(
        "\0".join(f"{name}\0{text}" for name, text in sorted(files.items())).encode()
    ).hexdigest()
    root = Path(tempfile.gettempdir()) / "dipserver-variants" / digest
    if not root.is_dir():
        root.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{digest[:12]}-", dir=root.parent))
        for name, text in files.items():
            (staging / name).parent.mkdir(exist_ok=True)
            (staging / name).write_text(text, encoding="utf-8")
        try:
            staging.rename(root)  # atomic: another process never sees half the files
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)  # another process wrote the same folder first
    return load_variant(slug, root)


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
    "variantfiles.py",
    "definition.py",
    "mapstate.py",
    "board.py",
    "types.py",
    "position.py",
    "coasts.py",
)


def cache_dir() -> Path:
    """The folder of built variants: ``$DIPSERVER_VAR_DIR/cache/variants``, default ``var/cache/variants``
    in the repository (as ``dipserver/config/env.py`` finds the server's ``var/``)."""
    var = os.environ.get("DIPSERVER_VAR_DIR", "").strip()
    return (Path(var) if var else _REPOSITORY_VARIANTS.parent / "var") / "cache" / "variants"


def _cache_key(slug: str, sources: list[tuple[str, bytes]]) -> tuple[Any, ...]:
    import sys

    engine = Path(__file__).parent
    code = [(name, (engine / name).read_bytes()) for name in _CODE_FILES]
    return (_CACHE_FORMAT, sys.version, slug, code, sources)


def _read_cache(slug: str, root: Path) -> Variant | None:
    """The variant kept on disk if it was built from exactly the files there now, else ``None``."""
    try:  # pickle's own loader, without the pure-Python rest of the module (a third of this read's cost)
        import _pickle as pickle
    except ImportError:  # another Python than CPython
        import pickle  # type: ignore[no-redef]

    try:
        with (cache_dir() / f"{slug}.pickle").open("rb") as fh:
            key = pickle.load(fh)
            # The folders of the base chain, in the order the builder read them.
            folders = list(dict.fromkeys(name.partition("/")[0] for name, _ in key[4]))
            sources = [(f"{f}/{name}", data) for f in folders for name, data in toml_files(root / f)]
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
    partial = folder / f".{slug}.{os.getpid()}.{id(variant)}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with partial.open("wb") as fh:
            pickle.dump(_cache_key(slug, sources), fh, protocol=pickle.HIGHEST_PROTOCOL)
            board = board_for(variant, variant.map_state)
            pickle.dump((variant, board), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, folder / f"{slug}.pickle")  # atomic: readers see the old file or all the new
    except Exception:  # read-only or full disk, or an object that does not pickle: build again next time
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
