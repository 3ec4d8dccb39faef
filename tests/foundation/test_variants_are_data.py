"""Variants are data: no code outside variants loading names a variant, so no rule, page or drawing is
chosen by a variant's name. Each one's settings live in its ``variants/<slug>/variant.toml``, and a
generated board comes through its variant source (``dipserver/engine/sources.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.foundation.test_engine_boundary import ROOT

SLUGS = frozenset(
    [p.parent.name for p in (ROOT / "variants").glob("*/variant.toml")]
    + ["ice_lords"]  # the generated board (engine/icelords.py's SLUG)
)
# Variants loading: the folder reader, the generator and the sources that name them.
LOADING = frozenset(
    {"dipserver/engine/variant.py", "dipserver/engine/icelords.py", "dipserver/engine/sources.py"}
)
# Choices made for people, not rules: which demo games are seeded, the variant the create form shows first,
# the bot's default.
CHOICES = {
    "dipserver/games/demo.py": {"standard"},
    "dipserver/web/games.py": {"sahara"},
    "dipserver/bot/__main__.py": {"standard"},
}
SOURCES = sorted(
    path
    for path in (ROOT / "dipserver").rglob("*.py")
    if str(path.relative_to(ROOT)) not in LOADING and "migrations" not in path.parts
)


def slugs_named(source: str) -> set[str]:
    """The variant slugs a module names as a string of its own (not inside a longer text)."""
    return {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in SLUGS
    }


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_code_names_a_variant(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    assert slugs_named(path.read_text(encoding="utf-8")) <= CHOICES.get(name, set())


def test_the_check_sees_a_variant_chosen_by_name() -> None:
    assert slugs_named('CLOSED = {"wall_of_ice": "ice"}\n') == {"wall_of_ice"}
    assert slugs_named('if variant.slug == "ice_lords":\n    pass\n') == {"ice_lords"}


def test_the_check_lets_longer_words_be() -> None:
    assert slugs_named('RULE = "deluge_chain"\nHELP = "a slug, e.g. standard"\n') == set()


def test_the_check_reads_the_renderer_and_the_server() -> None:
    names = {str(p.relative_to(ROOT)) for p in SOURCES}
    assert {"dipserver/render/style.py", "dipserver/games/variants.py", "dipserver/api/variants.py"} <= names
