"""The resolver's easy pass decides exactly what the guessing pass alone decides.

``resolve`` first runs the decisions without guessing (the easy pass, ``decisions.settle``), and only the
decisions left open go to the guessing pass. Settling them early must change nothing: on thousands of
seeded random order tables — rings, head-to-head battles, cut and uncut supports, beleaguered garrisons,
convoys and their paradoxes — the decisions with the easy pass and without it are the same.
"""

from __future__ import annotations

import random

import pytest

from dipserver.engine.resolver import CONVOY, HOLD, MOVE, SUPPORT, Decisions, OrderTable, resolve
from dipserver.engine.resolver.decisions import settle, settle_one
from dipserver.engine.resolver.resolution import Resolution
from dipserver.engine.resolver.route import ConvoyRoute
from dipserver.engine.resolver.strengths import path

TABLES = 4000


def _random_table(rng: random.Random) -> OrderTable:
    """A sanitised-looking table over abstract provinces: any shape the resolver could be given."""
    places = [f"P{p}" for p in range(rng.randint(3, 9))]
    n = rng.randint(1, len(places))
    province = rng.sample(places, n)
    power = [rng.choice("ABC"[: rng.randint(1, 3)]) for _ in range(n)]
    kind = [rng.choices((HOLD, MOVE, SUPPORT, CONVOY), (2, 5, 3, 2))[0] for _ in range(n)]
    dest: list[str | None] = [None] * n
    for i in range(n):
        if kind[i] == MOVE:
            dest[i] = rng.choice([p for p in places if p != province[i]])
    supports: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        if kind[i] != SUPPORT:
            continue
        helped = [u for u in range(n) if u != i and dest[u] != province[i]]
        if not helped:
            kind[i] = HOLD
            continue
        u = rng.choice(helped)
        dest[i] = dest[u] if kind[u] == MOVE else None
        supports[u].append(i)
    fleets = [i for i in range(n) if kind[i] == CONVOY]
    route: list[ConvoyRoute | None] = [None] * n
    for i in range(n):
        if kind[i] == MOVE and rng.random() < 0.1:
            route[i] = ConvoyRoute((), frozenset(), {})  # no fleet carries it: a move that cannot arrive
        elif kind[i] == MOVE and fleets and rng.random() < 0.5:
            # A chain of fleets, each linked to the next (but at times not: a route with no path) and at
            # times to others further on: one failing convoy often breaks the path, which then prevents
            # nothing.
            chain = rng.sample(fleets, rng.randint(1, len(fleets)))
            links = {
                f: tuple(g for g in chain[k + 1 :] if _linked(rng, g == chain[k + 1]))
                for k, f in enumerate(chain)
            }
            start = (chain[0],)
            finish = frozenset({chain[-1]})
            route[i] = ConvoyRoute(start, finish, links)
    return OrderTable.build(province, power, kind, dest, route, supports)


def _linked(rng: random.Random, next_in_chain: bool) -> bool:
    return rng.random() < (0.9 if next_in_chain else 0.2)


@pytest.mark.parametrize("seed", range(8))
def test_the_easy_pass_decides_as_the_full_recursion(seed: int) -> None:
    rng = random.Random(seed)
    settled = paths_known = 0
    for _ in range(TABLES // 8):
        table = _random_table(rng)
        full = resolve(table, easy=False)
        fast = resolve(table)
        assert (list(fast.success), list(fast.path), fast.paradox) == (
            list(full.success),
            list(full.path),
            full.paradox,
        ), table
        easy = Resolution(table, settle_one)
        settle(easy)
        done = easy.done
        settled += sum(v is not None and k in (MOVE, SUPPORT) for v, k in zip(done, table.kind, strict=True))
        by_sea = [i for i, r in enumerate(table.route) if r is not None and table.kind[i] == MOVE]
        paths_known += sum(path(easy, i) is not None for i in by_sea)
    assert settled > 0  # the easy pass is exercised, not only skipped
    assert paths_known > 0  # convoys too, and so the paths of moves by sea


def test_the_random_tables_reach_every_rule() -> None:
    """The generator makes the hard cases too: paradoxes for the Szykman rule and rings of moves."""
    rng = random.Random(0)
    paradoxes = rings = 0
    for _ in range(TABLES):
        table = _random_table(rng)
        decided = resolve(table)
        paradoxes += bool(decided.paradox)
        rings += any(_in_a_ring(table, decided, i) for i in range(len(table.kind)))
    assert paradoxes > 0
    assert rings > 0


def _in_a_ring(table: OrderTable, decided: Decisions, i: int) -> bool:
    """Whether unit ``i`` moved in a ring of three or more moves that all succeeded."""
    seen = [i]
    j = i
    while table.kind[j] == MOVE and decided.success[j] and table.route[j] is None:
        j = table.occupant.get(table.dest[j], -1)  # type: ignore[arg-type]
        if j == i:
            return len(seen) >= 3
        if j < 0 or j in seen:
            return False
        seen.append(j)
    return False
