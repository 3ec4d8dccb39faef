"""The disk cache of built variants: a cached variant is the variant, and a bad cache is never an error."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dipserver.engine import variantcache, variantfiles
from dipserver.engine.board import Board, FrozenMap, board_for
from dipserver.engine.variant import VARIANTS_DIR, Variant
from dipserver.engine.variantcache import cache_dir

SLUGS = sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.toml").is_file())


@pytest.fixture(autouse=True)
def var_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its cache in its own folder, never in the repository's var/."""
    var = tmp_path / "var"
    monkeypatch.setenv("DIPSERVER_VAR_DIR", str(var))
    return var


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of variants/ standing in for the repository's, so a test may edit the files it is built from."""
    copy = tmp_path / "variants"
    shutil.copytree(VARIANTS_DIR, copy, ignore=shutil.ignore_patterns("*.json"))
    monkeypatch.setattr(variantcache, "_REPOSITORY_VARIANTS", str(copy.resolve()))
    return copy.resolve()


def load(slug: str, root: Path = VARIANTS_DIR) -> Variant:
    """A load as a new process would do it: past the in-memory cache, through the disk cache."""
    return variantcache._load_cached.__wrapped__(slug, str(root.resolve()))


def built(slug: str, root: Path = VARIANTS_DIR) -> Variant:
    """The variant built from its files, the cache not involved."""
    return variantfiles._Loader(root.resolve()).build(slug)


def assert_same_variant(cached: Variant, fresh: Variant) -> None:
    for field in dataclasses.fields(Variant):
        assert getattr(cached, field.name) == getattr(fresh, field.name), field.name


def attributes(board: Board) -> dict[str, object]:
    """Every attribute a board has: its ``__dict__`` from the source; compiled, those mypyc lists for its
    class (one never set is left out, as ``vars`` would leave it out)."""
    names = getattr(type(board), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(board))
    return {name: getattr(board, name) for name in names if hasattr(board, name)}


def assert_same_board(cached: Board, fresh: Board) -> None:
    kept, derived = attributes(cached), attributes(fresh)
    assert set(kept) == set(derived)
    for name, value in derived.items():
        if name != "variant":
            assert kept[name] == value, name


@pytest.mark.parametrize("slug", SLUGS)
def test_a_cached_variant_and_its_start_board_equal_a_fresh_build(slug: str) -> None:
    first = load(slug)  # builds it and writes the cache
    assert (Path(cache_dir()) / f"{slug}.pickle").is_file()
    cached = load(slug)
    assert cached is not first  # read from the file, not the same object again
    fresh = built(slug)
    assert_same_variant(cached, fresh)
    board = board_for(cached, cached.map_state)  # the board kept with it, not derived again
    assert board.variant is cached
    assert board.map_state is cached.map_state
    assert_same_board(board, board_for(fresh, fresh.map_state))
    assert hash(cached.map_state) == hash(fresh.map_state)  # hashes are this process's, not the writer's


def test_a_board_read_from_the_cache_answers_as_a_derived_one() -> None:
    load("standard")
    cached = load("standard")
    board = board_for(cached, cached.map_state)
    fresh = built("standard")
    derived = board_for(fresh, fresh.map_state)
    # Filled on first use, so they are not kept: each starts empty and is computed as on a derived board.
    assert board._convoy_reach == {}
    assert board.convoy_destinations("LON") == derived.convoy_destinations("LON")
    assert board.army_locations == derived.army_locations
    assert board.fleet_positions == derived.fleet_positions


def test_a_frozen_map_is_pickled_without_its_hash() -> None:
    mapping = FrozenMap({"LON": "ENGLAND"})
    hash(mapping)
    copy = pickle.loads(pickle.dumps(mapping))
    assert copy._hash is None  # a string's hash differs in another process
    assert copy == mapping
    assert hash(copy) == hash(mapping)


def test_an_edited_variant_file_rebuilds_the_cache(root: Path) -> None:
    before = load("wall_of_ice", root)
    assert before.powers["AUSTRIA"].colour == "#ce0e00"
    path = root / "standard" / "variant.toml"  # the base's file counts too
    path.write_text(path.read_text().replace("#ce0e00", "#ce0e01"))
    assert variantcache._read_cache("wall_of_ice", str(root)) is None
    after = load("wall_of_ice", root)
    assert after.powers["AUSTRIA"].colour == "#ce0e01"
    assert after.version != before.version
    assert_same_variant(load("wall_of_ice", root), built("wall_of_ice", root))  # the new one is kept


