"""DATC v3.0 section 6.J: civil disorder and disbands."""

from __future__ import annotations

from datc_driver import run_case, run_position

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_J_1(board: Board) -> None:
    """6.J.1 Too many disband orders.

    Check how program reacts when someone orders too many disbands.

    France has to disband one and has an army in Paris and Picardy.

    France:
    Remove F Gulf of Lyon
    Remove A Picardy
    Remove A Paris

    Program should not disband both Paris and Picardy, but should handle it in a different way. See also
    issue 4.D.6.

    I prefer that the disband orders are handled one by one. According to the preference, the removal of
    the fleet in the Gulf of Lyon fails (no fleet), the removal of the army in Picardy succeeds and the
    removal of the army in Paris fails (too many disbands).

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: orders handled one by one: LYO fails (no fleet), PIC removed, PAR fails (too many)
    """
    run = run_case(board, "6.J.1")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F LYO D": ("FRANCE", Outcome.INVALID),
            "A PIC D": ("FRANCE", Outcome.SUCCESS),
            "A PAR D": ("FRANCE", Outcome.INVALID),
        }
    )


def test_6_J_2(board: Board) -> None:
    """6.J.2 Removing the same unit twice.

    If you have to remove two units, you can always try to trick the computer by removing the same unit
    twice.

    France has to disband two and has an army in Paris.

    France:
    Remove A Paris
    Remove A Paris

    Program should remove army in Paris and remove another unit by using the civil disorder rules.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    JSON note: A PAR removed plus one more unit chosen by the civil-disorder rule (here PIC and BUR are
    both distance 1 from PAR; alphabetical order removes BUR)
    """
    run = run_case(board, "6.J.2")
    run.assert_expected()


def test_6_J_3(board: Board) -> None:
    """6.J.3 Civil disorder two armies with different distance.

    When a player forgets to disband a unit, the civil disorder rules must be applied. When two armies
    have different distance from the home supply centers, then the army with the greatest distance has
    to be removed.

    Russia has to remove one.
    Russia owns supply center St Petersburg.
    Russia has armies in Livonia and Sweden.
    Russia does not order a disband.

    The army in Sweden is removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.3")
    run.assert_expected()


def test_6_J_4(board: Board) -> None:
    """6.J.4 Civil disorder two armies with equal distance.

    If two armies have equal distance from the home supply centers, then alphabetical order is used.

    Russia has to remove one.
    Russia owns Moscow.
    Russia has armies in Livonia and Ukraine.
    Russia does not order a disband.

    Both armies have distance one. The Livonia army is removed, because it appears first in alphabetical
    order.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.4")
    run.assert_expected()


def test_6_J_5(board: Board) -> None:
    """6.J.5 Civil disorder two fleets with different distance.

    If two fleets have different distance from the home supply centers, then the fleet with the greatest
    distance has to be removed. Note that fleets cannot go over land.

    Russia has to remove one.
    Russia owns St Petersburg.
    Russia has fleets in Skagerrak and Berlin.
    Russia does not order a disband.

    The distance of the fleet in Berlin is three, the fleet in Skagerrak has distance two (via Norway).
    So, the fleet in Berlin has to be removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.5")
    run.assert_expected()


def test_6_J_6(board: Board) -> None:
    """6.J.6 Civil disorder two fleets with equal distance.

    Alphabetical order is used, when two fleets have equal distance to the home supply centers.

    Russia has to remove one.
    Russia owns Munich.
    Russia has fleets in Gulf of Bothnia and North Sea.
    Russia does not order a disband.

    Note, that in 2023 rules distance is calculated to owned supply centers (instead of home supply
    centers). Also, for distance calculations both armies and fleets can take both land and sea. Both
    distances are three. The fleet in Gulf of Bothnia is removed, because it appears first in
    alphabetical order.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.6")
    run.assert_expected()


def test_6_J_7(board: Board) -> None:
    """6.J.7 Civil disorder two fleets and army with equal distance.

    In removal, the fleet has precedence over an army. In this case there are two fleets, to make the
    test more complex.

    Russia has to remove one.
    Russia owns St Petersburg and Warsaw.
    Russia has an army in Bohemia, a fleet in Skagerrak and a fleet in the North Sea.
    Russia does not order a disband.

    The distances of the army and the fleets to one of the owned supply centers are two. The fleets take
    precedence above the army (although the army is alphabetical first). The fleet in the North Sea is
    alphabetical first, compared to Skagerrak and has to be removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.7")
    run.assert_expected()


def test_6_J_8(board: Board) -> None:
    """6.J.8 Civil disorder a fleet with shorter distance then the army.

    If the fleet has a shorter distance than the army, the army is removed.

    Russia has to remove one.
    Russia has an army in Tyrolia and a fleet in the Baltic Sea.
    Russia owns Warsaw.
    Russia does not order a disband.

    The distance of the army to Warsaw is three while the distance of the fleet is two. So, the army is
    removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.8")
    run.assert_expected()


def test_6_J_9(board: Board) -> None:
    """6.J.9 Civil disorder must be counted from both coasts.

    Distance must be calculated from both coasts.

    Russia has to remove one.
    Russia owns St Petersburg and Sevastopol.
    Russia has armies in Greece and Sevastopol and a fleet in the Baltic Sea.
    Russia does not order a disband.

    The distance of the fleet to St Petersburg(nc) is three but to St Petersburg(sc) is two. So, the
    army in Greece must be removed.

    Russia has to remove one.
    Russia owns St Petersburg and Sevastopol.
    Russia has armies in Greece and Sevastopol and a fleet in Skagerrak.
    Russia does not order a disband.

    The distance of the fleet to St Petersburg(sc) is three but to St Petersburg(nc) is two. So, the
    army in Greece must be removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.9")
    run.assert_expected()
    # The JSON encodes the first part only; the second, with the fleet in the Skagerrak:
    second = run_position(
        board,
        "W1901A",
        "RUSSIA: A GRE, A SEV, F SKA",
        {"STP": "RUSSIA", "SEV": "RUSSIA"},
    )
    assert sorted(str(u) for u in second.units.values()) == ["A SEV", "F SKA"]


def test_6_J_10(board: Board) -> None:
    """6.J.10 Civil disorder counting convoying distance.

    For calculating the distance for armies all areas must be considered.

    Italy has to remove one.
    Italy owns Naples.
    Italy has armies in Greece and Piedmont.
    Italy does not order a disband.

    The distance from Greece to owned supply center is five over land. However, for distance calculation
    it can go over water and arrive in two steps. The army in Piedmont has to be removed.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.10")
    run.assert_expected()


def test_6_J_11(board: Board) -> None:
    """6.J.11 Distance to owned supply center.

    The 2023 rules say that distance must be calculated to owned supply center instead of home supply
    center (as it was in the older rulebooks).

    Italy has to remove one.
    Italy owns Warsaw.
    Italy has armies in Warsaw and Tuscany.
    Italy does not order a disband.

    The army in Tuscany is removed and Italy will continue defending its supply center in Warsaw. Under
    older rulebooks the army in Tuscany was kept.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    """
    run = run_case(board, "6.J.11")
    run.assert_expected()
