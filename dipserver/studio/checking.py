"""A draft checked as ``check`` checks a variant of ``variants/``: its files written out and loaded by the
engine's own loader (``load_variant_from_sources``, as a game's archived version is), then the engine's
``check_variant`` over its start map and every map its timeline makes. Each finding names the provinces it
concerns, and a timeline's finding the events it concerns, so the studio shows it beside them; the map
comes back at the start and after each change of the timeline, for the preview. Last the draft's own tests
run on the variant (``scenarios.py``): each one green or red, a red one a problem of the check."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dipserver.engine import (
    HOOK_WORDS,
    MapState,
    Variant,
    check_variant,
    event_text,
    load_variant_from_sources,
    walk,
)
from dipserver.studio.errors import StudioError
from dipserver.studio.package import variant_files
from dipserver.studio.scenarios import draft_scenarios, results_of

_CODE = re.compile(r"\b[A-Z][A-Z0-9]{1,3}\b")
_EVENT = re.compile(r"\bevent (\d+)\b")
CHECK_OPTIONS = {"mode": "exact"}  # the timeline as printed: every event with a chance is left to chance
MAX_YEARS = 200  # a timeline's events come at most this many years after the start


@dataclass(frozen=True, slots=True)
class Problem:
    at: str  # "files" (the loader refused them), "drawing", "start" or "<year> <hook>"
    message: str
    provinces: tuple[str, ...]
    events: tuple[int, ...] = ()  # the timeline's events (1-based, as the file numbers them) it concerns

    def as_data(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "message": self.message,
            "provinces": list(self.provinces),
            "events": list(self.events),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """What the studio shows: problems (any fails the check), notes, and the timeline's changes."""

    problems: tuple[Problem, ...]
    notes: tuple[Problem, ...] = ()
    timeline: tuple[dict[str, Any], ...] = ()
    start: dict[str, Any] | None = None  # the start: terrain, centres (as a timeline step), powers, units
    version: str | None = None  # the engine's version hash of the files, when they load
    files: dict[str, str] = field(default_factory=dict)
    tests: tuple[dict[str, Any], ...] = ()  # the draft's own tests run: name, passed, failures

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
            "start": self.start,
            "tests": list(self.tests),
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
    start = {**_map_data(variant.map_state), **_start_units(variant)}
    too_late = years_beyond(data.get("timeline"), variant.start.phase.year + MAX_YEARS)
    if too_late:
        problem = Problem("timeline", too_late, (), events_named(too_late))
        return Report((*drawing, problem), start=start, version=variant.version, files=files)
    try:
        checked = check_variant(variant, CHECK_OPTIONS)
        steps = _timeline(variant)
    except ValueError as exc:  # TimelineError: a change that can never apply among them
        message = str(exc).replace(_temporary_root(exc), "")
        events = events_named(message) or _events_naming(provinces_named(message, codes), data)
        problem = Problem("timeline", message, provinces_named(message, codes), events)
        return Report((*drawing, problem), start=start, version=variant.version, files=files)
    except (TypeError, AttributeError, KeyError) as exc:  # a table of timeline.toml in a shape it has not
        message = f"timeline.toml is not in the shape variants/README.md gives ({type(exc).__name__}: {exc})"
        problem = Problem("timeline", message, ())
        return Report((*drawing, problem), start=start, version=variant.version, files=files)
    problems = [_step_finding(f.at, f.message, codes, data) for f in checked.problems]
    notes = tuple(_step_finding(f.at, f.message, codes, data) for f in checked.notes)
    tests, failed = _tests(variant, data, codes)
    return Report((*drawing, *problems, *failed), notes, steps, start, variant.version, files, tests)


def _tests(
    variant: Variant, data: dict[str, Any], codes: set[str]
) -> tuple[tuple[dict[str, Any], ...], list[Problem]]:
    """The draft's tests run, and a problem for each that fails (or for a table the runner cannot read)."""
    try:
        results = results_of(variant, draft_scenarios(data))
    except StudioError as exc:
        return (), [Problem("tests", str(exc), provinces_named(str(exc), codes))]
    failed = [
        Problem("tests", message, provinces_named(message, codes))
        for result in results
        if not result["passed"]
        for message in [f"test {result['name']!r} fails: {'; '.join(result['failures'])}"]
    ]
    return tuple(results), failed


def events_named(message: str) -> tuple[int, ...]:
    """The timeline events a loader's message names ("timeline.toml: event 3: ...")."""
    return tuple(dict.fromkeys(int(number) for number in _EVENT.findall(message)))


def _events_of(timeline: Any) -> list[dict[str, Any]]:
    events = timeline.get("events", []) if isinstance(timeline, dict) else []
    return [event if isinstance(event, dict) else {} for event in events] if isinstance(events, list) else []


def _events_naming(
    provinces: tuple[str, ...], data: dict[str, Any], year: int | None = None, hook: str | None = None
) -> tuple[int, ...]:
    """The events that may have made a map a finding is about: naming one of its provinces (and, given
    the moment, at that hook in a year that reaches that one)."""
    return tuple(
        number
        for number, event in enumerate(_events_of(data.get("timeline")), start=1)
        if set(provinces) & set(_provinces_of(event))
        and (hook is None or event.get("hook", hook) == hook)
        and (year is None or _may_come_by(event, year))
    )


def _step_finding(at: str, message: str, codes: set[str], data: dict[str, Any]) -> Problem:
    """A finding of the check at the start or at "<year> <hook>", with the events that may concern it."""
    provinces = provinces_named(message, codes)
    year, _, hook = at.partition(" ")
    if not year.isdigit():
        return Problem(at, message, provinces)
    events = _events_naming(provinces, data, int(year), hook)
    if not events:  # e.g. a province cut off by changes around it: the events of that moment
        events = tuple(
            number
            for number, event in enumerate(_events_of(data.get("timeline")), start=1)
            if event.get("hook", hook) == hook and event.get("year", int(year)) == int(year)
        )
    return Problem(at, message, provinces, events)


def _may_come_by(event: dict[str, Any], year: int) -> bool:
    chance = event.get("chance")
    years = [int(y) for y in chance if str(y).isdigit()] if isinstance(chance, dict) else []
    first = min(years) if years else event.get("year")
    return not isinstance(first, int) or first <= year


def _provinces_of(event: dict[str, Any]) -> list[str]:
    named = [event.get("provinces"), event.get("except")]
    return [str(code) for codes in named if isinstance(codes, list) for code in codes]


def _map_data(map_state: MapState) -> dict[str, Any]:
    return {
        "terrain": {code: str(t.value) for code, t in sorted(map_state.terrain.items())},
        "centres": sorted(map_state.supply_centres),
    }


def _start_units(variant: Variant) -> dict[str, Any]:
    """The powers and units at the start, for the editor (a draft extending a variant may not list them)."""
    units: dict[str, list[str]] = {power: [] for power in variant.powers}
    for unit in variant.start.units.values():
        units.setdefault(unit.power, []).append(str(unit))
    return {"powers": list(variant.powers), "units": {power: sorted(held) for power, held in units.items()}}


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
            **_map_data(step.map_state),
        }
        for year, hook, step in walk(variant, CHECK_OPTIONS)
        if step.events
    )


def _temporary_root(exc: Exception) -> str:
    """The temporary folder the loader read the files from, as messages name it (left out for the user)."""
    match = re.search(r"\S*/dipserver-variants/[0-9a-f]+/", str(exc))
    return match.group(0) if match else "\0"
