"""The reader's memo: what the one grammar (``grammar.py`` and the kinds' ``read``) answered for an order
text, kept with the board, beside the units of the position it looked at.

Tools, the options and every phase send the same texts again and again (``A MUN S A PAR - BUR``). A
text's answer depends on the board (names, the map's geometry), the power, the phase's kind and the units
the kinds looked at while reading it (``Reading.unit_in``: the ordered unit, a convoyed army), nothing
else: a reading that asked for more of the position (``Reading.position``: a retreat's dislodged units, a
winter's centres) or of the game (rule modules) is not kept. So a text met again is answered from here
when the units it looked at are the same ones, and by the grammar otherwise: the answer is the grammar's
either way, a refusal's reason included (``tests/engine/test_readings.py`` holds the memo to that).

A power's lines read are rows (``ParsedLine``), made here too: this module is compiled (``native.py``), so
the memo's check and a row cost little beside the grammar.

Each board keeps its own answers (``Board.readings``: the board is cached per variant and map), by power
and kind of phase, for the kinds and readers registered now (``registry.changes``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from dipserver.engine.kinds.registry import Kind
    from dipserver.engine.position import Position
    from dipserver.engine.types import Unit

# The units a reading looked at, as ``((province, the unit there or None), ...)``.
Looked = tuple[tuple[str, "Unit | None"], ...]
# A text's answer: (the order or None, the reason it was refused or None, the units it looked at, the
# order's kind when it is given beside a unit's own order (it checks them as a set) or None, the province
# of the unit it commands). The kind is asked once, when the text is read, not for each line met.
Answer = tuple[Any, "str | None", Looked, "Kind | None", "str | None"]

# Both limits are ``Final``: the compiled reader uses them as constants, where a module's name is looked up
# in its globals at every line.
# Texts kept per board, power and kind of phase: the texts of a map's orders are finite (the standard map
# has a few tens of thousands of canonical ones); the cap only bounds what odd input can fill.
MAX_ANSWERS: Final = 50_000
# The longest order text read, white space around it apart: the API's limit too. The longest order in
# words on our maps (a convoy with every name in full) is under 120 characters; a longer text is refused
# before it is read or kept (a megabyte of text used to cost seconds of reading).
MAX_ORDER_TEXT: Final = 200


def too_long(text: str) -> str | None:
    """Why ``text`` is refused for its length alone, or None."""
    if len(text) <= MAX_ORDER_TEXT:
        return None
    n = len(text.strip())
    if n <= MAX_ORDER_TEXT:
        return None
    return f"An order is at most {MAX_ORDER_TEXT} characters long; this text has {n:,}"


def still_true(looked: Looked, units: dict[str, Unit]) -> bool:
    """Whether each unit an answer looked at stands where it stood (or there is still none): the same
    unit, or one equal to it field by field (a new request's units are new objects; the fields compared
    here, not by the dataclass's ``==``, a Python call per unit)."""
    for province, unit in looked:
        now = units.get(province)
        if now is unit:
            continue
        if (
            now is None
            or unit is None
            or now.location != unit.location
            or now.power != unit.power
            or now.type is not unit.type
            or now.aboard != unit.aboard
        ):
            return False
    return True


class ParsedLine(NamedTuple):
    """One submitted line, read and checked (``parse.parse_orders``' row; ``turn.ReadLine`` is the same).

    A named tuple, not a frozen dataclass: a phase makes one per line, and a frozen dataclass's
    ``__init__`` costs about 2.6 times a named tuple's (``docs/benchmarks.md``, "One reader")."""

    number: int  # 1-based line number in the submitted text
    text: str  # as typed, stripped
    order: Any | None  # the order it gives; None when it was refused
    error: str | None  # why it was refused
    refused: Any | None = None  # what a refused line read as, when it read but was not allowed
    position: Position | None = None  # the one it was read in

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def stored(self) -> str:
        """The order's normalised notation, to store ("" when refused), written when asked for."""
        if self.order is None or self.position is None:
            return ""
        from dipserver.engine.kinds.registry import kind_of  # the kinds load with the reader, not here

        return str(kind_of(self.order).text(self.order, self.position))
