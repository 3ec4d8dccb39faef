"""The order values of the phases after a season's moves: a retreat phase's retreats and disbands, and
Winter's builds, disbands and waives (``Order`` in ``orders.py`` names them too).

They are a module of their own so that a process that plays and reads movement phases only never defines
them (a one-request command line run's start-up is mostly defining values): only what plays, reads or
offers a retreat or adjustment phase imports them, and their kinds (``kinds/retreat.py``,
``kinds/disband.py``, ``kinds/build.py``, ``kinds/waive.py``) load when the registry first needs them
(``kinds/standard.py``). A movement phase's unit with nowhere to retreat is disbanded (``adjudicate.py``):
the one movement phase that meets a ``Disband``.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipserver.engine.types import UnitType

# Each dataclass has a docstring: without one, ``dataclass`` writes one from the class's signature as the
# module loads.


@dataclass(frozen=True, slots=True)
class Retreat:
    """A dislodged unit retreats to ``dest``."""

    unit: str
    dest: str


@dataclass(frozen=True, slots=True)
class Disband:
    """The unit leaves the board."""

    unit: str


@dataclass(frozen=True, slots=True)
class Build:
    """A new unit of ``power`` at ``location``."""

    power: str
    unit_type: UnitType
    location: str


@dataclass(frozen=True, slots=True)
class Waive:
    """``power`` gives up one build."""

    power: str


RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Disband | Waive
