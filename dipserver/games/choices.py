"""The choices a game's creator has for one variant, read from the variant's data: what the create form
offers and the variant API lists, each with a one-line explanation.

Only choices that change something are listed: the random/exact ``mode`` only for a variant whose
timeline has chances, the variant's own switches (``[options]`` of its timeline), the rule modules (any
variant plays with them), and a generated board's number of powers and seed. Each choice is either a game
option (``options`` of ``game_create``) or, for a generated board, a ``game_create`` argument (``board``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dipserver.engine import Variant, VariantSource, load_timeline
from dipserver.games.variants import generated_powers, sample_variant, source_of

FLAG, MODE, COUNT, TEXT = "flag", "mode", "count", "text"

_MODULES = (
    (
        "blizzards",
        "Blizzards",
        "Each Spring and Autumn 1d6 provinces are snowed in: no unit moves into, out of or through them.",
    ),
    (
        "supply_lines",
        "Supply lines",
        "Units must trace supply to an own centre or depot within 4 steps (5 for the powers given the "
        "Prussian side), or cannot support and are removed at the supply phase after each season; a "
        "depot costs the unit that founds it.",
    ),
    (
        "abstraction",
        "Abstraction A/F rules",
        "Armies board their own fleets to sail as A/Fs and land beside the sea; a convoy crosses one sea "
        "with one fleet (Fast Ferry).",
    ),
    (
        "davis_af_limit",
        "Davis's A/F limit",
        "Plays the A/F rules as Davis wrote them: an army stays aboard an A/F three moves and starves if "
        "it has not landed by the end of the fourth (default: Agar's revision, no limit).",
    ),
)

_MODE_EXPLANATION = "Exact: the map changes on the rules' dates; random: in a year drawn within each window."


BOARD, TIMELINE, MODULE = 0, 1, 2  # the form's sections, in order


@dataclass(frozen=True, slots=True)
class Choice:
    name: str  # the key in the game's options, or the game_create argument when in BOARD
    label: str
    kind: str  # FLAG (true/false), MODE ("exact"/"random"), COUNT (a whole number), TEXT
    default: Any
    explanation: str  # one line, for the form and the API
    group: int = TIMELINE  # BOARD: an argument of game_create (a generated board's powers, seed)
    minimum: int | None = None
    maximum: int | None = None
    refusal: str = ""  # a BOARD choice given for a variant without it: "Only <variants> <refusal>"

    @property
    def board(self) -> bool:
        return self.group == BOARD

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "default": self.default, "description": self.explanation}


def variant_choices(slug: str, variant: Variant | None = None) -> tuple[Choice, ...]:
    """Every choice that matters for variant ``slug``, in the order the form shows them; ``variant`` is
    the one to read when it is not an installed one (a studio version's)."""
    timeline = load_timeline(variant or sample_variant(slug))
    choices: list[Choice] = []
    source = source_of(slug)
    if source.generated:
        choices += _board_choices(source)
    if any(event.chance for event in timeline.events):
        choices.append(Choice("mode", "Map changes", MODE, "exact", _MODE_EXPLANATION))
    for name, spec in timeline.options.items():
        label = name.replace("_", " ").capitalize()
        choices.append(Choice(name, label, FLAG, spec.default, spec.description))
    defaults = source.default_options
    for name, label, explanation in _MODULES:
        if name == "abstraction" and timeline.settings.convoys == "abstraction":
            continue  # the variant plays them already; its own switch (Deluge's standard_convoys) undoes it
        choices.append(Choice(name, label, FLAG, bool(defaults.get(name)), explanation, MODULE))
    return tuple(choices)


def _board_choices(source: VariantSource) -> list[Choice]:
    low, high = generated_powers(source)
    powers = Choice(
        "powers", "Powers", COUNT, high, f"How many powers the board is dealt for, {low} to {high}.",
        BOARD, minimum=low, maximum=high, refusal="is dealt for a number of powers; leave this empty.",
    )  # fmt: skip
    seed = Choice(
        "seed", "Board seed (optional)", TEXT, None,
        "Deal the board from this text (the same seed, the same board); empty: from the game's secret.",
        BOARD, refusal="is dealt from a seed; leave this empty.",
    )  # fmt: skip
    return [powers, seed]
