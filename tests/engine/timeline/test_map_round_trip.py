"""The engine's own map of every phase loads back (the documented ``next`` contract, engine.md).

``map VARIANT --at PHASE`` prints ``chronicle.map_at``; placed in a request as ``"map"``, the request reader
(``turnio.map_state``) must accept it and give exactly the map the engine plays that phase on. Checked for
every phase of every variant whose map changes, in every mode and every set of the variant's options: the
map changes only at the timeline's hooks, so every phase's map is the start map or one left by a hook, and
each is checked at the first phase that plays on it. (Standard and Ice Lords maps never change: their requests
take no "map".)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.adjudicator.turnio import map_state as request_map
from dipserver.engine.chronicle import map_at
from dipserver.engine.timeline import hooks_between, load_timeline, walk
from dipserver.engine.types import Phase, PhaseType, Season
from dipserver.engine.variant import Variant, load_variant

CHANGING = ("wall_of_ice", "sahara", "deluge")
SECRETS = ("round-trip-1", "round-trip-2")  # random mode: two fixed game secrets


def option_sets(variant: Variant) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Every mode (random with each fixed secret, if the variant has chances) and every options set."""
    timeline = load_timeline(variant)
    names = sorted(timeline.options)
    modes: list[tuple[str, str | None]] = [("exact", None)]
    if any(e.chance for e in timeline.events):
        modes += [("random", secret) for secret in SECRETS]
    for (mode, secret), values in itertools.product(
        modes, itertools.product((False, True), repeat=len(names))
    ):
        yield {"mode": mode, **dict(zip(names, values, strict=True))}, secret


CASES = [
    pytest.param(
        slug, options, secret, id=f"{slug}-{'-'.join(f'{k}={v}' for k, v in options.items())}-{secret}"
    )
    for slug in CHANGING
    for options, secret in option_sets(load_variant(slug))
]


def phases(first: int, last: int) -> Iterator[Phase]:
    for year in range(first, last + 1):
        for season, kind in (
            (Season.SPRING, PhaseType.MOVEMENT),
            (Season.SPRING, PhaseType.RETREATS),
            (Season.FALL, PhaseType.MOVEMENT),
            (Season.FALL, PhaseType.RETREATS),
            (Season.WINTER, PhaseType.ADJUSTMENTS),
        ):
            yield Phase(year, season, kind)


def maps_by_phase(variant: Variant, options: Mapping[str, Any], secret: str | None) -> dict[Phase, Any]:
    """The map the engine plays each phase on, from the start to the year after the last change: the map
    left by the last hook run before the phase (``walk`` runs every hook in turn from the start)."""
    steps = walk(variant, options, secret)
    start = variant.start.phase
    last = max((year for year, _, _ in steps), default=start.year) + 1
    found = {}
    for phase in phases(start.year, last):
        ran = min(len(hooks_between(start, phase)), len(steps))
        found[phase] = steps[ran - 1][2].map_state if ran else variant.map_state
    return found


@pytest.mark.parametrize(("slug", "options", "secret"), CASES)
def test_every_phases_map_loads_back_as_the_same_board(
    slug: str, options: dict[str, Any], secret: str | None
) -> None:
    variant = load_variant(slug)
    seen = set()
    for phase, expected in maps_by_phase(variant, options, secret).items():
        if expected in seen:
            continue  # the same map as an earlier phase: already loaded back
        seen.add(expected)
        printed = map_at(variant, phase, options, secret)
        assert request_map(variant, printed) == expected, f"{slug} {phase}"


def test_saharas_map_of_winter_1905_is_accepted_in_a_request() -> None:
    """The issue's case: from W1905A on, Bulgaria's coast on the Aegean is gone with the Aegean."""
    printed = map_at(load_variant("sahara"), "W1905A", {"mode": "exact", "errata": True})
    answer = adjudicate_request(
        {"variant": "sahara", "phase": "W1905A", "units": {}, "centers": {}, "map": printed}
    )
    assert "error" not in answer, answer
    assert answer["phase"] == "W1905A"
