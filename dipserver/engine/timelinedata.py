"""A variant's timeline as read (``Timeline``: its events, settings, switches and labels) and the error of a
wrong timeline file or wrong timeline options. ``timelinecache.py`` gives each variant's, read once by
``timelinefile.py``; a variant without a timeline file has an empty one, and its game never loads the
reader or the rows (``timelinerows.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from dipserver.engine.types import Season

if TYPE_CHECKING:
    from dipserver.engine.timelinerows import Event, OptionSpec


class TimelineError(ValueError):
    """A timeline file or a game's timeline options are wrong; the message says where and why."""


MODES = ("exact", "random")


@dataclass(frozen=True, slots=True)
class Settings:
    """How the fix-up pipeline (``fixups.py``) treats units and centres after a change (variant data,
    E3/E7/E11)."""

    sc_owner: str = "occupant"  # "occupant" | "deluge_chain"
    stranded_fleets: str = "convert"  # "convert" (army, or disband if told to stay) | "stay"
    sunk_armies: str = "fleet"  # "fleet" | "drown"
    new_sc_home: str = "none"  # "none" | "territory": new centres in a home territory are home centres
    # "rulebook" | "abstraction": the convoy rules the variant plays by default (the Abstraction A/F
    # module, variant-rulings 5.6: ``modules.modules_for``); not a fix-up, but read with the others.
    convoys: str = "rulebook"


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
    orders: frozenset[str] = frozenset()  # the variant's extra orders, from timelinefile.ORDER_KINDS

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
