"""Shared engine fixtures: the standard variant, its opening board, a way to write broken variants, and the
three variants whose map changes (for the test_turn_*.py modules; the timeline tests have their own)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.engine.board import Board, board_for
from dipserver.engine.variant import VARIANTS_DIR, Variant, load_variant


@pytest.fixture(scope="session")
def standard() -> Variant:
    return load_variant("standard")


@pytest.fixture(scope="session")
def board(standard: Variant) -> Board:
    """The standard map as it is at the start (the standard map never changes)."""
    return board_for(standard, standard.map_state)


@pytest.fixture(scope="module")
def wall_of_ice() -> Variant:
    return load_variant("wall_of_ice")


@pytest.fixture(scope="module")
def sahara() -> Variant:
    return load_variant("sahara")


@pytest.fixture(scope="module")
def deluge() -> Variant:
    return load_variant("deluge")


@pytest.fixture
def variant_copy(tmp_path: Path) -> Callable[..., Path]:
    """Copy a real variant into a temp root so a test can break one of its files.

    Returns ``copy(slug="standard", edit=None)`` -> the copied folder; ``edit`` is a mapping of file name to
    a function ``str -> str`` applied to that file's text.
    """

    def copy(slug: str = "standard", edit: dict[str, Callable[[str], str]] | None = None) -> Path:
        target = tmp_path / slug
        shutil.copytree(VARIANTS_DIR / slug, target)
        for name, change in (edit or {}).items():
            path = target / name
            path.write_text(change(path.read_text()))
        return target

    return copy
