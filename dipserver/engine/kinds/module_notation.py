"""How the rule modules' orders are written, read apart from the modules themselves.

- Supply lines: ``establish depot PAR``, ``depot PAR``, ``A PAR establish depot``, ``A PAR depot``
  (also ``found``/``build``; ``at``/``in`` allowed before the place).
- Snow Storm tokens: ``place blizzard MUN``, ``remove blizzard MUN`` (also ``place a blizzard on Munich``,
  ``remove the blizzard from Munich``).

The orders' kinds are the modules' (``modules/kinds.py``; they check an order with the game's modules).
This module is light, so that the reader can load it in every process and still say why a game without
the modules has no depots or Snow Storms, word for word as the modules' kinds would.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dipserver.engine.kinds.registry import register_reader
from dipserver.engine.orders import OrderError

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.reading import Reading

# Patterns, compiled by ``re`` at their first use: every reader loads this module, few meet such an order.
_PLACE = r"(?P<place>[A-Z0-9][A-Z0-9 .'/-]*?)"
_VERB = r"(?:ESTABLISH(?:ES)?|FOUNDS?|BUILDS?)"
_DEPOT_FORMS = (
    rf"^(?:{_VERB}\s+)?(?:A\s+)?DEPOT\s+(?:AT\s+|IN\s+)?{_PLACE}$",
    rf"^(?:(?P<kind>A|F|ARMY|FLEET)\s+)?{_PLACE}\s+(?:{_VERB}\s+)?(?:A\s+)?DEPOT$",
)
_STORM_FORM = (
    rf"^(?P<verb>PLACE|PUT|ADD|REMOVE|CLEAR|LIFT)\s+(?:A\s+|THE\s+)?BLIZZARDS?\s+(?:ON\s+|IN\s+|AT\s+|FROM\s+)?"
    rf"{_PLACE}$"
)
_WORDS = r"\b(DEPOTS?|BLIZZARDS?)\b"

DEPOT, STORM = "depot", "storm"


def read_notation(text: str, board: Board) -> tuple[str, str, bool] | None:
    """``(DEPOT, province, True)`` or ``(STORM, province, placed)`` if ``text`` is a module order (unchecked);
    ``None`` if it is not one at all; ``OrderError`` if it is one written wrong."""
    upper = " ".join(text.upper().replace("(", " ").replace(")", " ").replace(",", " ").split())
    if not re.search(_WORDS, upper):
        return None
    storm = re.match(_STORM_FORM, upper)
    if storm is not None:
        return STORM, _province(board, storm.group("place")), storm.group("verb") in ("PLACE", "PUT", "ADD")
    for form in _DEPOT_FORMS:
        m = re.match(form, upper)
        if m is not None:
            return DEPOT, _province(board, m.group("place")), True
    if "DEPOT" in upper:
        raise OrderError(
            f"A depot order reads 'establish depot PAR' or 'A PAR establish depot', not '{text}'"
        )
    raise OrderError(f"A Snow Storm reads 'place blizzard MUN' or 'remove blizzard MUN', not '{text}'")


def _province(board: Board, text: str) -> str:
    province = board.variant.lookup(text.split("/")[0])
    if province is None:
        raise OrderError(f"'{text.title()}' is not a province of {board.variant.name}")
    return province


def without_modules(found: tuple[str, str, bool]) -> str:
    """Why a game without the rule modules has no such order."""
    return (
        "this game plays without supply lines: there are no depots"
        if found[0] == DEPOT
        else "this game has no blizzards"
    )


class _WithoutModules:
    """The reader of module orders in a game without rule modules: it refuses them with the reason. (With
    modules, ``modules/kinds.py``'s kinds read them.)"""

    rank: int | None = 10

    def read_text(self, reading: Reading, text: str) -> None:
        if reading.modules is not None:
            return None
        found = read_notation(text, reading.board)
        if found is not None:
            raise OrderError(without_modules(found))
        return None


register_reader(_WithoutModules())
