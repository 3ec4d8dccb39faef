"""The resolver on its own: decisions over an order table, with no board at all.

Provinces here are abstract names; only the table says who moves where, who supports whom and which
fleets carry which army. This pins down the algorithm (DATC v3.0 §5) independently of any map.
"""

from __future__ import annotations

from dipserver.engine.resolver import CONVOY, HOLD, MOVE, SUPPORT, OrderTable, resolve
from dipserver.engine.resolver.route import ConvoyRoute


def table(
    rows: list[tuple[str, str, int, str | None]],
    supports: dict[int, list[int]] | None = None,
    routes: dict[int, ConvoyRoute] | None = None,
) -> OrderTable:
    """``rows``: (province, power, kind, destination) per unit; ``supports``: unit -> its supporters."""
    n = len(rows)
    return OrderTable.build(
        [r[0] for r in rows],
        [r[1] for r in rows],
        [r[2] for r in rows],
        [r[3] for r in rows],
        [(routes or {}).get(i) for i in range(n)],
        [(supports or {}).get(i, []) for i in range(n)],
    )


def test_a_lone_move_into_an_empty_province_succeeds() -> None:
    decided = resolve(table([("A", "X", MOVE, "B")]))
    assert decided.success == [True]
    assert decided.path == [True]


def test_equal_strengths_bounce() -> None:
    decided = resolve(table([("A", "X", MOVE, "C"), ("B", "Y", MOVE, "C")]))
    assert decided.success == [False, False]


def test_one_support_beats_a_holding_unit() -> None:
    rows = [("A", "X", MOVE, "B"), ("B", "Y", HOLD, None), ("C", "X", SUPPORT, "B")]
    assert resolve(table(rows, supports={0: [2]})).success == [True, False, True]


def test_a_support_is_cut_by_an_attack_from_elsewhere_but_not_from_where_it_goes() -> None:
    rows = [
        ("A", "X", MOVE, "B"),
        ("B", "Y", MOVE, "C"),  # attacks the supporter from the supported move's target: no cut
        ("C", "X", SUPPORT, "B"),
    ]
    assert resolve(table(rows, supports={0: [2]})).success == [True, False, True]
    rows.append(("D", "Z", MOVE, "C"))  # an attack from anywhere else cuts it
    decided = resolve(table(rows, supports={0: [2]}))
    assert decided.success[2] is False
    assert decided.success[0] is False  # 1 against 1: B stays


def test_no_unit_dislodges_one_of_its_own_power() -> None:
    rows = [("A", "X", MOVE, "B"), ("B", "X", HOLD, None), ("C", "X", SUPPORT, "B")]
    assert resolve(table(rows, supports={0: [2]})).success[0] is False


def test_a_ring_of_moves_all_succeed() -> None:
    rows = [("A", "X", MOVE, "B"), ("B", "Y", MOVE, "C"), ("C", "Z", MOVE, "A")]
    assert resolve(table(rows)).success == [True, True, True]


def test_two_units_swapping_without_a_convoy_bounce() -> None:
    rows = [("A", "X", MOVE, "B"), ("B", "Y", MOVE, "A")]
    assert resolve(table(rows)).success == [False, False]


def test_a_convoyed_swap_is_not_a_head_to_head_battle() -> None:
    route = ConvoyRoute(start=(2,), finish=frozenset({2}), links={2: ()})
    rows = [("A", "X", MOVE, "B"), ("B", "Y", MOVE, "A"), ("S", "X", CONVOY, None)]
    decided = resolve(table(rows, routes={0: route}))
    assert decided.success == [True, True, True]


def test_the_simplest_convoy_paradox_fails_the_convoy_by_the_szykman_rule() -> None:
    # DATC 6.F.14 in the abstract: the army attacks the unit supporting an attack on its own convoy.
    route = ConvoyRoute(start=(3,), finish=frozenset({3}), links={3: ()})
    rows = [
        ("LON", "ENG", SUPPORT, "SEA"),  # supports WAL -> SEA
        ("WAL", "ENG", MOVE, "SEA"),
        ("BRE", "FRA", MOVE, "LON"),  # by convoy through SEA
        ("SEA", "FRA", CONVOY, None),
    ]
    decided = resolve(table(rows, supports={1: [0]}, routes={2: route}))
    assert decided.paradox == frozenset({3})
    assert decided.success == [True, True, False, False]
    assert decided.path[2] is False
