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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3
_EASY_PASS = True  # settle the easy decisions before the recursion (off only to test that it changes nothing)
_NO_PARADOX: frozenset[int] = frozenset()
# A decision's start, by kind (HOLD, MOVE, SUPPORT, CONVOY): a HOLD decides nothing, the rest are open...
_OPEN = (False, None, None, None)
# ... but for the easy pass a support or a convoy nobody attacks is given, carries (attacked: reopened).
_UNOPPOSED = (False, None, True, True)
_IS_MOVE = (False, True, False, False)


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

    province: Sequence[str]
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
        province: Sequence[str],
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


class Decisions:
    """The outcome of every decision, and which convoys the Szykman rule failed.

    A plain class (not a frozen dataclass): built once per phase, its fields read and never compared.
    """

    __slots__ = ("paradox", "path", "success")

    def __init__(self, success: Sequence[bool], path: Sequence[bool], paradox: frozenset[int]) -> None:
        self.success = success  # per unit: MOVE arrived / SUPPORT given / CONVOY carried; False for HOLD
        self.path = path  # per unit: a MOVE had its way open (by land, or an unbroken convoy)
        self.paradox = paradox  # convoys failed by the Szykman rule


def resolve(table: OrderTable) -> Decisions:
    """Decide every order of the table."""
    kind, route = table.kind, table.route
    n = len(kind)
    # ``done[i]``: a decision's final value, None while it is open.
    # ``way[i]``: a MOVE has its way open (by land True; by sea None until its convoys are decided).
    # One itemgetter picks each unit's start by its kind: cheaper than a Python loop over the units.
    start = _UNOPPOSED if _EASY_PASS else _OPEN
    if n > 1:
        pick = itemgetter(*kind)
        done: list[bool | None] = list(pick(start))
        way: list[bool | None] = list(pick(_IS_MOVE))
    else:
        done = [start[k] for k in kind]
        way = [_IS_MOVE[k] for k in kind]
    by_sea = [] if route.count(None) == n else [i for i, r in enumerate(route) if r is not None and way[i]]
    for i in by_sea:
        way[i] = None
    if not _EASY_PASS or _settle_easy(table, done, way, by_sea):
        paradox = _recurse(table, done)
    else:
        paradox = _NO_PARADOX
    for i in by_sea:
        if way[i] is None:
            way[i] = _path_after(route[i], done)  # type: ignore[arg-type]
    # Every decision is settled now: ``done`` holds them all.
    return Decisions(done, way, paradox)  # type: ignore[arg-type]


def _recurse(table: OrderTable, done: list[bool | None]) -> frozenset[int]:
    """Decide the open decisions by §5.F's guess and check, in unit order; the Szykman rule's convoys."""
    province, power, kind, dest = table.province, table.power, table.kind, table.dest
    route, supports, occupant = table.route, table.supports, table.occupant
    movers_to, opponent = table.movers_to, table.opponent
    n = len(kind)
    result = [False] * n  # a decision's value so far: final once done, else a guess or depends on one
    # Callers read ``done`` first and call ``res`` only for an open decision, exactly where §5.F's resolve
    # would be asked (the same calls, in the same order, so the same guesses and the same cycles).
    # ``guessing`` marks a decision whose value in ``result`` is, for now, a guess or an answer that
    # depends on one.
    guessing = [False] * n
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

    for i, v in enumerate(done):  # the list as it is now: res settles others on the way
        if v is None:
            res(i)
    _unlink(res)
    return frozenset(paradox) if paradox else _NO_PARADOX


def _path_after(r: ConvoyRoute, done: list[bool | None]) -> bool:
    """Whether an unbroken chain of convoys carried the army, once every convoy is decided."""
    return bool(_way_known(r, done))


def _way_known(r: ConvoyRoute, done: list[bool | None]) -> bool | None:
    """The path of a move by sea as ``_recurse``'s ``path`` finds it, or None where it would meet an open
    convoy (the same fleets, in the same order)."""
    seen: set[int] = set()
    stack = list(r.start)
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        v = done[f]
        if v is None:
            return None
        if v:
            if f in r.finish:
                return True
            stack.extend(r.links[f])
    return False


def _strength(given: Sequence[int], done: list[bool | None]) -> int:
    """1 and the supports given, once all are settled; 0 while one is open."""
    s = 1
    for x in given:
        v = done[x]
        if v is None:
            return 0
        if v:
            s += 1
    return s


