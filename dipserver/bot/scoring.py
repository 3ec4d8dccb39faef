"""What a province is worth to a unit of one kind that ends the phase there.

A province's worth adds up:

* a centre to take: one not ours (neutral more than another power's, since nobody defends it), and a
  centre about to appear (under the timeline's "occupant" rule it goes to the unit standing on it);
* a centre of ours to defend, when an enemy unit could move into it;
* the pull of the centres still to take, fading with the moves it takes to reach them, counted on the map
  as it will stand after the timeline's coming changes (a fleet counts only water it will still sail);
* the danger of the place itself: removed (a sea freezing, a desert), converted, or a fleet stranded on a
  coast whose waters are going.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from dipserver.bot.timeline_view import Outlook
from dipserver.bot.view import Terrain, View

CENTRE = 10.0  # a centre taken
NEUTRAL_BONUS = 2.0  # a neutral centre is usually undefended
DEFEND = 8.0  # a centre of ours kept from an enemy unit beside it
FADE = 0.55  # a centre one move further away is worth this much less
REMOVED = -60.0  # standing where the unit will be removed by the timeline
STRANDED = -12.0  # a fleet whose coast will have no water left
CONVERTED = -2.0  # a unit changed to the other kind by the timeline
STEP = 0.6  # each move further from the nearest centre to take: far from all, a unit still heads there
FAR = 15  # moves counted at most (and for a place from which no centre can be reached)
LIFE = 8  # a centre the timeline takes away in fewer movement phases is worth that much less


@dataclass
class Worth:
    """Province values for one power in one phase, worked out once and read for every unit."""

    view: View
    outlook: Outlook
    _pull: dict[str, dict[str, float]] = field(default_factory=dict)
    _near: dict[str, dict[str, int]] = field(default_factory=dict)

    @cached_property
    def targets(self) -> dict[str, float]:
        """Centres to take (and centres about to appear), each with its value."""
        view, found = self.view, {}
        for centre in view.centres - self.outlook.vanishing:
            if view.owned(centre):
                continue
            found[centre] = CENTRE + (NEUTRAL_BONUS if centre not in view.owners else 0.0)
        for province, left in self.outlook.appearing.items():
            if province in self.outlook.vanishing:
                continue
            found[province] = CENTRE + NEUTRAL_BONUS - left / 2  # sooner is surer
        lifetime = self.outlook.lifetime
        return {c: v * min(1.0, lifetime.get(c, LIFE) / LIFE) for c, v in found.items()}

    @cached_property
    def lasting(self) -> frozenset[str]:
        """The centres that will still be centres past the horizon, those about to appear included."""
        return frozenset((self.view.centres | set(self.outlook.appearing)) - self.outlook.vanishing)

    @cached_property
    def garrison(self) -> float:
        """What a unit standing on a lasting centre of ours adds by staying, while the timeline takes
        centres away: little while many are left, most of a centre's worth once few are (the last ones
        decide such games). Nothing on a board that keeps its centres."""
        if not self.outlook.vanishing:
            return 0.0
        return 2 * CENTRE / max(2, len(self.lasting))

    @cached_property
    def threatened(self) -> dict[str, float]:
        """Our centres an enemy unit could move into this phase, with the value of keeping them."""
        view = self.view
        return {
            c: DEFEND + 2.0 * (min(3, view.enemy_reach.get(c, 0)) - 1)
            for c in view.centres - self.outlook.vanishing
            if view.owned(c) and view.enemy_reach.get(c, 0) > 0
        }

    def pull(self, kind: str) -> dict[str, float]:
        """Province -> the best target's value faded by the moves a unit of ``kind`` needs from there."""
        if kind not in self._pull:
            self._pull[kind] = _pull(self.outlook.future, self.targets, kind)
        return self._pull[kind]

    def near(self, kind: str) -> dict[str, int]:
        """Province -> the moves a unit of ``kind`` needs from there to the nearest centre to take."""
        if kind not in self._near:
            future = self.outlook.future
            sources = [t for t in self.targets if future.can_stand(t, kind)]
            self._near[kind] = future.distances_from(sources, kind)
        return self._near[kind]

    def at(self, province: str, kind: str, *, staying: bool = False) -> float:
        """What ending this phase on ``province`` is worth to a unit of ``kind`` (``staying``: it holds)."""
        view = self.view
        value = self.pull(kind).get(province, 0.0) * FADE
        value -= STEP * min(self.near(kind).get(province, FAR), FAR)
        if province in self.targets:
            capture = self.targets[province]
            if view.season == "S" and province not in self.outlook.appearing:
                capture *= 0.7  # taken only if it is still there after the Autumn
            value = max(value, capture)
        if province in self.threatened:
            value += self.threatened[province] * (1.0 if view.season == "F" else 0.5)
        if staying and (province in self.targets or province in self.threatened):
            value += 0.3  # a unit that holds on a centre is harder to dislodge than one that moves in
        if staying and view.owned(province) and province in self.lasting:
            value += self.garrison
        return value + self.danger(province, kind)

    def danger(self, province: str, kind: str) -> float:
        fate = self.outlook.fate(province, kind, within=1)
        if fate == "removed":
            return REMOVED
        if fate == "stranded":
            return STRANDED
        if fate == "converted":
            return CONVERTED
        later = self.outlook.fate(province, kind, within=2)
        return REMOVED / 4 if later == "removed" else 0.0

    def usefulness(self, province: str, kind: str) -> float:
        """How much a unit of ``kind`` on ``province`` will be worth on the coming map (its best pull)."""
        if not self.outlook.future.can_stand(province, kind):
            return 0.0
        return self.pull(kind).get(province, 0.0)


def _pull(terrain: Terrain, targets: dict[str, float], kind: str) -> dict[str, float]:
    """For each province, the best of ``targets``' values times FADE per move from it."""
    best: dict[str, float] = {}
    for target, value in targets.items():
        if not terrain.can_stand(target, kind):
            continue
        for province, moves in terrain.distances(target, kind).items():
            worth = value * FADE**moves
            if worth > best.get(province, 0.0):
                best[province] = worth
    return best
