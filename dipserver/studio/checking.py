"""A draft checked as ``check`` checks a variant of ``variants/``: its files written out and loaded by the
engine's own loader (``load_variant_from_sources``, as a game's archived version is), then the engine's
``check_variant`` over its start map and every map its timeline makes. Each finding names the provinces it
concerns, so the studio shows it beside them; the timeline comes back season by season for the preview."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dipserver.engine import (
    HOOK_WORDS,
    Variant,
    check_variant,
    event_text,
    load_variant_from_sources,
    walk,
)
from dipserver.studio.errors import StudioError
from dipserver.studio.package import variant_files

_CODE = re.compile(r"\b[A-Z][A-Z0-9]{1,3}\b")
CHECK_OPTIONS = {"mode": "exact"}  # the timeline as printed: every event with a chance is left to chance
MAX_YEARS = 200  # a timeline's events come at most this many years after the start


@dataclass(frozen=True, slots=True)
class Problem:
    at: str  # "files" (the loader refused them), "drawing", "start" or "<year> <hook>"
    message: str
    provinces: tuple[str, ...]

    def as_data(self) -> dict[str, Any]:
        return {"at": self.at, "message": self.message, "provinces": list(self.provinces)}


@dataclass(frozen=True, slots=True)
class Report:
    """What the studio shows: problems (any fails the check), notes, and the timeline's changes."""

    problems: tuple[Problem, ...]
    notes: tuple[Problem, ...] = ()
    timeline: tuple[dict[str, Any], ...] = ()
    version: str | None = None  # the engine's version hash of the files, when they load
    files: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_data(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "version": self.version,
            "problems": [p.as_data() for p in self.problems],
            "notes": [n.as_data() for n in self.notes],
            "timeline": list(self.timeline),
        }


def provinces_named(message: str, codes: set[str]) -> tuple[str, ...]:
    """The province codes of ``codes`` a finding's message names, in the order it names them."""
    return tuple(dict.fromkeys(code for code in _CODE.findall(message) if code in codes))


def draft_codes(data: dict[str, Any]) -> set[str]:
    provinces = data.get("map", {}).get("provinces", {}) if isinstance(data.get("map"), dict) else {}
    return {str(code) for code in provinces} if isinstance(provinces, dict) else set()


def report_of(slug: str, data: dict[str, Any], geometry: dict[str, Any] | None) -> Report:
    """The whole check of a draft's tables and drawing; never raises for what the draft holds."""
    codes = draft_codes(data)
    try:
        files = variant_files(slug, data)
        variant = load_variant_from_sources(slug, files)
    except (StudioError, ValueError) as exc:  # VariantError: the loader stops at the first mistake
        message = str(exc).replace(_temporary_root(exc), "")
        return Report((Problem("files", message, provinces_named(message, codes)),))
    codes |= set(variant.provinces)
    drawing = [Problem("drawing", m, provinces_named(m, codes)) for m in drawing_problems(variant, geometry)]
    too_late = years_beyond(data.get("timeline"), variant.start.phase.year + MAX_YEARS)
    if too_late:
        return Report((*drawing, Problem("timeline", too_late, ())), version=variant.version, files=files)
    try:
        checked = check_variant(variant, CHECK_OPTIONS)
        steps = _timeline(variant)
    except ValueError as exc:  # TimelineError: a change that can never apply among them
        message = str(exc).replace(_temporary_root(exc), "")
        problem = Problem("timeline", message, provinces_named(message, codes))
        return Report((*drawing, problem), version=variant.version, files=files)
    except (TypeError, AttributeError, KeyError) as exc:  # a table of timeline.toml in a shape it has not
        message = f"timeline.toml is not in the shape variants/README.md gives ({type(exc).__name__}: {exc})"
        return Report((*drawing, Problem("timeline", message, ())), version=variant.version, files=files)
    problems = [Problem(f.at, f.message, provinces_named(f.message, codes)) for f in checked.problems]
    notes = tuple(Problem(f.at, f.message, provinces_named(f.message, codes)) for f in checked.notes)
    return Report((*drawing, *problems), notes, steps, variant.version, files)


def years_beyond(timeline: Any, last: int) -> str | None:
    """Why a timeline reaches past ``last`` (the check walks every season up to its last change, so a year
    far off would hold the request for minutes), or ``None``."""
    events = timeline.get("events", []) if isinstance(timeline, dict) else []
    for number, event in enumerate(events if isinstance(events, list) else [], start=1):
        if not isinstance(event, dict):
            continue
        chance = event.get("chance")
        years = [event.get("year"), *(chance if isinstance(chance, dict) else {})]
        for year in years:
            if isinstance(year, int | str) and str(year).isdigit() and int(year) > last:
                return f"timeline.toml: event {number}: year {year} is over {MAX_YEARS} years after the start"
    return None


def drawing_problems(variant: Variant, geometry: dict[str, Any] | None) -> list[str]:
    """A drawing of its own must outline every province (``None``: the base's drawing, checked there)."""
    if geometry is None:
        if variant.base is None:
            return ["the variant has no drawing: import an SVG map or start from an installed variant"]
        return []
    shapes = geometry.get("provinces", {})
    return [
        f"province {code} has no shape in the drawing"
        for code in sorted(set(variant.provinces) - set(shapes))
    ]


def _timeline(variant: Variant) -> tuple[dict[str, Any], ...]:
    """Every moment the map changes, with what changes, in words and as data (for the preview)."""
    return tuple(
        {
            "year": year,
            "hook": hook.value,
            "when": f"{year} {HOOK_WORDS[hook]}",
            "events": [{**event, "text": event_text(event)} for event in step.events],
            "terrain": {code: str(t.value) for code, t in sorted(step.map_state.terrain.items())},
            "centres": sorted(step.map_state.supply_centres),
        }
        for year, hook, step in walk(variant, CHECK_OPTIONS)
        if step.events
    )


def _temporary_root(exc: Exception) -> str:
    """The temporary folder the loader read the files from, as messages name it (left out for the user)."""
    match = re.search(r"\S*/dipserver-variants/[0-9a-f]+/", str(exc))
    return match.group(0) if match else "\0"
