"""Reading a variant's ``timeline.toml`` (format: ``variants/README.md``, "Timelines") into a checked
``Timeline``; ``timelinecache.py`` calls it, only for a variant that has the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dipserver.engine.board import FrozenMap
from dipserver.engine.definition import Variant
from dipserver.engine.hooks import _HOOK_POINT, _PHASE_POINT, Hook
from dipserver.engine.timelinedata import Settings, Timeline, TimelineError
from dipserver.engine.timelinerows import Change, Event, OptionSpec, never_applies

if TYPE_CHECKING:
    from dipserver.engine.conditions import Condition


_SETTING_VALUES = {
    "sc_owner": ("occupant", "deluge_chain"),
    "stranded_fleets": ("convert", "stay"),
    "sunk_armies": ("fleet", "drown"),
    "new_sc_home": ("none", "territory"),
    "convoys": ("rulebook", "abstraction"),
}


def read_timeline(variant: Variant, path: str) -> Timeline:
    """The checked timeline of ``variant`` in the file ``path``."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise TimelineError(f"{path}: not valid TOML: {exc}") from exc
    return _Reader(variant, path).timeline(data)


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
