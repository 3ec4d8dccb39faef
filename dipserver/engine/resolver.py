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
    state = [_UNRESOLVED] * n
    result = [False] * n
    dep: list[int] = []  # decisions that depended on a guess, in the order met
    paradox: set[int] = set()
    no_movers: list[int] = []

    def res(i: int) -> bool:
        st = state[i]
        if st == _RESOLVED:
            return result[i]
        if st == _GUESSING:
            if i not in dep:
                dep.append(i)
            return result[i]
        old = len(dep)
        result[i] = False
        state[i] = _GUESSING
        first = adjudicators[kind[i]](i)
        if len(dep) == old:
            # Nothing depended on a guess: final.
            if state[i] != _RESOLVED:
                result[i] = first
                state[i] = _RESOLVED
            return result[i]
        if dep[old] != i:
            # Depends on someone else's guess: report upwards, the cycle's owner decides.
            dep.append(i)
            result[i] = first
            return first
        # This decision starts the cycle: try the other guess.
        for k in dep[old:]:
            state[k] = _UNRESOLVED
        del dep[old:]
        result[i] = True
        state[i] = _GUESSING
        second = adjudicators[kind[i]](i)
        if first == second:
            for k in dep[old:]:
                state[k] = _UNRESOLVED
            del dep[old:]
            result[i] = first
            state[i] = _RESOLVED
            return first
        # No answer or two answers: a paradox or circular movement.
        cycle = dep[old:]
        if i not in cycle:
            cycle.append(i)
        del dep[old:]
        backup_rule(cycle)
        return res(i)

    def backup_rule(cycle: list[int]) -> None:
        if any(kind[k] == CONVOY for k in cycle):
            # Szykman: the convoys in the paradox fail, everything else is decided again.
            for k in cycle:
                if kind[k] == CONVOY:
                    result[k] = False
                    state[k] = _RESOLVED
                    paradox.add(k)
                else:
                    state[k] = _UNRESOLVED
        else:
            # Circular movement: every move in the ring succeeds.
            for k in cycle:
                if kind[k] == MOVE:
                    result[k] = True
                    state[k] = _RESOLVED
                else:
                    state[k] = _UNRESOLVED

    def strength(i: int) -> int:
        s = 1
        for x in supports[i]:
            if res(x):
                s += 1
        return s

    def path(i: int) -> bool:
        r = route[i]
        if r is None:
            return True
        seen: set[int] = set()
        stack = list(r.start)
        while stack:
            f = stack.pop()
            if f in seen:
                continue
            seen.add(f)
            if res(f):
                if f in r.finish:
                    return True
                stack.extend(r.links[f])
        return False

    def attack_strength(i: int) -> int:
        if not path(i):
            return 0
        j = occupant.get(dest[i], -1)  # type: ignore[arg-type]
        if j < 0 or (kind[j] == MOVE and opponent[i] != j and res(j)):
            return strength(i)
        defender = power[j]
        if defender == power[i]:
            return 0  # never dislodge your own unit
        s = 1
        for x in supports[i]:
            if power[x] != defender and res(x):
                s += 1
        return s

    def hold_strength(prov: str) -> int:
        j = occupant.get(prov, -1)
        if j < 0:
            return 0
        if kind[j] == MOVE:
            return 0 if res(j) else 1
        return strength(j)

    def prevent_strength(i: int) -> int:
        if not path(i):
            return 0
        j = opponent[i]
        if j >= 0 and res(j):
            return 0  # lost a head-to-head battle: no effect on the winner's origin
        return strength(i)

    def adjudicate_move(i: int) -> bool:
        attack = attack_strength(i)
        if attack == 0:
            return False
        j = opponent[i]
        if j >= 0:
            if attack <= strength(j):  # defend strength
                return False
        elif attack <= hold_strength(dest[i]):  # type: ignore[arg-type]
            return False
        for k in movers_to[dest[i]]:  # type: ignore[index]  # noqa: SIM110 (a loop beats all() here)
            if k != i and attack <= prevent_strength(k):
                return False
        return True

    def adjudicate_support(i: int) -> bool:
        target = dest[i]
        me = power[i]
        for m in movers_to.get(province[i], no_movers):
            if power[m] == me:
                continue
            if province[m] == target:
                # Attacked from where the support goes: only dislodgement cuts it (DATC 4.A.4).
                if res(m):
                    return False
            elif path(m):
                return False
        return True

    def adjudicate_convoy(i: int) -> bool:
        # The attacks are adjudicated, not resolved: their own decisions then stay out of the convoy's
        # dependency cycle, which keeps paradox cycles single and clean (DATC 5.D, Pandin's paradox).
        for m in movers_to.get(province[i], no_movers):  # noqa: SIM110 (a loop beats all() here)
            if adjudicate_move(m):
                return False
        return True

    def no_decision(i: int) -> bool:
        return False  # a HOLD decides nothing; never asked, here only to index the table by kind

    adjudicators = (no_decision, adjudicate_move, adjudicate_support, adjudicate_convoy)
    for i in range(n):
        if kind[i] != HOLD:
            res(i)
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
