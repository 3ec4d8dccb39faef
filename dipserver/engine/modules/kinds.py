"""The kinds of the rule modules' own orders (``orders.py``): depots and Snow Storm tokens.

Both are order kinds (``kinds/registry.py``), registered when this module is loaded, which the registry
does when it first needs them (``kinds/standard.py`` names this module): the reader
(``parse.parse_order``) asks them when a line is not a Diplomacy order nor refused by
``kinds/module_notation.py``, and in a game with modules ``phase.parse_module_order`` reads the order and
checks it with ``phase.Checker`` — the same answers as ``play`` — so the reader and the options never
accept what the phase would refuse. The kinds are light; the checks are the modules' play
(``rules.phase``), loaded when a game first has modules (the package's ``__init__.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dipserver.engine.modules as rules  # their play, loaded when a game first has modules
from dipserver.engine.kinds.recording import Described, held_at
from dipserver.engine.kinds.registry import Kind, register
from dipserver.engine.modules.orders import EstablishDepot, ModuleOrder, SnowStorm

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.kinds.reading import Reading
    from dipserver.engine.position import Position


class _ModuleKind(Kind):
    """Depots and Snow Storm tokens are lines in the order list only: the map draws them as nothing (the
    modules' own layers show depots and blizzards)."""

    beside = True  # given beside the unit's own order

    def text(self, order: ModuleOrder, position: Position) -> str:
        return str(order)  # "establish depot PAR", "place blizzard MUN": the reader reads them back

    def batch_problem(self, reading: Reading, order: ModuleOrder, earlier: list[object]) -> str | None:
        """Why one more depot or Snow Storm is too many, with the earlier lines' ones already accepted."""
        in_play: Any = reading.modules  # the game's ``phase.InPlay``: module orders read only with modules
        checker = rules.phase.Checker(reading.board, reading.position, in_play.modules, in_play.state)
        why = checker.batch_problem(reading.power, order, tuple(earlier))  # type: ignore[arg-type]
        return None if why is None else why[0].upper() + why[1:]


class EstablishDepotKind(_ModuleKind):
    name = "establish_depot"
    order_class = EstablishDepot
    rank = 11  # the one reader of both notations with the game's modules, tried before the conversions'

    def read_text(self, reading: Reading, text: str) -> ModuleOrder | None:
        if reading.modules is None:
            return None  # kinds/module_notation.py refuses them, modules or none loaded
        in_play: Any = reading.modules  # the game's ``phase.InPlay``
        return rules.phase.parse_module_order(text, reading.board, reading.position, reading.power, in_play)

    def record(self, order: EstablishDepot, position: Position, board: Board | None) -> Described:
        return self.name, held_at(position, order.province), order.province, None, None


class SnowStormKind(_ModuleKind):
    name = "snow_storm"
    order_class = SnowStorm
    records = ("place_blizzard", "remove_blizzard")

    def record(self, order: SnowStorm, position: Position, board: Board | None) -> Described:
        """A token names its province and no unit: nobody's unit is ordered."""
        return self.records[0 if order.place else 1], None, None, order.province, None


ESTABLISH_DEPOT = register(EstablishDepotKind())
SNOW_STORM = register(SnowStormKind())