def _settle_easy(
    table: OrderTable, done: list[bool | None], way: list[bool | None], by_sea: list[int]
) -> int:
    """Settle beforehand every decision ``_recurse`` would decide without meeting an open one.

    Each decision is evaluated as ``_recurse`` evaluates it, reading the same decisions in the same order,
    and settled only when all it reads are settled (else it waits for the next round; rounds go on while
    they settle something). Such a decision has this one value whenever §5.F would resolve it and meets no
    guess, so settling it first changes no other decision nor the order in which the others are guessed
    (tests/engine/test_resolver_equivalence.py holds the two in agreement). A support or convoy nobody
    attacks comes in settled (given, carries: ``_UNOPPOSED``); an attacked one is reopened here. A
    strength is counted only once all its supports are settled, a little more cautious than needed: that
    never settles a decision wrongly. ``way`` gets the path of each move by sea whose convoys it settled.
    Returns how many decisions are left open.
    """
    province, power, kind, dest = table.province, table.power, table.kind, table.dest
    route, supports, occupant = table.route, table.supports, table.occupant
    movers_to, opponent = table.movers_to, table.opponent
    contested: list[int] = []
    moves: list[int] = []
    for into, rivals in movers_to.items():
        j = occupant.get(into, -1)
        if j >= 0:
            k = kind[j]
            if k == SUPPORT:
                me, goes = power[j], dest[j]
                for m in rivals:
                    if power[m] != me:
                        if province[m] != goes and way[m]:
                            done[j] = False  # cut by a move by land from elsewhere: it reads nothing
                        else:
                            done[j] = None
                            contested.append(j)
                        break
            elif k == CONVOY:
                done[j] = None
                contested.append(j)
        elif len(rivals) == 1:
            i = rivals[0]
            if way[i] and not supports[i]:
                done[i] = True  # alone, unsupported, by land into an empty province: it reads nothing
                continue
        moves += rivals
    sea = by_sea
    pending = moves
    left = len(contested) + len(sea) + len(pending)
    while left:
        if sea:
            still = []
            for i in sea:
                w = way[i] = _way_known(route[i], done)  # type: ignore[arg-type]
                if w is None:
                    still.append(i)
            sea = still
        if contested:
            still = []
            for i in contested:
                verdict: bool | None = True
                if kind[i] == SUPPORT:
                    me, goes = power[i], dest[i]
                    for m in movers_to[province[i]]:
                        if power[m] == me:
                            continue
                        # Attacked from where it goes, only dislodgement cuts it (DATC 4.A.4); else a path.
                        cut = done[m] if province[m] == goes else way[m]
                        if cut is None:
                            verdict = None
                            break
                        if cut:
                            verdict = False
                            break
                else:
                    # A convoy: the attacks adjudicated (each settled here, so read as they are).
                    for m in movers_to[province[i]]:
                        v = done[m]
                        if v is None:
                            verdict = None
                            break
                        if v:
                            verdict = False
                            break
                if verdict is None:
                    still.append(i)
                else:
                    done[i] = verdict
            contested = still
        still = []
        for i in pending:
            w = way[i]
            if not w:
                if w is None:
                    still.append(i)  # its path hangs on convoys
                else:
                    done[i] = False  # no path: attack strength 0
                continue
            given = supports[i]
            attack = _strength(given, done) if given else 1
            if not attack:
                still.append(i)
                continue
            target = dest[i]
            rivals = movers_to[target]  # type: ignore[index]
            j = occupant.get(target, -1)  # type: ignore[arg-type]
            if j < 0 and len(rivals) == 1:
                done[i] = True  # alone into an empty province
                continue
            opp = opponent[i]
            leaves: bool | None = False
            if j >= 0:
                if kind[j] == MOVE and opp != j:
                    leaves = done[j]
                    if leaves is None:
                        still.append(i)
                        continue
                if not leaves:
                    defender = power[j]
                    if defender == power[i]:
                        done[i] = False  # never dislodge your own unit
                        continue
                    for x in given:
                        if done[x] and power[x] == defender:
                            attack -= 1  # a power's support never helps to dislodge its own unit
            # The defend strength of a head-to-head opponent, else the hold strength of the target.
            if opp >= 0:
                given = supports[opp]
                hold = _strength(given, done) if given else 1
                if not hold:
                    still.append(i)
                    continue
            elif j < 0:
                hold = 0
            elif kind[j] == MOVE:
                hold = 0 if leaves else 1
            else:
                given = supports[j]
                hold = _strength(given, done) if given else 1
                if not hold:
                    still.append(i)
                    continue
            if attack <= hold:
                done[i] = False
                continue
            # The prevent strength of every other move to the same province.
            verdict = True
            for k in rivals:
                if k == i:
                    continue
                w = way[k]
                if not w:
                    if w is None:
                        verdict = None  # its path hangs on convoys
                        break
                    continue  # no path: prevent strength 0
                o = opponent[k]
                if o >= 0:
                    v = done[o]
                    if v is None:
                        verdict = None
                        break
                    if v:
                        continue  # lost a head-to-head battle: no effect on the winner's origin
                given = supports[k]
                prevent = _strength(given, done) if given else 1
                if not prevent:
                    verdict = None
                    break
                if attack <= prevent:
                    verdict = False
                    break
            if verdict is None:
                still.append(i)
            else:
                done[i] = verdict
        pending = still
        now = len(contested) + len(sea) + len(pending)
        if now == left:
            break
        left = now
    return left


def _unlink(res: Callable[[int], bool]) -> None:
    """Empty the closure cell through which the nested functions of ``_recurse`` call ``res``.

    Every function there calls back into ``res``, and ``res`` reaches them all: a reference cycle that
    only the garbage collector frees, and a batch of thousands of phases spent a sixth of its time
    collecting them. With this one cell empty nothing is cyclic, and all is freed on return.
    """
    cells, names = res.__closure__, res.__code__.co_freevars
    cells[names.index("res")].cell_contents = None  # type: ignore[index]
