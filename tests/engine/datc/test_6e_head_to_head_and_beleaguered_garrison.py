"""DATC v3.0 section 6.E: head-to-head battles and beleaguered garrison."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_E_1(board: Board) -> None:
    """6.E.1 Dislodged unit has no effect on attacker's area.

    An army can follow.

    Germany:
    A Berlin - Prussia
    F Kiel - Berlin
    A Silesia Supports A Berlin - Prussia

    Russia:
    A Prussia - Berlin

    The army in Kiel will move to Berlin.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: corrects jDip (A KIE)
    """
    run = run_case(board, "6.E.1")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A PRU - BER": ("RUSSIA", Outcome.BOUNCE),
            "F KIE - BER": ("GERMANY", Outcome.SUCCESS),
        }
    )


def test_6_E_2(board: Board) -> None:
    """6.E.2 No self dislodgement in head-to-head battle.

    Self dislodgement is not allowed. This also counts for head-to-head battles.

    Germany:
    A Berlin - Kiel
    F Kiel - Berlin
    A Munich Supports A Berlin - Kiel

    No unit will move.
    """
    run = run_case(board, "6.E.2")
    run.assert_expected()


def test_6_E_3(board: Board) -> None:
    """6.E.3 No help in dislodging own unit.

    It is not possible to help a foreign power dislodge own unit in a head-to-head battle.

    Germany:
    A Berlin - Kiel
    A Munich Supports F Kiel - Berlin

    England:
    F Kiel - Berlin

    No unit will move.
    """
    run = run_case(board, "6.E.3")
    run.assert_expected()


def test_6_E_4(board: Board) -> None:
    """6.E.4 Non-dislodged loser still has effect.

    If in an unbalanced head-to-head battle the loser is not dislodged, it still has an effect on the
    area of the attacker.

    Germany:
    F Holland - North Sea
    F Helgoland Bight Supports F Holland - North Sea
    F Skagerrak Supports F Holland - North Sea

    France:
    F North Sea - Holland
    F Belgium Supports F North Sea - Holland

    England:
    F Edinburgh Supports F Norwegian Sea - North Sea
    F Yorkshire Supports F Norwegian Sea - North Sea
    F Norwegian Sea - North Sea

    Austria:
    A Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    The French fleet in the North Sea is not dislodged due to the beleaguered garrison. Therefore, the
    Austrian army in Ruhr will not move to Holland.
    """
    run = run_case(board, "6.E.4")
    run.assert_expected()


def test_6_E_5(board: Board) -> None:
    """6.E.5 Loser dislodged by another army still has effect.

    If in an unbalanced head-to-head battle the loser is dislodged by a unit not part of the head-to-
    head battle, the loser still has an effect on the area of the winner of the head-to-head battle.

    Germany:
    F Holland - North Sea
    F Helgoland Bight Supports F Holland - North Sea
    F Skagerrak Supports F Holland - North Sea

    France:
    F North Sea - Holland
    F Belgium Supports F North Sea - Holland

    England:
    F Edinburgh Supports F Norwegian Sea - North Sea
    F Yorkshire Supports F Norwegian Sea - North Sea
    F Norwegian Sea - North Sea
    F London Supports F Norwegian Sea - North Sea

    Austria:
    A Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    The French fleet in the North Sea is dislodged but not by the German fleet in Holland. Therefore,
    the French fleet can still prevent that the Austrian army in Ruhr will move to Holland. So, the
    Austrian move in Ruhr fails and the German fleet in Holland is not dislodged.
    """
    run = run_case(board, "6.E.5")
    run.assert_expected()


def test_6_E_6(board: Board) -> None:
    """6.E.6 Not dislodge because of own support still has effect.

    If in an unbalanced head-to-head battle the loser is not dislodged because the winner had help of a
    unit of the loser, the loser still has an effect on the area of the winner.

    Germany:
    F Holland - North Sea
    F Helgoland Bight Supports F Holland - North Sea

    France:
    F North Sea - Holland
    F Belgium Supports F North Sea - Holland
    F English Channel Supports F Holland - North Sea

    Austria:
    A Kiel Supports A Ruhr - Holland
    A Ruhr - Holland

    Although the German force from Holland to North Sea is one larger than the French force from North
    Sea to Holland, the French fleet in the North Sea is not dislodged, because one of the supports on
    the German movement is French. Therefore, the Austrian army in Ruhr will not move to Holland.
    """
    run = run_case(board, "6.E.6")
    run.assert_expected()


def test_6_E_7(board: Board) -> None:
    """6.E.7 No self dislodgement with beleaguered garrison.

    An attempt at self dislodgement can be combined with a beleaguered garrison. Such self dislodgment
    is still not possible.

    England:
    F North Sea Hold
    F Yorkshire Supports F Norway - North Sea

    Germany:
    F Holland Supports F Helgoland Bight - North Sea
    F Helgoland Bight - North Sea

    Russia:
    F Skagerrak Supports F Norway - North Sea
    F Norway - North Sea

    Although the Russians beat the German attack (with the support of Yorkshire) and the two Russian
    fleets are enough to dislodge the fleet in the North Sea, the fleet in the North Sea is not
    dislodged, since it would not be dislodged if the English fleet in Yorkshire would not give support.
    This is a typical bug that can happen if a grand winner is calculated of a contested area (instead
    of calculating every move separately). Of the contested area the North Sea, the Russians are the
    grand winner with a strength of three, but this doesn't mean that they can advance.
    """
    run = run_case(board, "6.E.7")
    run.assert_expected()


def test_6_E_8(board: Board) -> None:
    """6.E.8 No self dislodgement with beleaguered garrison and head-to-head battle.

    Similar to the previous test case, but now the beleaguered fleet is also engaged in a head-to-head
    battle.

    England:
    F North Sea - Norway
    F Yorkshire Supports F Norway - North Sea

    Germany:
    F Holland Supports F Helgoland Bight - North Sea
    F Helgoland Bight - North Sea

    Russia:
    F Skagerrak Supports F Norway - North Sea
    F Norway - North Sea

    Again, none of the fleets move.
    """
    run = run_case(board, "6.E.8")
    run.assert_expected()


def test_6_E_9(board: Board) -> None:
    """6.E.9 Almost self dislodgement with beleaguered garrison.

    Similar to the previous test case, but now the beleaguered fleet is moving away.

    England:
    F North Sea - Norwegian Sea
    F Yorkshire Supports F Norway - North Sea

    Germany:
    F Holland Supports F Helgoland Bight - North Sea
    F Helgoland Bight - North Sea

    Russia:
    F Skagerrak Supports F Norway - North Sea
    F Norway - North Sea

    Both the fleet in the North Sea and the fleet in Norway move.
    """
    run = run_case(board, "6.E.9")
    run.assert_expected()


def test_6_E_10(board: Board) -> None:
    """6.E.10 Almost circular movement with no self dislodgement with beleaguered garrison.

    Similar to the previous test case, but now the beleaguered fleet is in circular movement with the
    weaker attacker. So, the circular movement fails.

    England:
    F North Sea - Denmark
    F Yorkshire Supports F Norway - North Sea

    Germany:
    F Holland Supports F Helgoland Bight - North Sea
    F Helgoland Bight - North Sea
    F Denmark - Helgoland Bight

    Russia:
    F Skagerrak Supports F Norway - North Sea
    F Norway - North Sea

    There is no movement of fleets.
    """
    run = run_case(board, "6.E.10")
    run.assert_expected()


def test_6_E_11(board: Board) -> None:
    """6.E.11 No self dislodgement with beleaguered garrison, unit swap with adjacent convoying and two
    coasts.

    Similar to the previous test case, but now the beleaguered fleet is in a unit swap with the stronger
    attacker. So, the unit swap succeeds. To make the situation more complex, the swap is on an area
    with two coasts.

    France:
    A Spain - Portugal via convoy
    F Mid-Atlantic Ocean Convoys A Spain - Portugal
    F Gulf of Lyon Supports F Portugal - Spain(nc)

    Germany:
    A Marseilles Supports A Gascony - Spain
    A Gascony - Spain

    Italy:
    F Portugal - Spain(nc)
    F Western Mediterranean Supports F Portugal - Spain(nc)

    The unit swap succeeds. Note that due to the success of the swap, there is no beleaguered garrison
    anymore.
    """
    run = run_case(board, "6.E.11")
    run.assert_expected()


def test_6_E_12(board: Board) -> None:
    """6.E.12 Support on attack on own unit can be used for other means.

    A support on an attack on your own unit still has an effect. It can prevent that another army will
    dislodge the unit.

    Austria:
    A Budapest - Rumania
    A Serbia Supports A Vienna - Budapest

    Italy:
    A Vienna - Budapest

    Russia:
    A Galicia - Budapest
    A Rumania Supports A Galicia - Budapest

    The support of Serbia on the Italian army prevents that the Russian army in Galicia will advance. No
    army will move.
    """
    run = run_case(board, "6.E.12")
    run.assert_expected()


def test_6_E_13(board: Board) -> None:
    """6.E.13 Three way beleaguered garrison.

    In a beleaguered garrison from three sides, the adjudicator may not let two attacks fail and then
    let the third succeed.

    England:
    F Edinburgh Supports F Yorkshire - North Sea
    F Yorkshire - North Sea

    France:
    F Belgium - North Sea
    F English Channel Supports F Belgium - North Sea

    Germany:
    F North Sea Hold

    Russia:
    F Norwegian Sea - North Sea
    F Norway Supports F Norwegian Sea - North Sea

    None of the fleets move. The German fleet in the North Sea is not dislodged.
    """
    run = run_case(board, "6.E.13")
    run.assert_expected()


def test_6_E_14(board: Board) -> None:
    """6.E.14 Illegal head-to-head battle can still defend.

    If in a head-to-head battle, one of the units makes an illegal move, then that unit still has the
    possibility to defend against attacks with strength of one.

    England:
    A Liverpool - Edinburgh

    Russia:
    F Edinburgh - Liverpool

    The move of the Russian fleet is illegal, but can still prevent the English army from entering
    Edinburgh. So, none of the units move.
    """
    run = run_case(board, "6.E.14")
    run.assert_expected()


def test_6_E_15(board: Board) -> None:
    """6.E.15 The friendly head-to-head battle.

    In this case each unit in the head-to-head battle prevents that the other unit from being dislodged.

    England:
    F Holland Supports A Ruhr - Kiel
    A Ruhr - Kiel

    France:
    A Kiel - Berlin
    A Munich Supports A Kiel - Berlin
    A Silesia Supports A Kiel - Berlin

    Germany:
    A Berlin - Kiel
    F Denmark Supports A Berlin - Kiel
    F Helgoland Bight Supports A Berlin - Kiel

    Russia:
    F Baltic Sea Supports A Prussia - Berlin
    A Prussia - Berlin

    None of the moves succeeds. This case is especially difficult for sequence based adjudicators. They
    will start adjudicating the head-to-head battle and continue to adjudicate the attack on one of the
    units which is part of the head-to-head battle. In this process, one of the sides of the head-to-
    head battle might be cancelled out.
    """
    run = run_case(board, "6.E.15")
    run.assert_expected()
