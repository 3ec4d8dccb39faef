"""The one grammar of orders: a text read into what the player asked for (an ``Intent``: a verb and its
places), then turned into the order by the kind that reads that verb in the phase (``kinds/registry.py``),
which checks it against the board and the position; ``OrderError`` with the reason a player understands.
A line the grammar cannot read goes to the kinds with a notation of their own (a rule module's
``establish depot PAR``, a variant's ``F BRE becomes army``).
"""

from __future__ import annotations

import re
from typing import Any

from dipserver.engine.definition import Variant, normalise_name

# The kinds register themselves when loaded: the Diplomacy ones here, the variants' conversions and the rule
# modules' orders when the registry first needs them (``kinds/standard.py``; ``module_notation`` refuses the
# modules' orders in a game without modules). The grammar finds them through the registry alone.
from dipserver.engine.kinds import module_notation as _module_notation  # noqa: F401  (registers its reader)
from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers its kinds)
from dipserver.engine.kinds.abstraction import AS_FLEET
from dipserver.engine.kinds.reading import Intent, Loc, Reading
from dipserver.engine.kinds.registry import reader_for, text_readers
from dipserver.engine.lexicon import Item, lex
from dipserver.engine.orders import OrderError
from dipserver.engine.readings import MAX_ORDER_TEXT, too_long
from dipserver.engine.types import PhaseType, UnitType

# --- items -> what the player asked for ----------------------------------------------------------------


class _Reader:
    def __init__(self, items: list[Item], text: str) -> None:
        self.items, self.i, self.text = items, 0, text

    def peek(self) -> Item | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take_kw(self, *kinds: str) -> str | None:
        item = self.peek()
        if item is not None and item[0] == "kw" and item[1] in kinds:
            self.i += 1
            return str(item[1])
        return None

    def unit(self, role: str) -> tuple[UnitType | None, Loc]:
        unit_type = None
        item = self.peek()
        if item is not None and item[0] == "type":
            unit_type = item[1]
            self.i += 1
            item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected the place of {role} in '{self.text}'")
        self.i += 1
        return unit_type, item[1]  # type: ignore[return-value]

    def place(self, role: str) -> Loc:
        item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected {role} in '{self.text}'")
        self.i += 1
        return item[1]  # type: ignore[return-value]

    def done(self) -> None:
        if self.i < len(self.items):
            raise OrderError(f"Did not understand the end of '{self.text}'")


def _read(items: list[Item], text: str) -> Intent:
    r = _Reader(items, text)
    if not items:
        raise OrderError("Empty order")
    lead = r.take_kw("build", "disband", "waive", "retreat", "move", "support", "convoy", "hold")
    if lead == "waive":
        r.done()
        return Intent("waive")
    if lead in ("build", "disband"):
        unit_type, loc = r.unit("the unit")
        r.done()
        return Intent(lead, unit_type, loc)
    if lead is not None:
        raise OrderError(f"Start with the unit, as in 'A PAR - BUR', not with '{lead}'")
    unit_type, unit = r.unit("the ordered unit")
    intent = Intent("hold", unit_type, unit)
    verb = r.take_kw("hold", "move", "support", "convoy", "retreat", "disband", "build", "waive")
    if verb in (None, "hold", "disband", "build"):
        intent.verb = verb or "hold"
    elif verb in ("move", "retreat"):
        intent.verb = verb
        r.take_kw("move")  # "R - SER", "retreats to SER"
        intent.dest = r.place("where the unit goes")
        intent.via = r.take_kw("via") is not None
    elif verb in ("support", "convoy"):
        intent.verb = verb
        intent.target_type, intent.target = r.unit(f"the unit to {verb}")
        if r.take_kw("move"):
            intent.dest = r.place("where the supported unit goes")
        elif verb == "convoy":
            raise OrderError("A convoy names the army and where it goes, as in 'F NTH C A LON - NWY'")
        else:
            r.take_kw("hold")
    else:
        raise OrderError(f"'{verb}' does not fit here in '{text}'")
    r.done()
    return intent


def read_text(reading: Reading, text: str) -> Any:
    """The one grammar: the text read into an ``Intent``, then turned into the order by the kind of its
    verb in this phase, which checks it; ``OrderError`` with the reason."""
    if len(text) > MAX_ORDER_TEXT and (why := too_long(text)) is not None:
        raise OrderError(why)
    board, power = reading.board, reading.power
    if power not in board.variant.powers:
        raise OrderError(f"{power} is not a power in this game")
    text = _without_power_prefix(board.variant, text, power)
    if "/" in text and AS_FLEET.search(text):
        text = AS_FLEET.sub("F ", text)  # an A/F is ordered, and supported, as its fleet (Abstraction, 5.6)
    try:
        intent = _read(lex(board.variant, text), text.strip())
    except OrderError:
        # Perhaps an order of a kind with its own notation: a rule module's ("establish depot PAR") or a
        # variant's conversion ("F BRE becomes army"). Each reads it, or says plainly why this game, phase
        # or place does not allow it; none knowing it, the grammar's reason stands.
        for kind in text_readers():
            order = kind.read_text(reading, text)
            if order is not None:
                return order
        raise
    reader = reader_for(reading.phase, intent.verb)
    if reader is None:
        raise OrderError(_PHASE_REFUSALS[reading.phase].format(verb=intent.verb))
    return reader.read(reading, intent)


# The reason for a verb no kind reads in a phase.
_PHASE_REFUSALS = {
    PhaseType.MOVEMENT: "This is a movement phase: {verb} orders come later",
    PhaseType.RETREATS: "This is a retreat phase: a dislodged unit retreats or disbands",
    PhaseType.ADJUSTMENTS: "This is an adjustment phase: build, disband or waive",
}


_PREFIX_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*")


def _without_power_prefix(variant: Variant, text: str, power: str) -> str:
    """``"England: A LON H"`` -> ``"A LON H"`` when England is the one ordering."""
    m = _PREFIX_RE.match(text)
    if m is None:
        return text
    named = next(
        (
            p
            for p, info in variant.powers.items()
            if normalise_name(m.group(1)) in (p.lower(), info.name.lower())
        ),
        None,
    )
    if named is None:
        raise OrderError(f"'{m.group(1)}' is not a power in this game")
    if named != power:
        raise OrderError(
            f"These are orders for {variant.powers[named].name}, not {variant.powers[power].name}"
        )
    return text[m.end() :]
