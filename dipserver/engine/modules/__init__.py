"""Rule modules a game can switch on with any variant: blizzards and supply lines (variant-rulings §8), and
the Abstraction A/F rules (§5.6: Deluge's by default, its timeline's ``convoys`` setting).

``Modules`` is the game's choice (read from its options), here with ``modules_for``: every game asks it.
How the modules open and play a phase and what they remember from phase to phase (``phase.py``:
``ModuleState``, with ``InPlay`` for the reader and the options; its parts in ``state.py``) and the rules
themselves (``RULES``: ``blizzard``, ``supply``, ``starvation`` ...) are loaded when a game first plays
with modules, here and only here: ``__getattr__`` imports one the first time it is named as an attribute
of this package (``rules.phase.play(...)`` in ``turn.py``, ``rules.supply.trace(...)`` in ``phase.py``),
and ``Modules.from_options`` reads a module's settings with its own code once a game's options switch it
on. The modules' own orders (depots, Snow Storms: ``orders.py``) and their kinds (``kinds.py``) are light,
and loaded by the order kinds' registry when it first needs them (``kinds/registry.py``). A game without
modules, the usual one, never loads the rest: it is a large part of a one-request command's start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from dipserver.engine.definition import Variant
from dipserver.engine.timelinecache import load_timeline

if TYPE_CHECKING:
    from types import ModuleType

    from dipserver.engine.modules import abstraction as abstraction
    from dipserver.engine.modules import blizzard as blizzard
    from dipserver.engine.modules import screen as screen
    from dipserver.engine.modules import starvation as starvation
    from dipserver.engine.modules import supply as supply
    from dipserver.engine.modules.blizzard import BlizzardOptions
    from dipserver.engine.modules.supply import SupplyOptions

RULES = ("abstraction", "blizzard", "screen", "starvation", "supply")
# What a game with modules plays them with (``phase``: opening and playing a phase; ``state``: what they
# remember): loaded as the rules are, the first time a game has modules.
PLAY = ("phase", "state")


def __getattr__(name: str) -> ModuleType:
    """The rule module ``name`` of ``RULES`` (or of ``PLAY``), imported the first time it is asked for
    (then a plain attribute: importing a submodule sets it on its package)."""
    if name not in RULES and name not in PLAY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return importlib.import_module(f"{__name__}.{name}")


MODULE_KEYS = ("blizzards", "supply_lines", "abstraction", "davis_af_limit")


# --- the game's choice, and its state -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modules:
    """The rule modules a game plays, with their settings (``None`` or ``False``: off)."""

    blizzards: BlizzardOptions | None = None
    supply: SupplyOptions | None = None
    abstraction: bool = (
        False  # the Abstraction A/F rules: armies board fleets, Fast Ferry (kinds/abstraction)
    )
    # Davis's reading of the A/F rules: an A/F lasts three moves, its army starves on the fourth
    # (``starvation``). Off: Agar's revision, which drops the limit. On, it plays the A/F rules.
    davis_af_limit: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Modules:
        """From a game's options: ``{"blizzards": {"count": "1d6"}, "supply_lines": true}``; other keys
        (the variant's own options) are ignored. ``false`` or a missing key leaves a module off."""
        blizzards = options.get("blizzards", False)
        supply = options.get("supply_lines", False)
        abstraction = options.get("abstraction", False)
        davis = options.get("davis_af_limit", False)
        if not isinstance(abstraction, bool):
            raise ValueError(f"abstraction is true or false, not {abstraction!r}")
        if not isinstance(davis, bool):
            raise ValueError(f"davis_af_limit is true or false, not {davis!r}")
        rules = __getattr__  # the modules switched on read their own settings (and are loaded now)
        return cls(
            None if blizzards is False else rules("blizzard").BlizzardOptions.from_data(blizzards),
            None if supply is False else rules("supply").SupplyOptions.from_data(supply),
            abstraction or davis,
            davis,
        )

    def to_options(self) -> dict[str, Any]:
        return {
            "blizzards": self.blizzards.to_data() if self.blizzards else False,
            "supply_lines": self.supply.to_data() if self.supply else False,
            "abstraction": self.abstraction,
            "davis_af_limit": self.davis_af_limit,
        }

    @property
    def any(self) -> bool:
        return self.blizzards is not None or self.supply is not None or self.abstraction


def split_options(options: Mapping[str, Any] | None) -> tuple[Modules, dict[str, Any]]:
    """A game's options as (the modules chosen, the rest for the variant's timeline). The timeline refuses
    keys it does not know, so ``blizzards`` and ``supply_lines`` must be taken out before it sees them."""
    options = dict(options or {})
    chosen = Modules.from_options(options)
    return chosen, {k: v for k, v in options.items() if k not in MODULE_KEYS}


def modules_for(variant: Variant, options: Mapping[str, Any] | None) -> Modules:
    """The rule modules a game of ``variant`` plays: those its options switch on, and the Abstraction A/F
    rules where the variant plays them by default (its timeline's ``convoys`` setting, which an option
    such as Deluge's ``standard_convoys`` turns back to the rulebook's convoys). ``options`` are checked
    already (``TimelineError`` otherwise)."""
    chosen, rest = split_options(options)
    timeline = load_timeline(variant)
    if not chosen.abstraction and timeline.settings_for(timeline.game_options(rest)).convoys == "abstraction":
        chosen = replace(chosen, abstraction=True)
    return chosen
