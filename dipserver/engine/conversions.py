"""The three variant orders that change a unit's kind (rulings E14, E15, E16).

- Wall of Ice, Winter: ``F BRE becomes army`` — a fleet on a coast becomes an army, free of counts.
- Deluge, movement: ``A POR becomes fleet`` — an army in a coastal supply centre becomes a fleet, unless a
  unit of another power attacks it.
- Sahara, movement: ``F NAO stays fleet`` — if this season's drying strands the fleet, it is disbanded
  instead of becoming an army.

They are order kinds like any other (``kinds/conversion.py``: reading, checking, notation, and their
effects, ``Kind.apply``); this module names what the rest of the engine asks of them, and whether a Winter
is worth playing for a fleet that could become an army.
"""

from __future__ import annotations

from collections.abc import Mapping

from dipserver.engine.board import Board
from dipserver.engine.kinds.conversion import check_conversion as check_conversion
from dipserver.engine.kinds.conversion import conversion_text as conversion_text
from dipserver.engine.kinds.conversion import parse_conversion as parse_conversion
from dipserver.engine.timelinecache import load_timeline
from dipserver.engine.types import Unit, UnitType


def winter_converters(board: Board, units: Mapping[str, Unit]) -> frozenset[str]:
    """Wall of Ice (rule 4, E14): the powers with a fleet on a coast that could become an army this Winter,
    when the variant has the order. A Winter in which some power could convert is played, not skipped."""
    if "convert_to_army" not in load_timeline(board.variant).orders:
        return frozenset()
    return frozenset(u.power for p, u in units.items() if u.type is UnitType.FLEET and board.is_land(p))
