"""The engine's own map of every phase loads back (the documented ``next`` contract, engine.md).

``map VARIANT --at PHASE`` prints ``chronicle.map_at``; placed in a request as ``"map"``, the request reader
(``turnio.map_state``) must accept it and give exactly the map the engine plays that phase on. Checked for
every phase of every variant whose map changes, in every mode and every set of the variant's options: the
map changes only at the timeline's hooks, so every phase's map is the start map or one left by a hook, and
each is checked at the first phase that plays on it. (Standard and Ice Lords maps never change: their requests
take no "map", but Ice Lords' printed map still loads back.) The rule modules never change the map: a game
played with them by ``next`` alone is checked against the same timeline maps.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from dipserver.adjudicator.jsonio import adjudicate_request
from dipserver.adjudicator.turnio import map_state as request_map
from dipserver.engine.chronicle import map_at
from dipserver.engine.icelords import generate
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


MODULES = {"blizzards": {"count": "1d6"}, "supply_lines": True}


@pytest.mark.parametrize("slug", CHANGING)
def test_with_the_rule_modules_every_next_carries_the_map_of_its_phase(slug: str) -> None:
    """The rule modules never change the map: a game with blizzards and supply lines (and, on Deluge, an
    A/F at sea under its Abstraction rules) played by ``next`` alone carries each phase's timeline map."""
    variant = load_variant(slug)
    start = variant.start
    units: dict[str, list[str]] = {power: [] for power in variant.powers}
    for unit in start.units.values():
        units[unit.power].append(f"{unit.type.value} {unit.location}")
    if slug == "deluge":  # London's fleet and Liverpool's army put to sea together: as many units
        units["ENGLAND"] = [u for u in units["ENGLAND"] if u not in ("F LON", "A LVP")] + ["A/F NTH"]
    centers: dict[str, list[str]] = {}
    for centre, owner in start.owners.items():
        centers.setdefault(owner, []).append(centre)
    options = {"mode": "exact", **MODULES}
    expected = maps_by_phase(variant, {"mode": "exact"}, None)
    request: dict[str, Any] = {
        "variant": slug,
        "phase": str(start.phase),
        "units": units,
        "centers": centers,
        "options": {**options, "seed": "round-trip-modules"},
    }
    checked, afloat = 0, 0
    while Phase.parse(request["phase"]) in expected:
        answer = adjudicate_request(request)
        assert "error" not in answer, (request["phase"], answer)
        request = answer["next"]
        phase = Phase.parse(request["phase"])
        if phase in expected:
            assert request_map(variant, request["map"]) == expected[phase], f"{slug} {phase}"
            checked += 1
        afloat += "A/F NTH" in request["units"].get("ENGLAND", [])
    assert checked >= 10
    if slug == "deluge":  # the A/F is carried by ``next`` as a unit of its own, phase after phase
        assert afloat >= 5


def test_a_generated_ice_lords_boards_map_loads_back_in_every_phase() -> None:
    variant = generate("round-trip", 4).variant
    for phase in phases(1901, 1903):
        assert request_map(variant, map_at(variant, phase, {})) == variant.map_state, str(phase)
