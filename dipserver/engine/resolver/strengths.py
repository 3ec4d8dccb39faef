"""The path decision and the four strengths of DATC v3.0 §5.B: attack, hold, defend, prevent.

Each is three-valued: a value, or ``None`` when a decision it reads is undecided (only the easy pass ever
sees that; see ``resolution.py``). Each reads its decisions in a fixed order and stops at the first open
one, so a pass meets the same decisions in the same order whatever it does with them. A strength counts
all its supports before it is compared: the guessing pass must meet every decision it depends on.
"""

from __future__ import annotations

from dipserver.engine.resolver.resolution import Resolution
from dipserver.engine.resolver.table import MOVE


def path(r: Resolution, i: int) -> bool | None:
    """The path decision of a move by sea: an unbroken chain of carrying fleets, start to finish."""
    route = r.route[i]
    if route is None:
        return True
    done, look = r.done, r.look
    finish, links = route.finish, route.links
    seen: set[int] = set()
    stack = list(route.start)
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        v = done[f]
        if v is None:
            v = look(r, f)
            if v is None:
                return None
        if v:
            if f in finish:
                return True
            stack.extend(links[f])
    return False


def supported(r: Resolution, supporters: list[int], power: str | None) -> int | None:
    """1 and how many of ``supporters`` are given, leaving out those of ``power`` (a dislodged unit's).

    Callers with no supporters skip the call: their strength is 1.
    """
    done, look, powers = r.done, r.look, r.power
    count = 1
    for x in supporters:
        if power is not None and powers[x] == power:
            continue
        v = done[x]
        if v is None:
            v = look(r, x)
            if v is None:
                return None
        if v:
            count += 1
    return count


def attack_strength(r: Resolution, i: int, j: int) -> int | None:
    """Of the move ``i`` on the unit ``j`` in its target (-1: none there): 0 without a path or against a
    staying unit of one's own power; else 1 and the supports given — against a staying unit, only those
    not of its power."""
    if r.route[i] is not None:
        way = path(r, i)
        if not way:
            return None if way is None else 0
    supporters = r.supports[i]
    if j < 0:
        return supported(r, supporters, None) if supporters else 1
    leaves: bool | None = False
    if r.kind[j] == MOVE and r.opponent[i] != j:
        # The unit there leaves (its move succeeds) unless it is in a head-to-head battle with this one.
        leaves = r.done[j]
        if leaves is None:
            leaves = r.look(r, j)
            if leaves is None:
                return None
    if leaves:
        return supported(r, supporters, None) if supporters else 1
    defender = r.power[j]
    if defender == r.power[i]:
        return 0  # never dislodge one's own unit
    return supported(r, supporters, defender) if supporters else 1


def hold_strength(r: Resolution, j: int) -> int | None:
    """Of the unit ``j`` in the attacked province: a mover 0 if it leaves, else 1; a stayer 1 and its
    supports given."""
    if r.kind[j] == MOVE:
        leaves = r.done[j]
        if leaves is None:
            leaves = r.look(r, j)
            if leaves is None:
                return None
        return 0 if leaves else 1
    supporters = r.supports[j]
    return supported(r, supporters, None) if supporters else 1


def defend_strength(r: Resolution, i: int) -> int | None:
    """Of a move in a head-to-head battle: 1 and its supports given."""
    supporters = r.supports[i]
    return supported(r, supporters, None) if supporters else 1


def prevent_strength(r: Resolution, k: int) -> int | None:
    """Of a rival move to the same province: 0 without a path or when it lost its head-to-head battle (it
    then has no effect on the winner's origin); else 1 and its supports given."""
    if r.route[k] is not None:
        way = path(r, k)
        if not way:
            return None if way is None else 0
    o = r.opponent[k]
    if o >= 0:
        beaten = r.done[o]
        if beaten is None:
            beaten = r.look(r, o)
            if beaten is None:
                return None
        if beaten:
            return 0
    supporters = r.supports[k]
    return supported(r, supporters, None) if supporters else 1
