"""DATC v3.0 section 6.H: retreating, cases 6.H.8 to 6.H.16."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_H_8(board: Board) -> None:
    """6.H.8 Triple retreat to same area will disband units.

    When three units retreat to the same area, then all three units are disbanded.

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

    The fleets in Norway, Edinburgh and Holland are dislodged. If the following retreat orders are
    given:

    England:
    F Norway - North Sea

    Russia:
    F Edinburgh - North Sea
    F Holland - North Sea

    All three units are disbanded.
    """
    run = run_case(board, "6.H.8")
    run.assert_expected()


def test_6_H_9(board: Board) -> None:
    """6.H.9 Dislodged unit will not make attackers area contested.

    An army can follow.

    England:
    F Helgoland Bight - Kiel
    F Denmark Supports F Helgoland Bight - Kiel

    Germany:
    A Berlin - Prussia
    F Kiel Hold
    A Silesia Supports A Berlin - Prussia

    Russia:
    A Prussia - Berlin

    The fleet in Kiel can retreat to Berlin.
    """
    run = run_case(board, "6.H.9")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F KIE R BER": ("GERMANY", Outcome.SUCCESS),
        }
    )


def test_6_H_10(board: Board) -> None:
    """6.H.10 Not retreating to attacker does not mean contested.

    An army cannot retreat to the area of the attacker. The easiest way to program that, is to mark that
    area as "contested". However, this is not correct. Another army may retreat to that area.

    England:
    A Kiel Hold

    Germany:
    A Berlin - Kiel
    A Munich Supports A Berlin - Kiel
    A Prussia Hold

    Russia:
    A Warsaw - Prussia
    A Silesia Supports A Warsaw - Prussia

    The armies in Kiel and Prussia are dislodged. The English army in Kiel cannot retreat to Berlin, but
    the army in Prussia can retreat to Berlin. Suppose the following retreat orders are given:

    England:
    A Kiel - Berlin

    Germany:
    A Prussia - Berlin

    The English retreat to Berlin is illegal and fails (the unit is disbanded). The German retreat to
    Berlin is successful and does not bounce on the English unit.
    """
    run = run_case(board, "6.H.10")
    run.assert_expected()


def test_6_H_11(board: Board) -> None:
    """6.H.11 Retreat when dislodged by adjacent convoy.

    If a unit is dislodged by an army via convoy, the question arises whether the dislodged army can
    retreat to the original province of the convoyed army. This is only relevant in case the convoy was
    to an adjacent province.

    France:
    A Gascony - Marseilles via convoy
    A Burgundy Supports A Gascony - Marseilles
    F Mid-Atlantic Ocean Convoys A Gascony - Marseilles
    F Western Mediterranean Convoys A Gascony - Marseilles
    F Gulf of Lyon Convoys A Gascony - Marseilles

    Italy:
    A Marseilles Hold

    The army in Gascony takes a convoy and does not pass the border of Gascony with Marseilles (it went
    a completely different direction). Now, the result depends on which rule is used for retreating (see
    issue 4.A.5).

    The 2023 rules explicitly allow this. So, I prefer that Marseilles may retreat to Gascony.
    """
    run = run_case(board, "6.H.11")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A MAR R GAS": ("ITALY", Outcome.SUCCESS),
        }
    )


def test_6_H_12(board: Board) -> None:
    """6.H.12 Retreat when dislodged by adjacent convoy while trying to do the same.

    The previous test case can be made more extra ordinary, when both armies tried to move by convoy.

    England:
    A Liverpool - Edinburgh via convoy
    F Irish Sea Convoys A Liverpool - Edinburgh
    F English Channel Convoys A Liverpool - Edinburgh
    F North Sea Convoys A Liverpool - Edinburgh

    France:
    F Brest - English Channel
    F Mid-Atlantic Ocean Supports F Brest - English Channel

    Russia:
    A Edinburgh - Liverpool via convoy
    F Norwegian Sea Convoys A Edinburgh - Liverpool
    F North Atlantic Ocean Convoys A Edinburgh - Liverpool
    A Clyde Supports A Edinburgh - Liverpool

    Both the army in Liverpool as in Edinburgh will try to move by convoy. The army in Edinburgh will
    succeed. The army in Liverpool will fail, because of the disrupted convoy. It is dislodged by the
    army of Edinburgh. Now, the question is whether the army in Liverpool may retreat to Edinburgh. The
    result depends on which rule is used for retreating (see issue 4.A.5).

    The 2023 rules, which I prefer, explicitly allow that the army in Liverpool may retreat to
    Edinburgh.
    """
    run = run_case(board, "6.H.12")
    run.assert_expected()


def test_6_H_13(board: Board) -> None:
    """6.H.13 No retreat with convoy in movement phase.

    The areas where a unit may retreat to, must be determined during the movement phase. Care should be
    taken that a convoy ordered in the movement phase cannot be used in the retreat phase.

    England:
    A Picardy Hold
    F English Channel Convoys A Picardy - London

    France:
    A Paris - Picardy
    A Brest Supports A Paris - Picardy

    The dislodged army in Picardy cannot retreat to London.
    """
    run = run_case(board, "6.H.13")
    run.assert_expected()


def test_6_H_14(board: Board) -> None:
    """6.H.14 No retreat with support in movement phase.

    Comparable to the previous test case, a support given in the movement phase cannot be used in the
    retreat phase.

    England:
    A Picardy Hold
    F English Channel Supports A Picardy - Belgium

    France:
    A Paris - Picardy
    A Brest Supports A Paris - Picardy
    A Burgundy Hold

    Germany:
    A Munich Supports A Marseilles - Burgundy
    A Marseilles - Burgundy

    After the movement phase the following retreat orders are given:

    England:
    A Picardy - Belgium

    France:
    A Burgundy - Belgium

    Both the army in Picardy and Burgundy are disbanded.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: after the retreat phase; corrects jDip (attackers listed at origin)
    """
    run = run_case(board, "6.H.14")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A PIC R BEL": ("ENGLAND", Outcome.BOUNCE),
            "A BUR R BEL": ("FRANCE", Outcome.BOUNCE),
        }
    )


def test_6_H_15(board: Board) -> None:
    """6.H.15 No coastal crawl in retreat.

    You cannot go to the other coast from where the attacker came from.

    England:
    F Portugal Hold

    France:
    F Spain(sc) - Portugal
    F Mid-Atlantic Ocean Supports F Spain(sc) - Portugal

    The English fleet in Portugal is destroyed and cannot retreat to Spain(nc).

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    JSON note: after the retreat phase; corrects jDip (attacker listed at origin)
    """
    run = run_case(board, "6.H.15")
    run.assert_expected()


def test_6_H_16(board: Board) -> None:
    """6.H.16 Contested for both coasts.

    If a coast is contested, the other is not available for retreat.

    France:
    F Mid-Atlantic Ocean - Spain(nc)
    F Gascony - Spain(nc)
    F Western Mediterranean Hold

    Italy:
    F Tunis Supports F Tyrrhenian Sea - Western Mediterranean
    F Tyrrhenian Sea - Western Mediterranean

    The French fleet in the Western Mediterranean cannot retreat to Spain(sc).
    """
    run = run_case(board, "6.H.16")
    run.assert_expected()
