"""A variant's timeline: the map changes it schedules at hooks between phases, read from data.

``variants/<slug>/timeline.toml`` lists events (format: ``variants/README.md``, "Timelines"). Each event
changes terrain (land, sea, impassable) or supply-centre status for some provinces, at a hook of a year,
or with cumulative chances over several years (Wall of Ice). A game's options pick exact or random mode
and the variant's own switches (Sahara ``errata``, Deluge ``swap_sil_swi`` ...). ``schedule`` resolves
all of it once into "which changes fire at which (year, hook)"; ``apply_hook`` applies one hook's changes
and runs the fix-up pipeline (``fixups.py``), returning a new map, a new position and the events as plain
data. Deluge's build rule is in ``builds.py``; the timeline in words (``describe``, ``event_text``) and the
map of a phase (``map_at``) in ``chronicle.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from dipserver.engine import fixups
from dipserver.engine.board import FrozenMap, MapState
from dipserver.engine.fixups import Settings as Settings  # the pipeline's settings, read from here
from dipserver.engine.position import Position
from dipserver.engine.timelinerows import _HOOK_POINT as _HOOK_POINT
from dipserver.engine.timelinerows import _PHASE_POINT as _PHASE_POINT
from dipserver.engine.timelinerows import TERRAIN_OF as TERRAIN_OF
from dipserver.engine.timelinerows import Change as Change
from dipserver.engine.timelinerows import Event as Event
from dipserver.engine.timelinerows import Hook as Hook
from dipserver.engine.timelinerows import Scheduled as Scheduled
from dipserver.engine.timelinerows import conditional, never_applies
from dipserver.engine.types import Phase, Season
from dipserver.engine.variant import VARIANTS_DIR, Variant

if TYPE_CHECKING:
    from dipserver.engine.conditions import Condition


class TimelineError(ValueError):
    """A timeline file or a game's timeline options are wrong; the message says where and why."""


MODES = ("exact", "random")


_SETTING_VALUES = {
    "sc_owner": ("occupant", "deluge_chain"),
    "stranded_fleets": ("convert", "stay"),
    "sunk_armies": ("fleet", "drown"),
    "new_sc_home": ("none", "territory"),
    "convoys": ("rulebook", "abstraction"),
}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One of the variant's own switches (``[options]``): its default, and the settings it overrides."""

    name: str
    default: bool
    description: str
    settings: Mapping[str, str] = field(default_factory=dict)  # settings it overrides when on


@dataclass(frozen=True, eq=False)
class Timeline:
    """A variant's parsed timeline. Compared by identity: loaded once per variant and cached."""

    slug: str
    source: str  # the file it came from, for messages
    events: tuple[Event, ...] = ()
    settings: Settings = field(default_factory=Settings)
    options: Mapping[str, OptionSpec] = field(default_factory=dict)
    season_labels: tuple[tuple[int, Mapping[str, str]], ...] = ()  # (from year, season letter -> label)
    territories: Mapping[str, str] = field(default_factory=dict)  # province -> power (original homes)
    coast_names: Mapping[str, tuple[tuple[str, frozenset[str]], ...]] = field(default_factory=dict)
    victory: tuple[Mapping[str, Any], ...] = ()  # raw [[victory]] tables; victory.py reads them
    non_home_builds: int | None = None  # Deluge: builds outside home centres per Winter, once homes are full
    orders: frozenset[str] = frozenset()  # the variant's extra orders, from ORDER_KINDS

    def game_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A game's options checked against this timeline, with defaults filled in."""
        given = dict(options or {})
        resolved: dict[str, Any] = {"mode": given.pop("mode", "exact")}
        if resolved["mode"] not in MODES:
            raise TimelineError(f"{self.slug}: mode must be 'exact' or 'random', not {resolved['mode']!r}")
        for name, spec in self.options.items():
            value = given.pop(name, spec.default)
            if not isinstance(value, bool):
                raise TimelineError(f"{self.slug}: option {name!r} is true or false, not {value!r}")
            resolved[name] = value
        if given:
            known = ", ".join(["mode", *self.options]) or "mode"
            raise TimelineError(f"{self.slug}: unknown option(s) {sorted(given)}; this variant knows {known}")
        return resolved

    def settings_for(self, options: Mapping[str, Any]) -> Settings:
        settings = self.settings
        for name, spec in self.options.items():
            if options.get(name) and spec.settings:
                settings = replace(settings, **spec.settings)
        return settings

    def season_label(self, season: Season, year: int) -> str | None:
        """Sahara's "Early Summer" and friends (E23); ``None`` means the usual name."""
        label = None
        for from_year, labels in self.season_labels:
            if year >= from_year and season.value in labels:
                label = labels[season.value]
        return label


