"""A variant's whole check as data: its timeline read, its start map and position checked, then its map
after every change the timeline makes (units standing still), as ``python -m dipserver.adjudicator check``
reports it and the variant studio shows it beside each province.

Reading the files and the timeline raises ``VariantError`` / ``TimelineError`` (both ``ValueError``) at
the first thing wrong in them; what is left is a list of findings, each at a moment of the timeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dipserver.engine.definition import Variant
from dipserver.engine.timeline import load_timeline, walk
from dipserver.engine.validate import notes, validate


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing ``check`` found: ``at`` is ``"start"`` or ``"<year> <hook>"`` (e.g. ``1902
    after_fall_retreats``), the map it was found on."""

    at: str
    message: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    slug: str
    problems: tuple[Finding, ...]  # a broken map or position: the check fails
    notes: tuple[Finding, ...]  # what the timeline does on purpose (provinces cut off): never a failure
    changes: int  # how many moments of the timeline change the map
    has_timeline: bool  # the timeline has events at all

    @property
    def ok(self) -> bool:
        return not self.problems


def check_variant(variant: Variant, options: Mapping[str, Any], secret: str | None = None) -> CheckReport:
    """Every problem and note of ``variant`` played with timeline ``options`` (and ``secret`` in random
    mode); ``ValueError`` if its timeline cannot be read or those options are wrong."""
    timeline = load_timeline(variant)
    steps = walk(variant, options, secret)
    problems = [Finding("start", p) for p in validate(variant, position=variant.start)]
    remarks: list[Finding] = []
    changes = 0
    for year, hook, result in steps:
        if result.events:
            changes += 1
            at = f"{year} {hook.value}"
            problems += [Finding(at, p) for p in validate(variant, result.map_state, result.position)]
            remarks += [Finding(at, n) for n in notes(variant, result.map_state)]
    return CheckReport(variant.slug, tuple(problems), tuple(remarks), changes, bool(timeline.events))