def test_a_new_variant_file_rebuilds_the_cache(root: Path) -> None:
    before = load("standard", root)
    (root / "standard" / "notes.toml").write_text("# not read, but part of the version\n")
    after = load("standard", root)
    assert after.version != before.version
    assert after.version == built("standard", root).version


def test_a_cache_from_other_engine_code_is_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    load("standard")
    assert variantcache._read_cache("standard", str(VARIANTS_DIR.resolve())) is not None
    monkeypatch.setattr(variantcache, "_CACHE_FORMAT", variantcache._CACHE_FORMAT + 1)
    assert variantcache._read_cache("standard", str(VARIANTS_DIR.resolve())) is None
    assert_same_variant(load("standard"), built("standard"))


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: b"not a pickle at all",
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data[:-200],  # the key whole, the variant cut short
        lambda data: pickle.dumps("a key of the wrong shape"),
    ],
)
def test_a_corrupt_cache_is_ignored_and_replaced(damage) -> None:
    load("standard")
    path = Path(cache_dir()) / "standard.pickle"
    path.write_bytes(damage(path.read_bytes()))
    assert_same_variant(load("standard"), built("standard"))
    assert variantcache._read_cache("standard", str(VARIANTS_DIR.resolve())) is not None  # written again


def test_an_unwritable_cache_location_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("DIPSERVER_VAR_DIR", str(blocker / "var"))  # a folder inside a file: never created
    assert_same_variant(load("standard"), built("standard"))
    assert not (blocker / "var").exists()


def test_only_the_repository_variants_are_cached(tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere"
    shutil.copytree(VARIANTS_DIR / "standard", copy / "standard")
    loaded = load("standard", copy)
    assert loaded.source_root == copy.resolve()  # its timeline is read from beside it
    assert_same_variant(dataclasses.replace(loaded, source_root=None), built("standard"))
    assert not Path(cache_dir()).exists()


def test_the_cache_follows_dipserver_var_dir(var_dir: Path) -> None:
    assert Path(cache_dir()) == var_dir / "cache" / "variants"


REQUEST = json.dumps(
    {
        "variant": "wall_of_ice",
        "phase": "S1901M",
        "units": {"ENGLAND": ["F LON", "A LVP"], "FRANCE": ["F BRE"]},
        "centers": {"ENGLAND": ["LON", "LVP"], "FRANCE": ["BRE"]},
        "orders": {"ENGLAND": ["F LON - ENG", "A LVP - WAL"], "FRANCE": ["F BRE - ENG"]},
    }
)


def answers(var_dir: Path, native: str = "1") -> bytes:
    """The command line's answers to ``REQUEST`` twice, from a new process keeping its cache in ``var_dir``;
    ``native="0"``: the engine run from its sources even where it is compiled (``dipserver/native.py``)."""
    done = subprocess.run(
        [sys.executable, "-m", "dipserver.adjudicator", "adjudicate", "--jsonl"],
        input=f"{REQUEST}\n{REQUEST}\n".encode(),
        capture_output=True,
        cwd=VARIANTS_DIR.parent,
        env={**os.environ, "DIPSERVER_VAR_DIR": str(var_dir), "DIPSERVER_NATIVE": native},
        check=True,
    )
    assert done.stderr == b""
    return done.stdout


def test_the_command_line_answers_the_same_from_a_built_and_a_cached_variant(var_dir: Path) -> None:
    built_answers = answers(var_dir)  # no cache yet: built, then kept
    cache = var_dir / "cache" / "variants" / "wall_of_ice.pickle"
    kept = cache.stat()
    assert answers(var_dir) == built_answers
    assert cache.stat().st_ino == kept.st_ino  # read, not rebuilt and replaced
    assert b'"error"' not in built_answers


def test_a_cache_kept_by_the_sources_serves_the_compiled_engine_and_back(var_dir: Path) -> None:
    """CI runs the suite compiled and from the sources; one kept variant is read by both (where nothing is
    compiled, both runs are the sources)."""
    from_sources = answers(var_dir, native="0")
    cache = var_dir / "cache" / "variants" / "wall_of_ice.pickle"
    kept = cache.stat()
    assert answers(var_dir) == from_sources
    assert answers(var_dir, native="0") == from_sources
    assert cache.stat().st_ino == kept.st_ino  # read each time, never rebuilt
