"""DATC v3.0 section 6.D: supports and dislodges, cases 6.D.19 to 6.D.34."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_D_19(board: Board) -> None:
    """6.D.19 Even when surviving is in alternative way.

    Now, the dislodgement is prevented because the support comes from a Russian army:

    Russia:
    F Constantinople Supports F Black Sea - Ankara
    F Black Sea - Ankara
    A Smyrna Supports F Ankara - Constantinople

    Turkey:
    F Ankara - Constantinople

    The Russian fleet in Constantinople is not dislodged, because one of the supports is of Russian
    origin. The support from Black Sea to Ankara will sustain and the fleet in Ankara will be dislodged.
    """
    run = run_case(board, "6.D.19")
    run.assert_expected()


def test_6_D_20(board: Board) -> None:
    """6.D.20 Unit cannot cut support of its own country.

    Although this is not mentioned in all rulebooks, it is generally accepted that when a unit attacks
    another unit of the same Great Power, it will not cut support.

    England:
    F London Supports F North Sea - English Channel
    F North Sea - English Channel
    A Yorkshire - London

    France:
    F English Channel Hold

    The army in York does not cut support. This means that the fleet in the English Channel is dislodged
    by the fleet in the North Sea.
    """
    run = run_case(board, "6.D.20")
    run.assert_expected()


def test_6_D_21(board: Board) -> None:
    """6.D.21 Dislodging does not cancel a support cut.

    Sometimes there is the question whether a dislodged moving unit does not cut support (similar to the
    dislodge rule). This is not the case.

    Austria:
    F Trieste Hold

    Italy:
    A Venice - Trieste
    A Tyrolia Supports A Venice - Trieste

    Germany:
    A Munich - Tyrolia

    Russia:
    A Silesia - Munich
    A Berlin Supports A Silesia - Munich

    Although the German army is dislodged, it still cuts the Italian support. That means that the
    Austrian Fleet is not dislodged.
    """
    run = run_case(board, "6.D.21")
    run.assert_expected()


def test_6_D_22(board: Board) -> None:
    """6.D.22 Impossible fleet move cannot be supported.

    If a fleet tries moves to a land area it seems pointless to support the fleet, since the move will
    fail anyway. However, in such case, the support is also invalid for defense purposes.

    Germany:
    F Kiel - Munich
    A Burgundy Supports F Kiel - Munich

    Russia:
    A Munich - Kiel
    A Berlin Supports A Munich - Kiel

    The German move from Kiel to Munich is illegal (fleets cannot go to Munich). Illegal orders are
    fully ignored which makes the support from Burgundy also illegal. The Russian army in Munich will
    dislodge the fleet in Kiel.
    """
    run = run_case(board, "6.D.22")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F KIE - MUN": ("GERMANY", Outcome.INVALID),
            "A BUR S F KIE - MUN": ("GERMANY", Outcome.INVALID),
        }
    )


def test_6_D_23(board: Board) -> None:
    """6.D.23 Impossible coast move cannot be supported.

    Comparable with the previous test case, but now the fleet move is impossible for coastal reasons.

    Italy:
    F Gulf of Lyon - Spain(sc)
    F Western Mediterranean Supports F Gulf of Lyon - Spain(sc)

    France:
    F Spain(nc) - Gulf of Lyon
    F Marseilles Supports F Spain(nc) - Gulf of Lyon

    The French move from Spain North Coast to Gulf of Lyon is illegal (wrong coast). Therefore, the
    support from Marseilles fails and the fleet in Spain is dislodged.
    """
    run = run_case(board, "6.D.23")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F SPA/NC - LYO": ("FRANCE", Outcome.INVALID),
            "F MAR S F SPA/NC - LYO": ("FRANCE", Outcome.INVALID),
        }
    )


def test_6_D_24(board: Board) -> None:
    """6.D.24 Impossible army move cannot be supported.

    Comparable with the previous test case, but now an army tries to move into sea and the support is
    used in a beleaguered garrison.

    France:
    A Marseilles - Gulf of Lyon
    F Spain(sc) Supports A Marseilles - Gulf of Lyon

    Italy:
    F Gulf of Lyon Hold

    Turkey:
    F Tyrrhenian Sea Supports F Western Mediterranean - Gulf of Lyon
    F Western Mediterranean - Gulf of Lyon

    The French move from Marseilles to Gulf of Lyon is illegal (an army cannot go to sea). Therefore,
    the support from Spain fails and there is no beleaguered garrison. The fleet in the Gulf of Lyon is
    dislodged by the Turkish fleet in the Western Mediterranean.
    """
    run = run_case(board, "6.D.24")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A MAR - LYO": ("FRANCE", Outcome.INVALID),
            "F SPA/SC S A MAR - LYO": ("FRANCE", Outcome.INVALID),
        }
    )


def test_6_D_25(board: Board) -> None:
    """6.D.25 Failing hold support can be supported.

    If an adjudicator fails on one of the previous three test cases, then the bug should be removed with
    care. A failing move cannot be supported, but a failing hold support, because of some preconditions
    (unmatching order) can still be supported.

    Germany:
    A Berlin Supports A Prussia
    F Kiel Supports A Berlin

    Russia:
    F Baltic Sea Supports A Prussia - Berlin
    A Prussia - Berlin

    Although the support of Berlin on Prussia fails (because of unmatching orders), the support of Kiel
    on Berlin is still valid. So, Berlin will not be dislodged.
    """
    run = run_case(board, "6.D.25")
    run.assert_expected()


def test_6_D_26(board: Board) -> None:
    """6.D.26 Failing move support can be supported.

    Similar as the previous test case, but now with an unmatched support to move.

    Germany:
    A Berlin Supports A Prussia - Silesia
    F Kiel Supports A Berlin

    Russia:
    F Baltic Sea Supports A Prussia - Berlin
    A Prussia - Berlin

    Again, Berlin will not be dislodged.
    """
    run = run_case(board, "6.D.26")
    run.assert_expected()


def test_6_D_27(board: Board) -> None:
    """6.D.27 Failing convoy can be supported.

    Similar as the previous test case, but now with an unmatched convoy.

    England:
    F Sweden - Baltic Sea
    F Denmark Supports F Sweden - Baltic Sea

    Germany:
    A Berlin Hold

    Russia:
    F Baltic Sea Convoys A Berlin - Livonia
    F Prussia Supports F Baltic Sea

    The convoy order in the Baltic Sea is unmatched and fails. However, the support of Prussia on the
    Baltic Sea is still valid and the fleet in the Baltic Sea is not dislodged.
    """
    run = run_case(board, "6.D.27")
    run.assert_expected()


def test_6_D_28(board: Board) -> None:
    """6.D.28 Impossible move and support.

    An impossible move is "illegal" and should be ignored.

    Austria:
    A Budapest Supports F Rumania

    Russia:
    F Rumania - Holland

    Turkey:
    F Black Sea - Rumania
    A Bulgaria Supports F Black Sea - Rumania

    See issue 4.E.1. Illegal orders are ignored. Without an order, Rumania holds and receives support.
    The fleet in Rumania is not dislodged.
    """
    run = run_case(board, "6.D.28")
    run.assert_expected()


def test_6_D_29(board: Board) -> None:
    """6.D.29 Move to impossible coast and support.

    Similar to the previous test case, but now the move "illegal" due the wrong coast.

    Austria:
    A Budapest Supports F Rumania

    Russia:
    F Rumania - Bulgaria(sc)

    Turkey:
    F Black Sea - Rumania
    A Bulgaria Supports F Black Sea - Rumania

    See issue 4.E.1. Illegal orders are ignored. Without an order, Rumania holds and receives support.
    The fleet in Rumania is not dislodged.
    """
    run = run_case(board, "6.D.29")
    run.assert_expected()


def test_6_D_30(board: Board) -> None:
    """6.D.30 Move without coast and support.

    Similar to the previous test case, but now the move is "illegal" due to missing coast.

    Italy:
    F Aegean Sea Supports F Constantinople

    Russia:
    F Constantinople - Bulgaria

    Turkey:
    F Black Sea - Constantinople
    A Bulgaria Supports F Black Sea - Constantinople

    See issue 4.E.1. Illegal orders are ignored. Without an order, Constantinople holds and receives
    support. The fleet in Constantinople is not dislodged.
    """
    run = run_case(board, "6.D.30")
    run.assert_expected()


def test_6_D_31(board: Board) -> None:
    """6.D.31 A tricky impossible support.

    A support order can be impossible for complex reasons.

    Austria:
    A Rumania - Armenia

    Turkey:
    F Black Sea Supports A Rumania - Armenia

    Although the army in Rumania can move to Armenia and the fleet in the Black Sea can also go to
    Armenia, the support is still not possible. The reason is that the only possible convoy is through
    the Black Sea and a fleet cannot convoy and support at the same time.

    This is relevant for computer programs that show only the possible orders. In the list of possible
    orders, the support as given to the fleet in the Black Sea, should not be listed.

    Furthermore, the support order should be judged to be illegal, meaning that it is completely
    ignored. If there is a second order for the Black Sea, that order should be executed (see issue
    4.E.1).
    """
    run = run_case(board, "6.D.31")
    run.assert_expected()


def test_6_D_32(board: Board) -> None:
    """6.D.32 A missing fleet.

    The previous test cases contained an order that was impossible even when some other pieces on the
    board where changed. In this test case, the order is impossible, but only for that situation.

    England:
    F Edinburgh Supports A Liverpool - Yorkshire
    A Liverpool - Yorkshire

    France:
    F London Supports A Yorkshire

    Germany:
    A Yorkshire - Holland

    The German order to Yorkshire cannot be executed, because there is no fleet in the North Sea. In
    other situations (where there is a fleet in the North Sea), the exact same order would be possible.
    This is considered "illegal" (see issue 4.E.1). The order should be ignored and the support of the
    French fleet in London succeeds. This means that the army in Yorkshire is not dislodged.
    """
    run = run_case(board, "6.D.32")
    run.assert_expected()


def test_6_D_33(board: Board) -> None:
    """6.D.33 Unwanted support allowed.

    A self standoff can be broken by an unwanted support.

    Austria:
    A Serbia - Budapest
    A Vienna - Budapest

    Russia:
    A Galicia Supports A Serbia - Budapest

    Turkey:
    A Bulgaria - Serbia

    Due to the Russian support, the army in Serbia advances to Budapest. This enables Turkey to capture
    Serbia with the army in Bulgaria.
    """
    run = run_case(board, "6.D.33")
    run.assert_expected()


def test_6_D_34(board: Board) -> None:
    """6.D.34 Support targeting own area not allowed.

    Support targeting the area where the supporting unit is standing, is illegal.

    Germany:
    A Berlin - Prussia
    A Silesia Supports A Berlin - Prussia
    F Baltic Sea Supports A Berlin - Prussia

    Italy:
    A Prussia Supports Livonia - Prussia

    Russia:
    A Warsaw Supports A Livonia - Prussia
    A Livonia - Prussia

    Russia and Italy wanted to get rid of the Italian army in Prussia (to build an Italian fleet
    somewhere else). However, they didn't want a possible German attack on Prussia to succeed. They
    invented this odd order of Italy. It was intended that the attack of the army in Livonia would have
    strength three, so it would be capable to prevent the possible German attack to succeed. However,
    the order of Italy is illegal, because a unit may only support to an area where the unit can go by
    itself. A unit can't go to the area it is already standing, so the Italian order is illegal and the
    German move from Berlin succeeds. Even if it would be legal, the German move from Berlin would still
    succeed, because the support of Prussia is cut by Livonia and Berlin.
    """
    run = run_case(board, "6.D.34")
    run.assert_expected()
