"""A convoyed army's possible routes, as the resolver reads them (``OrderTable.route``).

A module of its own, loaded by what makes one (``convoys.convoy_route``, the first time a phase has a move
by convoy), so that a phase without one never defines it (a one-request command line run's start-up is
mostly defining values).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConvoyRoute:
    """The fleets that could carry one army, as a graph over unit numbers.

    ``start`` are the convoying fleets next to the army's province, ``finish`` those next to its
    destination, ``links`` the fleet-to-fleet steps. Only fleets on some complete route are included.
    """

    start: tuple[int, ...]
    finish: frozenset[int]
    links: Mapping[int, tuple[int, ...]]
