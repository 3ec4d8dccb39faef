"""The decisions of DATC v3.0 §5.B — move, support, dislodged — and the easy pass that settles them.

Each decision is three-valued like the strengths it compares (``strengths.py``): True, False, or ``None``
while a decision it reads is undecided. ``settle`` is the easy pass: every open decision is decided by
these same functions, reading others through ``settle_one``, which decides them in turn and never guesses:
a decision met again inside its own deciding answers ``None``, and so does every decision that hung on it.
Those are left to the guessing pass (``cycles.py``), which runs the same functions again.
"""

from __future__ import annotations

from dipserver.engine.resolver.resolution import Resolution
from dipserver.engine.resolver.strengths import (
    attack_strength,
    defend_strength,
    hold_strength,
    path,
    prevent_strength,
)
from dipserver.engine.resolver.table import CONVOY, MOVE, SUPPORT


def move(r: Resolution, i: int) -> bool | None:
    """The move decision: its attack beats the target's hold strength (or a head-to-head opponent's
    defend strength) and the prevent strength of every rival move to the same province."""
    target = r.dest[i]
    j = r.occupant.get(target, -1)  # type: ignore[arg-type]
    rivals = r.movers_to[target]  # type: ignore[index]
    if j < 0 and len(rivals) == 1 and r.route[i] is None and not r.supports[i]:
        return True  # alone into an empty province, by land: strength 1 against nothing, reading nothing
    attack = attack_strength(r, i, j)
    if not attack:
        return None if attack is None else False
    if j >= 0:  # a head-to-head opponent (always the unit there) defends, else the unit there holds
        opp = r.opponent[i]
        resist = defend_strength(r, opp) if opp >= 0 else hold_strength(r, j)
        if resist is None:
            return None
        if attack <= resist:
            return False
    if len(rivals) > 1:
        for k in rivals:
            if k != i:
                prevent = prevent_strength(r, k)
                if prevent is None:
                    return None
                if attack <= prevent:
                    return False
    return True


def support(r: Resolution, i: int) -> bool | None:
    """The support decision: given unless cut — by an attack of another power with a path, except one
    from where the support goes, which cuts it only by dislodging the supporter (DATC 4.A.4)."""
    attackers = r.movers_to.get(r.province[i])
    if attackers is None:
        return True
    power, province, route = r.power, r.province, r.route
    me, goes = power[i], r.dest[i]
    for m in attackers:
        if power[m] == me:
            continue
        if province[m] == goes:
            v = r.done[m]
            if v is None:
                v = r.look(r, m)
                if v is None:
                    return None
            if v:
                return False
        elif route[m] is None:
            return False
        else:
            way = path(r, m)
            if way is None:
                return None
            if way:
                return False
    return True


def dislodged(r: Resolution, i: int) -> bool | None:
    """The dislodge decision of a convoying fleet: some move into its province succeeds.

    The attacks are adjudicated here, not looked up: their own decisions then stay out of the convoy's
    dependency cycle, which keeps paradox cycles single and clean (DATC 5.D, Pandin's paradox).
    """
    for m in r.movers_to.get(r.province[i], ()):
        v = move(r, m)
        if v is None or v:
            return v
    return False


def carries(r: Resolution, i: int) -> bool | None:
    """The convoy decision: the fleet carries its army while it is not dislodged."""
    v = dislodged(r, i)
    return None if v is None else not v


def decide(r: Resolution, i: int) -> bool | None:
    """The decision of unit ``i``'s order, by its kind: a HOLD decides nothing (``done`` starts it False,
    and it is never asked). Called directly, not through a table of functions: compiled, a direct call
    is a C call, a looked-up function a Python one."""
    k = r.kind[i]
    if k == MOVE:
        return move(r, i)
    if k == SUPPORT:
        return support(r, i)
    if k == CONVOY:
        return carries(r, i)
    return False


def settle_one(r: Resolution, i: int) -> bool | None:
    """The easy pass's ``look``: decide ``i`` without guessing, ``None`` if that cannot be done."""
    busy = r.busy
    if busy[i]:
        return None  # being decided further up (a cycle), or given up on before
    busy[i] = True
    v = decide(r, i)
    if v is not None:
        r.done[i] = v
    return v


def settle(r: Resolution) -> int:
    """The easy pass: decide, in unit order, every decision that needs no guess, and return how many are
    left open (then ``r.look`` must be the guessing pass's before the rest is decided).

    Which decisions this settles does not hang on the order: one given up on lies on a cycle of
    decisions that read each other, and none of them can be settled without a guess.
    """
    done, busy = r.done, r.busy
    left = 0  # counted here: ``done.count(None)`` compares every True and False with None, dearer
    for i, v in enumerate(done):  # the list as it is now: ``settle_one`` settles others on the way
        if v is None:
            if busy[i]:
                left += 1
                continue
            busy[i] = True
            v = decide(r, i)
            if v is None:
                left += 1
            else:
                done[i] = v
    return left
