"""The order values of the Abstraction A/F rules (variant-rulings 5.6): an army boarding its power's fleet
and an A/F landing its army (``Order`` in ``orders.py`` names them too).

They are a module of their own so that a process that plays and reads games without those rules never
defines them (a one-request command line run's start-up is mostly defining values): only what offers or
makes them imports them (the A/F rules' options, ``modules/abstraction.py``; their kinds,
``kinds/boarding.py``, which the registry loads when it first needs them, ``kinds/standard.py``). The
movement phase reaches them through their kinds (``ferry.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

# Each dataclass has a docstring: without one, ``dataclass`` writes one from the class's signature as the
# module loads.


@dataclass(frozen=True, slots=True)
class Embark:
    """Movement, Abstraction (5.6): ``A YOR boards F NTH``: the army goes aboard its own power's fleet at
    sea beside it before the moves are made, forming an A/F that takes the fleet's order."""

    unit: str  # the army
    fleet: str  # the fleet's province


@dataclass(frozen=True, slots=True)
class Disembark:
    """Movement, Abstraction (5.6): ``A/F NTH lands YOR``: the army aboard moves to a land province beside
    the sea, during the moves; the fleet holds."""

    unit: str  # the A/F's sea
    dest: str  # the land province


FerryOrder = Embark | Disembark
