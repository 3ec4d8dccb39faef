"""DATC v3.0 section 6.H: retreating, cases 6.H.1 to 6.H.7."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_H_1(board: Board) -> None:
    """6.H.1 No supports during retreat.

    Supports are not allowed in the retreat phase.

    Austria:
    F Trieste Hold
    A Serbia Hold

    Turkey:
    F Greece Hold

    Italy:
    A Venice Supports A Tyrolia - Trieste
    A Tyrolia - Trieste
    F Ionian Sea - Greece
    F Aegean Sea Supports F Ionian Sea - Greece

    The fleet in Trieste and the fleet in Greece are dislodged. If the retreat orders are as follows:

    Austria:
    F Trieste - Albania
    A Serbia Supports F Trieste - Albania

    Turkey:
    F Greece - Albania

    The Austrian support order is illegal. Both dislodged fleets are disbanded.
    """
    run = run_case(board, "6.H.1")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A SER S F TRI - ALB": ("AUSTRIA", Outcome.INVALID),
            "F TRI R ALB": ("AUSTRIA", Outcome.BOUNCE),
            "F GRE R ALB": ("TURKEY", Outcome.BOUNCE),
        }
    )


def test_6_H_2(board: Board) -> None:
    """6.H.2 No supports from retreating unit.

    Even a retreating unit cannot give support.

    England:
    A Liverpool - Edinburgh
    F Yorkshire Supports A Liverpool - Edinburgh
    F Norway Hold

    Germany:
    A Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    Russia:
    F Edinburgh Hold
    A Sweden Supports A Finland - Norway
    A Finland - Norway
    F Holland Hold

    The English fleet in Norway and the Russian fleets in Edinburgh and Holland are dislodged. If the
    following retreat orders are given:

    England:
    F Norway - North Sea

    Russia:
    F Edinburgh - North Sea
    F Holland Supports F Edinburgh - North Sea

    Although the fleet in Holland may receive an order, it may not support (it is disbanded). The
    English fleet in Norway and the Russian fleet in Edinburgh bounce and are disbanded.
    """
    run = run_case(board, "6.H.2")
    run.assert_expected()


def test_6_H_3(board: Board) -> None:
    """6.H.3 No convoy during retreat.

    Convoys during retreat are not allowed.

    England:
    F North Sea Hold
    A Holland Hold

    Germany:
    F Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    The English army in Holland is dislodged. If England orders the following in retreat:

    England:
    A Holland - Yorkshire
    F North Sea Convoys A Holland - Yorkshire

    The convoy order is illegal. The army in Holland is disbanded.
    """
    run = run_case(board, "6.H.3")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F NTH C A HOL - YOR": ("ENGLAND", Outcome.INVALID),
            "A HOL R YOR": ("ENGLAND", Outcome.INVALID),
        }
    )


def test_6_H_4(board: Board) -> None:
    """6.H.4 No other moves during retreat.

    Of course, you may not do any other move during a retreat. But look if the adjudicator checks for
    it.

    England:
    F North Sea Hold
    A Holland Hold

    Germany:
    F Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    The English army in Holland is dislodged. If England orders the following in retreat:

    England:
    A Holland - Belgium
    F North Sea - Norwegian Sea

    The fleet in the North Sea is not dislodge, so the move is illegal.
    """
    run = run_case(board, "6.H.4")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F NTH R NWG": ("ENGLAND", Outcome.INVALID),
            "A HOL R BEL": ("ENGLAND", Outcome.SUCCESS),
        }
    )


def test_6_H_5(board: Board) -> None:
    """6.H.5 A unit may not retreat to the area from which it is attacked.

    Well, that would be of course stupid. Still, the adjudicator must be tested on this.

    Russia:
    F Constantinople Supports F Black Sea - Ankara
    F Black Sea - Ankara

    Turkey:
    F Ankara Hold

    Fleet in Ankara is dislodged and may not retreat to Black Sea.
    """
    run = run_case(board, "6.H.5")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F ANK R BLA": ("TURKEY", Outcome.INVALID),
        }
    )


def test_6_H_6(board: Board) -> None:
    """6.H.6 Unit may not retreat to a contested area.

    Standoff prevents retreat to the area.

    Austria:
    A Budapest Supports A Trieste - Vienna
    A Trieste - Vienna

    Germany:
    A Munich - Bohemia
    A Silesia - Bohemia

    Italy:
    A Vienna Hold

    The Italian army in Vienna is dislodged. It may not retreat to Bohemia.
    """
    run = run_case(board, "6.H.6")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A VIE R BOH": ("ITALY", Outcome.INVALID),
        }
    )


def test_6_H_7(board: Board) -> None:
    """6.H.7 Multiple retreat to same area will disband units.

    There can only be one unit in an area.

    Austria:
    A Budapest Supports A Trieste - Vienna
    A Trieste - Vienna

    Germany:
    A Munich Supports A Silesia - Bohemia
    A Silesia - Bohemia

    Italy:
    A Vienna Hold
    A Bohemia Hold

    If Italy orders the following for retreat:

    Italy:
    A Bohemia - Tyrolia
    A Vienna - Tyrolia

    Both armies will be disbanded.
    """
    run = run_case(board, "6.H.7")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A BOH R TYR": ("ITALY", Outcome.BOUNCE),
            "A VIE R TYR": ("ITALY", Outcome.BOUNCE),
        }
    )
