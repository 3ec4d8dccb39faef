"""The timeline's coming changes as the bot plans with them: for each change, how many movement phases
are left before it happens (counting the open one), and the map as it will stand after the near ones.

A hook runs between phases (ruling E1). Within a year the phases and hooks come in this order: Spring
moves, Spring retreats, after_spring_retreats, Autumn moves, Autumn retreats, after_fall_retreats,
before_winter_adjustments, Winter adjustments, after_winter_adjustments.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from dipserver.bot.view import LAND, SEA, Terrain, View

_PHASE_POINT = {"SM": 0, "SR": 1, "FM": 3, "FR": 4, "WA": 7}
_HOOK_POINT = {
    "after_spring_retreats": 2,
    "after_fall_retreats": 5,
    "before_winter_adjustments": 6,
    "after_winter_adjustments": 8,
}
_MOVES = (0, 3)  # the points of the movement phases in a year

# How far ahead the bot looks, in movement phases: the map's changes within HORIZON shape where its units
# may stand; centres that appear or vanish within CENTRE_HORIZON shape where they head.
HORIZON = 3
CENTRE_HORIZON = 6


@dataclass(frozen=True)
class Coming:
    change: str  # land, sea, impassable, sc_gain, sc_loss, sc_loss_all
    province: str | None
    keep: tuple[str, ...]
    moves_left: int  # movement phases still to play before it happens, the open one included


def moves_before(phase: str, year: int, hook: str) -> int:
    """Movement phases from ``phase`` (included) up to the hook of ``year``."""
    now = (int(phase[1:-1]), _PHASE_POINT[phase[0] + phase[-1]])
    then = (year, _HOOK_POINT.get(hook, 8))
    count = 0
    for y in range(now[0], then[0] + 1):
        count += sum(1 for point in _MOVES if now <= (y, point) < then)
    return count


def coming_changes(view: View) -> tuple[Coming, ...]:
    """The changes not yet happened, soonest first."""
    found = []
    for entry in view.timeline:
        left = moves_before(view.phase, int(entry["year"]), str(entry["hook"]))
        hook_point = (int(entry["year"]), _HOOK_POINT.get(str(entry["hook"]), 8))
        now = (view.year, _PHASE_POINT[view.season + view.phase_type])
        if hook_point <= now:
            continue  # listed without "happened" by an older server: already behind us
        found.append(
            Coming(str(entry["change"]), entry.get("province"), tuple(entry.get("keep") or ()), left)
        )
    return tuple(sorted(found, key=lambda c: c.moves_left))


@dataclass(frozen=True)
class Outlook:
    """What the near future holds for each province."""

    view: View
    changes: tuple[Coming, ...]

    def soon(self, horizon: int = HORIZON) -> list[Coming]:
        return [c for c in self.changes if c.moves_left <= horizon]

    @cached_property
    def terrain_change(self) -> dict[str, tuple[str, int]]:
        """Province -> (what it becomes, movement phases left), the first change within the horizon."""
        found: dict[str, tuple[str, int]] = {}
        for change in self.soon():
            if change.change in (LAND, SEA, "impassable") and change.province:
                found.setdefault(change.province, (change.change, change.moves_left))
        return found

    @cached_property
    def appearing(self) -> dict[str, int]:
        """Centres that appear within the horizon, with the movement phases left before they do."""
        return {
            c.province: c.moves_left
            for c in self.soon(CENTRE_HORIZON)
            if c.change == "sc_gain" and c.province and c.province not in self.view.centres
        }

    @cached_property
    def vanishing(self) -> set[str]:
        """Centres that stop being centres within the horizon."""
        gone = {c.province for c in self.soon(CENTRE_HORIZON) if c.change == "sc_loss" and c.province}
        for change in self.soon(CENTRE_HORIZON):
            if change.change == "sc_loss_all":
                gone |= set(self.view.centres) - set(change.keep)
        gone |= {p for p, (what, _) in self.terrain_change.items() if what != LAND}
        return {p for p in gone if p is not None}

    @cached_property
    def lifetime(self) -> dict[str, int]:
        """Centre -> movement phases left before the timeline takes it away (lost, sunk, frozen over),
        however far ahead; a centre missing here is never taken away."""
        found: dict[str, int] = {}
        for change in self.changes:
            if change.change == "sc_loss_all":
                gone = set(self.view.centres) | {c.province for c in self.changes if c.province}
                gone -= set(change.keep)
            elif change.change in ("sc_loss", SEA, "impassable") and change.province:
                gone = {change.province}
            else:
                continue
            for province in gone:
                found.setdefault(str(province), change.moves_left)
        return found

    @cached_property
    def future(self) -> Terrain:
        """The map once the changes within the horizon are made."""
        terrain = dict(self.view.terrain.terrain)
        for province, (what, _) in self.terrain_change.items():
            terrain[province] = what
        return Terrain(terrain, self.view.terrain.borders)

    def fate(self, province: str, kind: str, within: int) -> str:
        """What happens to a unit of ``kind`` standing on ``province`` when the next change there comes
        within ``within`` movement phases: "removed", "converted", "stranded" or "" (nothing)."""
        what, left = self.terrain_change.get(province, ("", HORIZON + 1))
        if left <= within:
            if what == "impassable":
                return "removed"
            if (kind == "F" and what == LAND and not self.future.coastal(province)) or (
                kind == "A" and what == SEA
            ):
                return "converted"
        stands = self.view.terrain.can_stand(province, "F")
        if kind == "F" and stands and not self.future.can_stand(province, "F"):
            return "stranded"
        return ""


def outlook_of(view: View) -> Outlook:
    return Outlook(view, coming_changes(view))
