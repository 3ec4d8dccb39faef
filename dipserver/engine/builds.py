"""Deluge's build rule (E13): where a power may build once the timeline's ``[builds] non_home_per_winter``
lets some builds go outside its home centres.

The limit is the timeline's (``Timeline.non_home_builds``); without it every vacant centre a power owns is
allowed, as in the standard rules. The Build kind (``kinds/build.py``, its ``check_together``) asks
``build_problem`` about the builds ordered, the options offered (``options.py``) ask ``builds_elsewhere``
how many may go elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping

from dipserver.engine.position import Position
from dipserver.engine.timelinedata import Timeline


def free_centres(
    homes: Mapping[str, str], position: Position, power: str
) -> tuple[frozenset[str], frozenset[str]]:
    """The vacant centres ``power`` owns: its home centres (``homes``: the board's), and the others. What
    ``build_problem`` is given, both by the order reader and by the options offered."""
    vacant = {p for p, owner in position.owners.items() if owner == power and p not in position.units}
    home = frozenset(p for p in vacant if homes.get(p) == power)
    return home, frozenset(vacant - home)


def builds_elsewhere(timeline: Timeline, home_free: frozenset[str], due: int) -> int | None:
    """How many of ``due`` builds ``build_problem`` lets go outside the free home centres: only what is left
    once each of them has a build, and at most ``non_home_per_winter``; ``None`` without the setting."""
    limit = timeline.non_home_builds
    if limit is None:
        return None
    return max(0, min(limit, due - len(home_free)))


def build_problem(
    timeline: Timeline, home_free: frozenset[str], other_free: frozenset[str], sites: list[str]
) -> str | None:
    """Why a power's Winter builds at ``sites`` break ``[builds] non_home_per_winter``, or ``None``.

    ``home_free`` / ``other_free``: the vacant centres it owns, home and not. Home centres come first: a
    build elsewhere is allowed only once every free home centre gets a build this Winter, and at most
    ``non_home_per_winter`` of them. Without the setting every owned vacant centre is allowed.
    """
    limit = timeline.non_home_builds
    if limit is None:
        return None
    elsewhere = [s for s in sites if s not in home_free]
    unknown = [s for s in elsewhere if s not in other_free]
    if unknown:
        return f"{', '.join(unknown)}: not a vacant supply centre you own"
    if not elsewhere:
        return None
    unused = sorted(home_free - set(sites))
    if unused:
        return f"build in your home centres first ({', '.join(unused)} still free)"
    if len(elsewhere) > limit:
        return f"at most {limit} builds outside your home centres each Winter (ordered {len(elsewhere)})"
    return None
