"""The guessing pass (DATC v3.0 §5.F) and the backup rule, for the decisions the easy pass left open.

``guess`` is this pass's ``look``: a decision met again deeper in its own deciding is guessed (first False,
then True). If both guesses give one answer it is kept; if not, the cycle is a paradox or circular
movement and the backup rule decides it — the moves of a ring succeed, a cycle through a convoy fails its
convoys (Szykman rule). Decisions are read in the same order as in the easy pass, so the guesses met are
those the rules alone would meet.
"""

from __future__ import annotations

from dipserver.engine.resolver.decisions import decide
from dipserver.engine.resolver.resolution import Resolution
from dipserver.engine.resolver.table import CONVOY, MOVE


def decide_cycles(r: Resolution) -> None:
    """Decide every open decision, in unit order, guessing where a cycle needs it."""
    n = len(r.kind)
    r.result = [False] * n  # a decision's value so far: final once done, else a guess or hangs on one
    r.guessing = [False] * n  # its value in ``result`` is, for now, a guess or an answer hanging on one
    r.dep = []
    paradox: set[int] = set()
    r.paradox = paradox
    r.look = guess
    done = r.done
    for i, v in enumerate(done):  # the list as it is now: ``guess`` settles others on the way
        if v is None:
            guess(r, i)


def guess(r: Resolution, i: int) -> bool:
    """The value of the open decision ``i``: decided, or (inside a cycle) a guess or hanging on one."""
    guessing, result, dep = r.guessing, r.result, r.dep
    if guessing[i]:
        if i not in dep:
            dep.append(i)
        return result[i]
    old = len(dep)
    result[i] = False
    guessing[i] = True
    first = decide(r, i)
    if len(dep) == old:
        # Nothing depended on a guess: final (unless the backup rule settled it meanwhile).
        v = r.done[i]
        if v is None:
            guessing[i] = False
            r.done[i] = result[i] = first  # type: ignore[assignment]
            return first  # type: ignore[return-value]
        return v
    if dep[old] != i:
        # Hangs on someone else's guess: report upwards, the cycle's owner decides.
        dep.append(i)
        result[i] = first  # type: ignore[assignment]
        return first  # type: ignore[return-value]
    # This decision starts the cycle: try the other guess.
    _forget(r, old)
    result[i] = True
    guessing[i] = True
    second = decide(r, i)
    if first == second:
        _forget(r, old)
        guessing[i] = False
        r.done[i] = result[i] = first  # type: ignore[assignment]
        return first  # type: ignore[return-value]
    _backup_rule(r, i, old)
    v = r.done[i]
    return guess(r, i) if v is None else v


def _forget(r: Resolution, old: int) -> None:
    """Drop the decisions that hung on the guess just tried."""
    guessing, dep = r.guessing, r.dep
    for x in dep[old:]:
        guessing[x] = False
    del dep[old:]


def _backup_rule(r: Resolution, i: int, old: int) -> None:
    """No answer or two answers for the cycle ``i`` starts: a paradox or circular movement."""
    kind, done, result, guessing = r.kind, r.done, r.result, r.guessing
    paradox: set[int] = r.paradox  # type: ignore[assignment]  # decide_cycles made it a set
    cycle = r.dep[old:]
    if i not in cycle:
        cycle.append(i)
    del r.dep[old:]
    if any(kind[x] == CONVOY for x in cycle):
        # Szykman: the convoys in the paradox fail, everything else is decided again.
        for x in cycle:
            guessing[x] = False
            if kind[x] == CONVOY:
                done[x] = result[x] = False
                paradox.add(x)
    elif any(_carried_by_a_move(r, x) for x in cycle):
        # An army landing from the sea its A/F sails to (Abstraction): carried as by a convoy, it fails as
        # a convoy does in a paradox; everything else is decided again.
        for x in cycle:
            guessing[x] = False
            if _carried_by_a_move(r, x):
                done[x] = result[x] = False
                paradox.add(x)
    else:
        # Circular movement: every move in the ring succeeds.
        for x in cycle:
            guessing[x] = False
            if kind[x] == MOVE:
                done[x] = result[x] = True


def _carried_by_a_move(r: Resolution, x: int) -> bool:
    """A move whose route is another move (an army landing from the sea its A/F sails to this move)."""
    route = r.route[x]
    return r.kind[x] == MOVE and route is not None and r.kind[route.start[0]] == MOVE
