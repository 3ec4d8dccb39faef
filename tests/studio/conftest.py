"""Fixtures of the studio's tests: a game master, a player who is not one, the small SVG map, and a game
of a published version (the test module's ``first``)."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.factories import GameFactory, GameMasterFactory, UserFactory

DATA = Path(__file__).resolve().parents[1] / "data" / "studio"
VARIANTS = Path(__file__).resolve().parents[2] / "variants"
START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def gm(db):
    return GameMasterFactory(username="author")


@pytest.fixture
def player(db):
    return UserFactory(username="player")


@pytest.fixture
def game(gm, first):
    """A started two-player game of the version ``first`` (a fixture of the test module), mastered by
    ``gm``."""
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    return GameFactory(
        name="Small game", variant="", studio_version=first.id, players=players, joined_at=START, masters=[gm]
    )


def small_map() -> bytes:
    return (DATA / "small_map.svg").read_bytes()


def shipped_tables(slug: str) -> dict[str, Any]:
    """A variant of ``variants/`` as a draft's tables: each TOML file read as it is."""
    return {path.stem: tomllib.loads(path.read_text()) for path in sorted((VARIANTS / slug).glob("*.toml"))}


def small_variant_tables() -> dict[str, Any]:
    """The small map made playable: two powers with a home centre and a unit each, seven centres."""
    return {
        "variant": {
            "name": "Small",
            "start_phase": "S1901M",
            "victory": {"centres": 4},
            "powers": {
                "RED": {"name": "Red", "adjective": "Red", "colour": "#cc2222"},
                "BLUE": {"name": "Blue", "adjective": "Blue", "colour": "#2222cc"},
            },
        },
        "start": {"units": {"RED": ["A ALP"], "BLUE": ["F COR"]}},
    }


def small_draft(user: Any, slug: str = "small") -> Any:
    """A blank draft given the small SVG map, then powers, centres, homes and units: it checks clean."""
    from dipserver.studio import services

    draft = services.draft_create(user=user, slug=slug, name="Small")
    draft, _ = services.draft_svg_import(
        user=user, draft_id=draft.id, svg=small_map(), revision=draft.revision
    )
    data = {**draft.data, **small_variant_tables()}
    provinces = data["map"]["provinces"]
    for code in ("ALP", "BRE", "COR", "DAL", "ESS", "FAR"):
        provinces[code]["sc"] = True
    provinces["ALP"]["home"], provinces["COR"]["home"] = "RED", "BLUE"
    return services.draft_save(user=user, draft_id=draft.id, data=data, revision=draft.revision)


def shipped_tests(slug: str) -> dict[str, Any]:
    """A variant's own tests (``variants/<slug>/tests/scenarios.toml``) as a draft's ``tests`` table."""
    return tomllib.loads((VARIANTS / slug / "tests" / "scenarios.toml").read_text())
