"""Fixtures for the mutating-map tests: the three variants and a way to play their timeline forward."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from dipserver.engine.board import MapState
from dipserver.engine.position import Position
from dipserver.engine.timeline import Hook, HookResult, walk
from dipserver.engine.types import Unit, UnitType
from dipserver.engine.variant import Variant, load_variant


@pytest.fixture(scope="session")
def wall_of_ice() -> Variant:
    return load_variant("wall_of_ice")


@pytest.fixture(scope="session")
def sahara() -> Variant:
    return load_variant("sahara")


@pytest.fixture(scope="session")
def deluge() -> Variant:
    return load_variant("deluge")


Steps = dict[tuple[int, Hook], HookResult]


def steps_of(variant: Variant, options: Mapping[str, Any] | None = None, secret: str | None = None) -> Steps:
    """Map after every hook of the timeline, with the start units standing still."""
    return {(year, hook): result for year, hook, result in walk(variant, options or {}, secret)}


def before(steps: Steps, year: int, hook: Hook) -> MapState:
    """The map just before ``hook`` of ``year`` fires."""
    keys = sorted(steps, key=lambda k: (k[0], list(Hook).index(k[1])))
    i = keys.index((year, hook))
    return steps[keys[i - 1]].map_state


def position_with(variant: Variant, *units: str, owners: Mapping[str, str] | None = None) -> Position:
    """A position holding exactly ``units``, written ``"ENGLAND F NTH"``; centres as at the start."""
    placed = {}
    for spec in units:
        power, kind, loc = spec.split()
        unit = Unit(power, UnitType(kind), loc)
        placed[unit.province] = unit
    start = variant.start
    return Position(start.phase, placed, dict(start.owners if owners is None else owners))


@pytest.fixture
def place() -> Callable[..., Position]:
    return position_with
