"""DATC v3.0 section 6.I: building."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_I_1(board: Board) -> None:
    """6.I.1 Too many build orders.

    Check how program reacts when someone orders too many builds.

    Germany may build one:

    Germany:
    Build A Warsaw
    Build A Kiel
    Build A Munich

    Program should not build all three, but handle it in another way. See issue 4.D.4.

    I prefer that the build orders are just handled one by one until all allowed units are build.
    According to this preference, the build in Warsaw fails, the build in Kiel succeeds and the build in
    Munich fails.
    """
    run = run_case(board, "6.I.1")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A WAR B": ("GERMANY", Outcome.INVALID),
            "A KIE B": ("GERMANY", Outcome.SUCCESS),
            "A MUN B": ("GERMANY", Outcome.INVALID),
        }
    )


def test_6_I_2(board: Board) -> None:
    """6.I.2 Fleets cannot be build in land areas.

    Physical this is possible, but it is still not allowed.

    Russia has one build and Moscow is empty.

    Russia:
    Build F Moscow

    See issue 4.C.4. Some game masters will change the order and build an army in Moscow.

    I prefer that the build fails.
    """
    run = run_case(board, "6.I.2")
    run.assert_expected()


def test_6_I_3(board: Board) -> None:
    """6.I.3 Supply center must be empty for building.

    You can't have two units in a sector. So, you can't build when there is a unit in the supply center.

    Germany may build a unit but has an army in Berlin. Germany orders the following:

    Germany:
    Build A Berlin

    Build fails.
    """
    run = run_case(board, "6.I.3")
    run.assert_expected()


def test_6_I_4(board: Board) -> None:
    """6.I.4 Both coasts must be empty for building.

    If a sector is occupied on one coast, the other coast cannot be used for building.

    Russia may build a unit and has a fleet in St Petersburg(sc). Russia orders the following:

    Russia:
    Build A St Petersburg(nc)

    Build fails.
    """
    run = run_case(board, "6.I.4")
    run.assert_expected()


def test_6_I_5(board: Board) -> None:
    """6.I.5 Building in home supply center that is not owned.

    Building a unit is only allowed when supply center is a home supply center and is owned. If not
    owned, build fails.

    Russia captured Berlin in Fall, but left in the next year. Germany captured other supply centers,
    but without recapturing Berling it may not build in Berlin.

    Germany:
    Build A Berlin

    Build fails.
    """
    run = run_case(board, "6.I.5")
    run.assert_expected()


def test_6_I_6(board: Board) -> None:
    """6.I.6 Building in owned supply center that is not a home supply center.

    Building a unit is only allowed when supply center is a home supply center and is owned. If it is
    not a home supply center, the build fails.

    Germany owns Warsaw, Warsaw is empty and Germany may build one unit.

    Germany:
    Build A Warsaw

    Build fails.
    """
    run = run_case(board, "6.I.6")
    run.assert_expected()


def test_6_I_7(board: Board) -> None:
    """6.I.7 Only one build in a home supply center.

    If you may build two units, you can still only build one in a supply center.

    Russia owns Moscow, Moscow is empty and Russia may build two units.

    Russia:
    Build A Moscow
    Build A Moscow

    The second build should fail.
    """
    run = run_case(board, "6.I.7")
    run.assert_expected()