# --- loading ----------------------------------------------------------------------------------------


def load_timeline(variant: Variant, root: Path | None = None) -> Timeline:
    """The checked timeline of ``variant`` (an empty one if it has no ``timeline.toml``), cached."""
    return _load_cached(variant, root or variant.source_root or VARIANTS_DIR)


@functools.lru_cache(maxsize=32)
def _load_cached(variant: Variant, root: Path) -> Timeline:
    path = root / variant.slug / "timeline.toml"
    if not path.is_file():
        return Timeline(variant.slug, str(path))
    import tomllib  # only a variant with a timeline file reads TOML here (a millisecond of start-up)

    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise TimelineError(f"{path}: not valid TOML: {exc}") from exc
    return _Reader(variant, str(path)).timeline(data)


_TOP_KEYS = frozenset(
    {"settings", "defaults", "options", "events", "season_labels", "territories", "coast_names", "victory"}
    | {"builds", "orders"}
)
ORDER_KINDS = ("convert_to_army", "convert_to_fleet", "stay_fleet")
_EVENT_KEYS = frozenset(
    {"year", "hook", "change", "provinces", "chance", "if", "unless", "except", "when", "until"}
)


class _Reader:
    def __init__(self, variant: Variant, where: str) -> None:
        self.variant = variant
        self.where = where

    def fail(self, message: str) -> TimelineError:
        return TimelineError(f"{self.where}: {message}")

    def timeline(self, data: dict[str, Any]) -> Timeline:
        unknown = set(data) - _TOP_KEYS
        if unknown:
            raise self.fail(f"unknown top-level key(s) {sorted(unknown)}")
        options = self.options(data.get("options", {}))
        default_hook = data.get("defaults", {}).get("hook")
        events = tuple(
            self.event(i, raw, default_hook, options) for i, raw in enumerate(data.get("events", []), 1)
        )
        self.check_chances(events)
        self.check_effects(events)
        return Timeline(
            slug=self.variant.slug,
            source=self.where,
            events=events,
            settings=self.settings(data.get("settings", {}), "[settings]"),
            options=options,
            season_labels=self.season_labels(data.get("season_labels", [])),
            territories=self.territories(data.get("territories", {})),
            coast_names=self.coast_names(data.get("coast_names", {})),
            victory=tuple(data.get("victory", [])),
            non_home_builds=self.builds(data.get("builds", {})),
            orders=self.orders(data.get("orders", {})),
        )

    def province(self, code: Any, at: str) -> str:
        if not isinstance(code, str) or code not in self.variant.provinces:
            raise self.fail(f"{at}: {code!r} is not a province of {self.variant.slug}")
        return code

    def settings(self, raw: Any, at: str) -> Settings:
        if not isinstance(raw, dict):
            raise self.fail(f"{at} must be a table")
        for key, value in raw.items():
            if key not in _SETTING_VALUES:
                raise self.fail(f"{at}: unknown setting {key!r}; known: {sorted(_SETTING_VALUES)}")
            if value not in _SETTING_VALUES[key]:
                raise self.fail(f"{at}: {key} must be one of {list(_SETTING_VALUES[key])}, not {value!r}")
        return Settings(**raw)

    def options(self, raw: Any) -> dict[str, OptionSpec]:
        options = {}
        for name, spec in raw.items():
            at = f"[options.{name}]"
            if name == "mode" or not isinstance(spec, dict) or not isinstance(spec.get("default"), bool):
                raise self.fail(f"{at}: an option is a table with default = true|false (and not 'mode')")
            overrides = spec.get("settings", {})
            self.settings(overrides, f"{at} settings")
            options[name] = OptionSpec(name, spec["default"], spec.get("description", ""), overrides)
        return options

    def event(self, number: int, raw: Any, default_hook: Any, options: Mapping[str, OptionSpec]) -> Event:
        at = f"event {number}"
        if not isinstance(raw, dict):
            raise self.fail(f"{at}: must be a table")
        unknown = set(raw) - _EVENT_KEYS
        if unknown:
            raise self.fail(f"{at}: unknown key(s) {sorted(unknown)}")
        if raw.get("change") not in {c.value for c in Change}:
            raise self.fail(f"{at}: change {raw.get('change')!r} is not one of {[c.value for c in Change]}")
        hook_name = raw.get("hook", default_hook)
        if hook_name not in {h.value for h in Hook}:
            shown = "no hook (give hook = or [defaults] hook)" if hook_name is None else f"hook {hook_name!r}"
            raise self.fail(f"{at}: {shown}; hooks are {[h.value for h in Hook]}")
        change, hook = Change(raw["change"]), Hook(hook_name)
        provinces = tuple(self.province(p, at) for p in raw.get("provinces", []))
        keep = tuple(self.province(p, f"{at} except") for p in raw.get("except", []))
        if change is Change.SC_LOSS_ALL:
            if provinces:
                raise self.fail(f"{at}: sc_loss_all lists the survivors in 'except', not 'provinces'")
        elif not provinces or keep:
            raise self.fail(f"{at}: {change} needs a non-empty 'provinces' list and no 'except'")
        year, chance = raw.get("year"), self.chance(raw.get("chance"), at)
        when, until = self.condition(raw, at), raw.get("until")
        if when is None and (year is None) == (not chance):
            raise self.fail(f"{at}: give either 'year' or 'chance', not both or neither")
        if when is not None and chance:
            raise self.fail(f"{at}: an event with 'when' fires when its condition holds, not by chance")
        if when is None and until is not None:
            raise self.fail(f"{at}: 'until' is the last year of an event with 'when'")
        for key, value in (("year", year), ("until", until)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise self.fail(f"{at}: {key} must be a number such as 1903")
        if year is not None and until is not None and until < year:
            raise self.fail(f"{at}: until ({until}) comes before year ({year})")
        for key in ("if", "unless"):
            if key in raw and raw[key] not in options:
                raise self.fail(f"{at}: '{key}' names {raw[key]!r}, which is not an option of this variant")
        return Event(
            number, change, hook, provinces, year, chance, raw.get("if"), raw.get("unless"), keep, when, until
        )

    def condition(self, raw: dict[str, Any], at: str) -> Condition | None:
        if "when" not in raw:
            return None
        # Read here, where a timeline file has conditions: a variant without one never loads them.
        from dipserver.engine.conditions import ConditionError, read_condition

        try:
            return read_condition(raw["when"], self.variant.provinces, self.variant.powers)
        except ConditionError as exc:
            raise self.fail(f"{at}: {exc}") from exc

    def chance(self, raw: Any, at: str) -> tuple[tuple[int, int], ...]:
        if raw is None:
            return ()
        try:
            pairs = tuple(sorted((int(y), int(p)) for y, p in raw.items()))
        except (AttributeError, ValueError) as exc:
            raise self.fail(f"{at}: chance is a table like {{ 1902 = 25, 1903 = 75, 1904 = 100 }}") from exc
        percents = [p for _, p in pairs]
        if percents != sorted(percents) or percents[-1] != 100 or percents[0] <= 0:
            raise self.fail(f"{at}: chances are cumulative per cent, rising to 100 (got {dict(pairs)})")
        return pairs

    def check_chances(self, events: tuple[Event, ...]) -> None:
        """A random entry is drawn by (change, province): each may appear in one chance event only."""
        seen: dict[str, int] = {}
        for event in events:
            for province in event.provinces if event.chance else ():
                key = f"{event.change}:{province}"
                if key in seen:
                    raise self.fail(f"event {event.number}: {key} is already drawn by event {seen[key]}")
                seen[key] = event.number

    def check_effects(self, events: tuple[Event, ...]) -> None:
        """Every change can apply in some game: none is dated before the start, none gives a centre to a
        province that is never land or already always one, takes away one that never is, or turns a
        province into the terrain it always has. Whatever any event of the file might do first, under any
        options, counts: an event whose effect depends on the order of others (a row the seed's table
        repeats, E28) is kept."""
        start = self.variant.start.phase
        begins = (start.year, _PHASE_POINT[start.season.value + start.type.value])
        for event in events:
            if event.until is not None and event.until < start.year:
                raise self.fail(f"event {event.number}: until {event.until} comes before the game starts")
            for year in (event.year,) if event.year is not None else tuple(y for y, _ in event.chance):
                if (year, _HOOK_POINT[event.hook]) < begins:
                    raise self.fail(
                        f"event {event.number}: {year} {event.hook.value} comes before the game starts "
                        f"({start}): it never runs"
                    )
            for province in (*event.provinces, *event.keep):
                why = never_applies(self.variant, events, event, province)
                if why is not None:
                    raise self.fail(f"event {event.number}: {event.change.value} {province}: {why}")

    def season_labels(self, raw: Any) -> tuple[tuple[int, Mapping[str, str]], ...]:
        labels = []
        if not isinstance(raw, list) or not all(isinstance(entry, dict) for entry in raw):
            raise self.fail("[[season_labels]] is a list of tables with from_year and labels S, F, W")
        for entry in raw:
            from_year = entry.get("from_year")
            names = {k: v for k, v in entry.items() if k in ("S", "F", "W")}
            if not isinstance(from_year, int) or len(names) != len(entry) - 1:
                raise self.fail("[[season_labels]] entries have from_year and labels S, F, W")
            labels.append((from_year, FrozenMap(names)))
        return tuple(sorted(labels, key=lambda pair: pair[0]))

    def territories(self, raw: Any) -> Mapping[str, str]:
        result: dict[str, str] = {}
        for power, provinces in raw.items():
            if power not in self.variant.powers:
                raise self.fail(f"[territories]: {power!r} is not a power of {self.variant.slug}")
            for code in provinces:
                result[self.province(code, f"[territories] {power}")] = power
        return FrozenMap(result)

    def coast_names(self, raw: Any) -> Mapping[str, tuple[tuple[str, frozenset[str]], ...]]:
        result = {}
        for code, names in raw.items():
            at = f"[coast_names] {self.province(code, '[coast_names]')}"
            if not isinstance(names, dict) or not names:
                raise self.fail(f'{at}: give coast = [seas], e.g. EC = ["VEN"]')
            pairs = []
            for coast, anchors in names.items():
                if coast not in ("NC", "SC", "EC", "WC"):
                    raise self.fail(f"{at}: coast {coast!r} is not one of NC, SC, EC, WC")
                pairs.append((coast, frozenset(self.province(a, at) for a in anchors)))
            result[code] = tuple(pairs)
        return FrozenMap(result)

    def orders(self, raw: Any) -> frozenset[str]:
        unknown = set(raw) - set(ORDER_KINDS)
        if unknown or not all(isinstance(v, bool) for v in raw.values()):
            raise self.fail(f"[orders] takes {', '.join(ORDER_KINDS)} = true|false (got {sorted(raw)})")
        return frozenset(k for k, on in raw.items() if on)

    def builds(self, raw: Any) -> int | None:
        limit = raw.get("non_home_per_winter")
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise self.fail("[builds] non_home_per_winter must be a whole number")
        return limit


# --- resolving the schedule -------------------------------------------------------------------------


Schedule = Mapping[tuple[int, Hook], tuple[Scheduled, ...]]


def schedule(timeline: Timeline, options: Mapping[str, Any], secret: str | None = None) -> Schedule:
    """Every change of the game, keyed by (year, hook), in file order within a hook."""
    resolved = timeline.game_options(options)
    if resolved["mode"] == "random" and not secret and any(e.chance for e in timeline.events):
        raise TimelineError(f"{timeline.slug}: random mode needs the game's secret")
    key = tuple(sorted(resolved.items()))
    return _schedule_cached(timeline, key, secret if resolved["mode"] == "random" else None)


@functools.lru_cache(maxsize=256)
def _schedule_cached(
    timeline: Timeline, options: tuple[tuple[str, Any], ...], secret: str | None
) -> Schedule:
    opts = dict(options)
    slots: dict[tuple[int, Hook], list[Scheduled]] = {}
    for event in timeline.events:
        if event.when is not None or not event.applies(opts):
            continue  # a conditional event fires on the position, not on a date (``conditional``)
        if event.change is Change.SC_LOSS_ALL:
            assert event.year is not None  # the reader guarantees a year for non-chance events
            slots.setdefault((event.year, event.hook), []).append(
                Scheduled(event.year, event.hook, event.change, None, event.keep)
            )
            continue
        for province in event.provinces:
            entry, year = "", event.year
            if event.chance:
                # Only chances draw (hashlib, hmac and secrets are a start-up cost of their own).
                from dipserver.engine import randomness

                chance = dict(event.chance)
                entry = f"{timeline.slug}/{event.change}/{province}"
                year = (
                    randomness.exact_year(chance)
                    if secret is None
                    else randomness.year_for(randomness.draw(secret, entry), chance)
                )
            assert year is not None
            slots.setdefault((year, event.hook), []).append(
                Scheduled(year, event.hook, event.change, province, entry=entry)
            )
    return MappingProxyType({slot: tuple(changes) for slot, changes in slots.items()})


def last_year(timeline: Timeline, options: Mapping[str, Any], secret: str | None = None) -> int | None:
    """The year of the last change, or ``None`` for a map that never changes."""
    years = [year for year, _ in schedule(timeline, options, secret)]
    return max(years) if years else None


# --- applying a hook --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HookResult:
    """A hook applied: the map and position after it, and what changed."""

    map_state: MapState
    position: Position
    events: tuple[Mapping[str, Any], ...]  # what changed, as plain data for the answer's "events"


def hooks_between(done: Phase, following: Phase) -> tuple[tuple[int, Hook], ...]:
    """The (year, hook) pairs to run after phase ``done`` when ``following`` is the next phase played.

    Hooks run even when a retreat or adjustment phase is skipped (E30). Run the before-Winter hook
    *before* deciding whether to skip a Winter: it may create the centres that give someone a build.
    """
    start = (done.year, _PHASE_POINT[done.season.value + done.type.value])
    end = (following.year, _PHASE_POINT[following.season.value + following.type.value])
    return tuple(
        (year, hook)
        for year in range(done.year, following.year + 1)
        for hook, point in _HOOK_POINT.items()
        if start < (year, point) < end
    )


def apply_hook(
    variant: Variant,
    options: Mapping[str, Any],
    map_state: MapState,
    position: Position,
    hook: Hook,
    year: int,
    flags: frozenset[str] = frozenset(),
    secret: str | None = None,
) -> HookResult:
    """Apply the changes the timeline schedules at ``hook`` of ``year``, then the fix-up pipeline.

    ``flags`` are the provinces of fleets whose owners ordered them to *stay a fleet* this season (Sahara,
    E16), given where the fleets stand after the season's movement and retreats.
    """
    timeline = load_timeline(variant)
    if hook in (Hook.AFTER_SPRING_RETREATS, Hook.AFTER_FALL_RETREATS):
        position = fixups.record_occupants(position)
    changes = schedule(timeline, options, secret).get((year, hook), ())
    due = [event for event in timeline.events if event.when is not None and event.hook is hook]
    fired = conditional(due, timeline.game_options(options), map_state, position, year) if due else ()
    if not changes and not fired:
        return HookResult(map_state, position, ())
    changes = (*changes, *(change for _, due in fired for change in due))
    settings = timeline.settings_for(timeline.game_options(options))
    new_map, new_position, events = fixups.apply_changes(
        variant, timeline, settings, map_state, position, changes, flags
    )
    met = tuple(
        {"kind": "condition_met", "event": e.number, "when": e.when.text()} for e, _ in fired if e.when
    )
    return HookResult(new_map, new_position, met + events)


def walk(
    variant: Variant,
    options: Mapping[str, Any],
    secret: str | None = None,
    position: Position | None = None,
) -> list[tuple[int, Hook, HookResult]]:
    """Every hook from the start to the last change, applied in turn with units that never move.

    The map it yields is the game's map whatever the players do; the units are the start position's
    (or ``position``'s) as the changes alone leave them. For ``check``, the CLI and tests.
    """
    timeline = load_timeline(variant)
    end = last_year(timeline, options, secret)
    map_state, pos = variant.map_state, position or variant.start
    steps = []
    for year in range(pos.phase.year, (end or pos.phase.year - 1) + 1):
        for hook in Hook:
            result = apply_hook(variant, options, map_state, pos, hook, year, secret=secret)
            map_state, pos = result.map_state, result.position
            steps.append((year, hook, result))
    return steps
