"""DATC v3.0 section 6.A: basic checks."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_A_1(board: Board) -> None:
    """6.A.1 Moving to an area that is not a neighbour.

    Check if an illegal move (without convoy) will fail.

    England:
    F North Sea - Picardy

    Order should fail.
    """
    run = run_case(board, "6.A.1")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F NTH - PIC": ("ENGLAND", Outcome.INVALID),
        }
    )


def test_6_A_2(board: Board) -> None:
    """6.A.2 Move army to sea.

    Check if an army could not be moved to open sea.

    England:
    A Liverpool - Irish Sea

    Order should fail.
    """
    run = run_case(board, "6.A.2")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A LVP - IRI": ("ENGLAND", Outcome.INVALID),
        }
    )


def test_6_A_3(board: Board) -> None:
    """6.A.3 Move fleet to land.

    Check whether a fleet cannot move to land.

    Germany:
    F Kiel - Munich

    Order should fail.
    """
    run = run_case(board, "6.A.3")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F KIE - MUN": ("GERMANY", Outcome.INVALID),
        }
    )


def test_6_A_4(board: Board) -> None:
    """6.A.4 Move to own sector.

    Moving to the same sector is an illegal move (2023 rulebook, page 7, "An Army can be ordered to move
    into an adjacent inland or coastal province.").

    Germany:
    F Kiel - Kiel

    Program should not crash.
    """
    run = run_case(board, "6.A.4")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F KIE - KIE": ("GERMANY", Outcome.INVALID),
        }
    )


def test_6_A_5(board: Board) -> None:
    """6.A.5 Move to own sector with convoy.

    Moving to the same sector is still illegal with convoy (2023 rulebook, page 7, "Note: An Army can
    move across water provinces from one coastal province to another...").

    England:
    F North Sea Convoys A Yorkshire - Yorkshire
    A Yorkshire - Yorkshire
    A Liverpool Supports A Yorkshire - Yorkshire

    Germany:
    F London - Yorkshire
    A Wales Supports F London - Yorkshire

    The move of the army in Yorkshire is illegal. This makes the support of Liverpool also illegal and
    without the support, the Germans have a stronger force. The army in London dislodges the army in
    Yorkshire.
    """
    run = run_case(board, "6.A.5")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A YOR - YOR": ("ENGLAND", Outcome.INVALID),
            "F NTH C A YOR - YOR": ("ENGLAND", Outcome.INVALID),
            "A LVP S A YOR - YOR": ("ENGLAND", Outcome.INVALID),
            "F LON - YOR": ("GERMANY", Outcome.SUCCESS),
        }
    )


def test_6_A_6(board: Board) -> None:
    """6.A.6 Ordering a unit of another country.

    Check whether someone cannot order a unit that is not his own unit.

    England has a fleet in London.

    Germany:
    F London - North Sea

    Order should fail.
    """
    run = run_case(board, "6.A.6")
    run.assert_expected()


def test_6_A_7(board: Board) -> None:
    """6.A.7 Only armies can be convoyed.

    A fleet cannot be convoyed.

    England:
    F London - Belgium
    F North Sea Convoys A London - Belgium

    Move from London to Belgium should fail.
    """
    run = run_case(board, "6.A.7")
    run.assert_expected()


def test_6_A_8(board: Board) -> None:
    """6.A.8 Support to hold yourself is not possible.

    An army cannot get an additional hold power by supporting itself.

    Italy:
    A Venice - Trieste
    A Tyrolia Supports A Venice - Trieste

    Austria:
    F Trieste Supports F Trieste

    The army in Trieste should be dislodged.
    """
    run = run_case(board, "6.A.8")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F TRI S F TRI": ("AUSTRIA", Outcome.INVALID),
            "A VEN - TRI": ("ITALY", Outcome.SUCCESS),
        }
    )


def test_6_A_9(board: Board) -> None:
    """6.A.9 Fleets must follow coast if not on sea.

    If two provinces are adjacent, that does not mean that a fleet can move between those two provinces.
    An implementation that only holds one list of adjacent provinces for each province is incorrect.

    Italy:
    F Rome - Venice

    Move fails. An army can go from Rome to Venice, but a fleet cannot.
    """
    run = run_case(board, "6.A.9")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F ROM - VEN": ("ITALY", Outcome.INVALID),
        }
    )


def test_6_A_10(board: Board) -> None:
    """6.A.10 Support on unreachable destination not possible.

    The destination of the move that is supported must be reachable by the supporting unit.

    Austria:
    A Venice Hold

    Italy:
    F Rome Supports A Apulia - Venice
    A Apulia - Venice

    The support of Rome is illegal, because Venice cannot be reached from Rome by a fleet. Venice is not
    dislodged.
    """
    run = run_case(board, "6.A.10")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F ROM S A APU - VEN": ("ITALY", Outcome.INVALID),
            "A APU - VEN": ("ITALY", Outcome.BOUNCE),
        }
    )


def test_6_A_11(board: Board) -> None:
    """6.A.11 Simple bounce.

    Two armies bouncing on each other.

    Austria:
    A Vienna - Tyrolia

    Italy:
    A Venice - Tyrolia

    The two units bounce.
    """
    run = run_case(board, "6.A.11")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A VIE - TYR": ("AUSTRIA", Outcome.BOUNCE),
            "A VEN - TYR": ("ITALY", Outcome.BOUNCE),
        }
    )


def test_6_A_12(board: Board) -> None:
    """6.A.12 Bounce of three units.

    If three units move to the same area, the adjudicator should not bounce the first two units and then
    let the third unit go to the now open area.

    Austria:
    A Vienna - Tyrolia

    Germany:
    A Munich - Tyrolia

    Italy:
    A Venice - Tyrolia

    The three units bounce.
    """
    run = run_case(board, "6.A.12")
    run.assert_expected()
