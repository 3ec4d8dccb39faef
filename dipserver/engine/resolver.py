"""Kruijswijk's guess-and-check resolver: the decisions of a movement phase, and nothing else.

The input is a table of *sanitised* orders (illegal and non-matching orders already turned into holds by
``movement.py``), indexed by unit. Every MOVE, SUPPORT and CONVOY order has one boolean decision:

- MOVE: the unit arrives;
- SUPPORT: the support is given (not cut, supporter not dislodged);
- CONVOY: the fleet is not dislodged (so it carries the army).

The conditions are those of DATC v3.0 §5.B (attack, hold, defend and prevent strength, path). ``resolve``
follows §5.F: a decision met again deeper in its own recursion is guessed (first False, then True); if both
guesses give one answer it is kept, otherwise the cycle is a paradox and the backup rule decides it —
circular movement succeeds, a cycle through a convoy fails its convoys (Szykman rule).

Everything is plain lists and dicts indexed by unit number: this is the adjudicator's hot path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import FunctionType

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3
_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class ConvoyRoute:
    """The fleets that could carry one army, as a graph over unit numbers.

    ``start`` are the convoying fleets next to the army's province, ``finish`` those next to its
    destination, ``links`` the fleet-to-fleet steps. Only fleets on some complete route are included.
    """

    start: tuple[int, ...]
    finish: frozenset[int]
    links: Mapping[int, tuple[int, ...]]


@dataclass(slots=True)
class OrderTable:
    """Sanitised orders, one row per unit (``i`` is the unit number in every list)."""

    province: list[str]
    power: list[str]
    kind: list[int]  # HOLD, MOVE, SUPPORT or CONVOY
    dest: list[str | None]  # MOVE: target province; SUPPORT: the supported move's target, None for hold
    route: list[ConvoyRoute | None]  # MOVE by convoy: its possible routes; None when moving directly
    supports: list[list[int]]  # the matching SUPPORT orders given to each unit
    occupant: dict[str, int] = field(default_factory=dict)  # province -> unit number
    movers_to: dict[str, list[int]] = field(default_factory=dict)  # province -> MOVE orders into it
    opponent: list[int] = field(default_factory=list)  # head-to-head opponent of a MOVE, or -1

    @classmethod
    def build(
        cls,
        province: list[str],
        power: list[str],
        kind: list[int],
        dest: list[str | None],
        route: list[ConvoyRoute | None],
        supports: list[list[int]],
        occupant: dict[str, int] | None = None,
    ) -> OrderTable:
        """Fill in the derived indexes (occupants, movers, head-to-head opponents)."""
        if occupant is None:
            occupant = {p: i for i, p in enumerate(province)}
        movers_to: dict[str, list[int]] = {}
        for i, k in enumerate(kind):
            if k == MOVE:
                movers_to.setdefault(dest[i], []).append(i)  # type: ignore[arg-type]
        opponent = [-1] * len(province)
        for i, k in enumerate(kind):
            if k != MOVE or route[i] is not None:
                continue
            j = occupant.get(dest[i], -1)  # type: ignore[arg-type]
            # Two units swapping by land meet on the border; a convoyed unit passes it by (DATC 4.A.7).
            if j >= 0 and kind[j] == MOVE and dest[j] == province[i] and route[j] is None:
                opponent[i] = j
        return cls(province, power, kind, dest, route, supports, occupant, movers_to, opponent)


@dataclass(frozen=True, slots=True)
class Decisions:
    """The outcome of every decision, and which convoys the Szykman rule failed."""

    success: Sequence[bool]  # per unit: MOVE arrived / SUPPORT given / CONVOY carried; False for HOLD
    path: Sequence[bool]  # per unit: a MOVE had its way open (by land, or an unbroken convoy)
    paradox: frozenset[int]  # convoys failed by the Szykman rule


def resolve(table: OrderTable) -> Decisions:
    """Decide every order of the table."""
    province, power, kind, dest = table.province, table.power, table.kind, table.dest
    route, supports, occupant = table.route, table.supports, table.occupant
    movers_to, opponent = table.movers_to, table.opponent
    n = len(kind)
    # ``done[i]`` is a decision's final value, None until it has one: callers read it first and call ``res``
    # only for an open decision, exactly where §5.F's resolve would be asked (the same calls, in the same
    # order, so the same guesses and the same cycles). ``guessing`` marks a decision whose value in
    # ``result`` is, for now, a guess or an answer that depends on one.
    done: list[bool | None] = [None] * n
    guessing = [False] * n
    result = [False] * n
    dep: list[int] = []  # decisions that depended on a guess, in the order met
    paradox: set[int] = set()

    def res(i: int) -> bool:
        # Only for an open decision (done[i] is None).
        if guessing[i]:
            if i not in dep:
                dep.append(i)
            return result[i]
        old = len(dep)
        result[i] = False
        guessing[i] = True
        k = kind[i]
        decide = adjudicate_move if k == MOVE else adjudicate_support if k == SUPPORT else adjudicate_convoy
        first = decide(i)
        if len(dep) == old:
            # Nothing depended on a guess: final (unless the backup rule settled it meanwhile).
            v = done[i]
            if v is None:
                guessing[i] = False
                done[i] = result[i] = first
                return first
            return v
        if dep[old] != i:
            # Depends on someone else's guess: report upwards, the cycle's owner decides.
            dep.append(i)
            result[i] = first
            return first
        # This decision starts the cycle: try the other guess.
        for x in dep[old:]:
            guessing[x] = False
        del dep[old:]
        result[i] = True
        guessing[i] = True
        second = decide(i)
        if first == second:
            for x in dep[old:]:
                guessing[x] = False
            del dep[old:]
            guessing[i] = False
            done[i] = result[i] = first
            return first
        # No answer or two answers: a paradox or circular movement.
        cycle = dep[old:]
        if i not in cycle:
            cycle.append(i)
        del dep[old:]
        if any(kind[x] == CONVOY for x in cycle):
            # Szykman: the convoys in the paradox fail, everything else is decided again.
            for x in cycle:
                guessing[x] = False
                if kind[x] == CONVOY:
                    done[x] = result[x] = False
                    paradox.add(x)
        else:
            # Circular movement: every move in the ring succeeds.
            for x in cycle:
                guessing[x] = False
                if kind[x] == MOVE:
                    done[x] = result[x] = True
        v = done[i]
        return res(i) if v is None else v

    def path(i: int) -> bool:
        r = route[i]
        seen: set[int] = set()
        stack = list(r.start)  # type: ignore[union-attr]
        finish, links = r.finish, r.links  # type: ignore[union-attr]
        while stack:
            f = stack.pop()
            if f in seen:
                continue
            seen.add(f)
            v = done[f]
            if v if v is not None else res(f):
                if f in finish:
                    return True
                stack.extend(links[f])
        return False

    def adjudicate_move(i: int) -> bool:
        # Attack strength (0 without a path, or against a unit of one's own power that stays).
        if route[i] is not None and not path(i):
            return False
        target = dest[i]
        j = occupant.get(target, -1)  # type: ignore[arg-type]
        opp = opponent[i]
        attack = 1
        if j >= 0:
            if kind[j] == MOVE and opp != j:
                v = done[j]
                leaves = v if v is not None else res(j)
            else:
                leaves = False
            if not leaves:
                defender = power[j]
                if defender == power[i]:
                    return False  # never dislodge your own unit
                for x in supports[i]:
                    if power[x] != defender:
                        v = done[x]
                        if v if v is not None else res(x):
                            attack += 1
                j = -2
        if j != -2:
            for x in supports[i]:
                v = done[x]
                if v if v is not None else res(x):
                    attack += 1
        # Against the defend strength of a head-to-head opponent, else the hold strength of the target.
        if opp >= 0:
            hold = 1
            for x in supports[opp]:
                v = done[x]
                if v if v is not None else res(x):
                    hold += 1
            if attack <= hold:
                return False
        else:
            j = occupant.get(target, -1)  # type: ignore[arg-type]
            if j >= 0:
                if kind[j] == MOVE:
                    v = done[j]
                    if not (v if v is not None else res(j)) and attack <= 1:
                        return False
                else:
                    hold = 1
                    for x in supports[j]:
                        v = done[x]
                        if v if v is not None else res(x):
                            hold += 1
                    if attack <= hold:
                        return False
        # Against the prevent strength of every other move to the same province.
        for k in movers_to[target]:  # type: ignore[index]
            if k == i:
                continue
            if route[k] is not None and not path(k):
                continue  # prevent strength 0
            o = opponent[k]
            if o >= 0:
                v = done[o]
                if v if v is not None else res(o):
                    continue  # lost a head-to-head battle: no effect on the winner's origin
            prevent = 1
            for x in supports[k]:
                v = done[x]
                if v if v is not None else res(x):
                    prevent += 1
            if attack <= prevent:
                return False
        return True

    def adjudicate_support(i: int) -> bool:
        target = dest[i]
        me = power[i]
        for m in movers_to.get(province[i], ()):
            if power[m] == me:
                continue
            if province[m] == target:
                # Attacked from where the support goes: only dislodgement cuts it (DATC 4.A.4).
                v = done[m]
                if v if v is not None else res(m):
                    return False
            elif route[m] is None or path(m):
                return False
        return True

    def adjudicate_convoy(i: int) -> bool:
        # The attacks are adjudicated, not resolved: their own decisions then stay out of the convoy's
        # dependency cycle, which keeps paradox cycles single and clean (DATC 5.D, Pandin's paradox).
        for m in movers_to.get(province[i], ()):  # noqa: SIM110 (a loop beats all() here)
            if adjudicate_move(m):
                return False
        return True

    for i, k in enumerate(kind):
        if k != HOLD and done[i] is None:
            res(i)
    if route.count(None) == n:
        open_path = [k == MOVE for k in kind]
    else:
        open_path = [k == MOVE and (route[i] is None or path(i)) for i, k in enumerate(kind)]
    _unlink(res)
    return Decisions(result, open_path, frozenset(paradox))


def _unlink(res: FunctionType) -> None:
    """Empty the closure cell through which the nested functions of ``resolve`` call ``res``.

    Every function there calls back into ``res``, and ``res`` reaches them all: a reference cycle that
    only the garbage collector frees, and a batch of thousands of phases spent a sixth of its time
    collecting them. With this one cell empty nothing is cyclic, and all is freed on return.
    """
    res.__closure__[res.__code__.co_freevars.index("res")].cell_contents = None  # type: ignore[index]
