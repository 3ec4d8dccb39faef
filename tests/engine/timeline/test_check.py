"""The variants are sound at every phase of their timelines, in every mode and with every option.

This is what ``python -m dipserver.engine check <variant>`` will run: walk the whole timeline, and at
each step validate the map and units, and make sure the coasts the pipeline kept up to date step by step
are the coasts a full recomputation gives.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from dipserver.engine.coasts import CoastError, recompute_coasts, water_groups
from dipserver.engine.timeline import load_timeline, walk
from dipserver.engine.types import Terrain
from dipserver.engine.validate import validate
from dipserver.engine.variant import Variant, load_variant


def option_sets(variant: Variant) -> list[dict[str, Any]]:
    timeline = load_timeline(variant)
    names = sorted(timeline.options)
    sets: list[dict[str, Any]] = [
        {"mode": "exact", **dict(zip(names, values, strict=True))}
        for values in product([False, True], repeat=len(names))
    ]
    if any(event.chance for event in timeline.events):
        sets += [{"mode": "random", "secret": f"check-{n}"} for n in range(8)]
    return sets


CASES = [
    (slug, opts) for slug in ("wall_of_ice", "sahara", "deluge") for opts in option_sets(load_variant(slug))
]


@pytest.mark.parametrize(("slug", "options"), CASES, ids=[f"{s}-{sorted(o.items())}" for s, o in CASES])
def test_every_phase_of_the_timeline_is_a_sound_map(slug: str, options: dict[str, Any]) -> None:
    variant = load_variant(slug)
    options = dict(options)
    secret = options.pop("secret", None)
    timeline = load_timeline(variant)
    frozen = variant.impassable_seas == "shore"
    for year, hook, step in walk(variant, options, secret):
        problems = [
            p for p in validate(variant, step.map_state, step.position) if "cannot be reached" not in p
        ]
        assert not problems, (year, hook, problems)
        full = recompute_coasts(variant, step.map_state.terrain, timeline.coast_names, frozen)
        assert {p: dict(c) for p, c in step.map_state.coasts.items()} == full, (year, hook)


def test_water_groups_split_by_adjacency_beside_the_province(deluge: Variant) -> None:
    assert water_groups(deluge, "TUS", ["VEN", "LYO", "TYS"]) == [
        frozenset({"LYO", "TYS"}),
        frozenset({"VEN"}),
    ]
    assert water_groups(deluge, "NAF", ["MAO", "WES"]) == [frozenset({"MAO", "WES"})]


def test_a_split_the_data_gives_no_name_for_is_a_clear_error(deluge: Variant) -> None:
    terrain = {**deluge.map_state.terrain, "VEN": Terrain.SEA}
    with pytest.raises(
        CoastError, match=r"(PIE|ROM|TUS) touches separate waters .*\[coast_names\] \1 names none"
    ):
        recompute_coasts(deluge, terrain, {})
