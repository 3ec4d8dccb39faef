"""DATC v3.0 section 6.G: convoying to adjacent provinces, cases 6.G.11 to 6.G.20."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_G_11(board: Board) -> None:
    """6.G.11 A convoy to an adjacent province with a paradox.

    In this case the convoy route is available when the land route is chosen and the convoy route is not
    available when the convoy route is chosen.

    England:
    F Norway Supports F North Sea - Skagerrak
    F North Sea - Skagerrak

    Russia:
    A Sweden - Norway
    F Skagerrak Convoys A Sweden - Norway
    F Barents Sea Supports A Sweden - Norway

    See issue 4.A.2 and 4.A.3.

    In case of the 1971 rulebook the move from Sweden to Norway is not a convoy (because Norway is not
    moving in opposite direction) and the English fleet in Norway is dislodged and the fleet in
    Skagerrak will not be dislodged.

    In case of the 1982/2000/2023 rulebook, the question arises whether the land route is the fallback
    of the convoy route. If not, then this is just the most simple convoy paradox. The fleet in
    Skagerrak is dislodged and the army in Sweden will not advance.

    In case fallback is possible, then the convoy is available when the land route is taken, but not
    otherwise.

    I prefer no fallback. That means that according to these preferences the fleet in the North Sea will
    dislodge the Russian fleet in Skagerrak and the army in Sweden will not advance.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: no fallback: simple convoy paradox, Szykman; F SKA dislodged, A SWE stays
    """
    run = run_case(board, "6.G.11")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A SWE - NWY": ("RUSSIA", Outcome.NO_CONVOY),
            "F SKA C A SWE - NWY": ("RUSSIA", Outcome.VOID),
            "F NTH - SKA": ("ENGLAND", Outcome.SUCCESS),
        }
    )


def test_6_G_12(board: Board) -> None:
    """6.G.12 Swapping two units with two convoys.

    Of course, two armies can also swap by when they are both convoyed.

    England:
    A Liverpool - Edinburgh via convoy
    F North Atlantic Ocean Convoys A Liverpool - Edinburgh
    F Norwegian Sea Convoys A Liverpool - Edinburgh

    Germany:
    A Edinburgh - Liverpool via convoy
    F North Sea Convoys A Edinburgh - Liverpool
    F English Channel Convoys A Edinburgh - Liverpool
    F Irish Sea Convoys A Edinburgh - Liverpool

    The armies in Liverpool and Edinburgh are swapped.
    """
    run = run_case(board, "6.G.12")
    run.assert_expected()


def test_6_G_13(board: Board) -> None:
    """6.G.13 Support cut on attack on itself via convoy.

    If a unit is attacked by a supported unit, it is not possible to prevent dislodgement by trying to
    cut the support. But what, if a move is attempted via a convoy?

    Austria:
    F Adriatic Sea Convoys A Trieste - Venice
    A Trieste - Venice via convoy

    Italy:
    A Venice Supports F Albania - Trieste
    F Albania - Trieste

    First it should be mentioned that if for issue 4.A.3 the 1971 rulebook is chosen, the move from
    Trieste to Venice is just a move over land (because Venice does not move in opposite direction). In
    that case, the support of Venice will not be cut as normal.

    For the 1982/2000/2023 rulebooks the attack is via convoy and it should be decided whether the
    Austrian attack is considered to be coming from Trieste or from the Adriatic Sea. If it comes from
    Trieste, the support in Venice is not cut and the army in Trieste is dislodged by the fleet in
    Albania. If the Austrian attack is considered to be coming from the Adriatic Sea, then the support
    is cut and the army in Trieste will not be dislodged. See also issue 4.A.4.

    First of all, I prefer the 2023 rules for adjacent convoying, meaning that the move from Trieste
    uses the convoy. Furthermore, I think that the two Italian units are still stronger than the army in
    Trieste. Therefore, I prefer that the support in Venice is not cut and that the army in Trieste is
    dislodged by the fleet in Albania.
    """
    run = run_case(board, "6.G.13")
    run.assert_expected()


def test_6_G_14(board: Board) -> None:
    """6.G.14 Bounce by convoy to adjacent province.

    Similar to test case 6.G.10, but now the other unit is taking the convoy.

    England:
    A Norway - Sweden
    F Denmark Supports A Norway - Sweden
    F Finland Supports A Norway - Sweden

    France:
    F Norwegian Sea - Norway
    F North Sea Supports F Norwegian Sea - Norway

    Germany:
    F Skagerrak Convoys A Sweden - Norway

    Russia:
    A Sweden - Norway via convoy
    F Barents Sea Supports A Sweden - Norway

    Again, the army in Sweden is bounced by the fleet in the Norwegian Sea. The army in Norway will move
    to Sweden and dislodge the Russian army.

    The final destination of the fleet in the Norwegian Sea depends on how issue 4.A.7 is resolved. If
    choice a is taken, then the fleet advances to Norway, but if choice b is taken (which I prefer) the
    fleet bounces and stays in the Norwegian Sea.
    """
    run = run_case(board, "6.G.14")
    run.assert_expected()


def test_6_G_15(board: Board) -> None:
    """6.G.15 Bounce and dislodge with double convoy.

    Similar to test case 6.G.10, but now both units use a convoy and without some support.

    England:
    F North Sea Convoys A London - Belgium
    A Holland Supports A London - Belgium
    A Yorkshire - London
    A London - Belgium via convoy

    France:
    F English Channel Convoys A Belgium - London
    A Belgium - London via convoy

    The French army in Belgium is bounced by the army from Yorkshire. The army in London move to
    Belgium, dislodging the unit there.

    The final destination of the army in the Yorkshire depends on how issue 4.A.7 is resolved. If choice
    a is taken, then the army advances to London, but if choice b is taken (which I prefer) the army
    bounces and stays in Yorkshire.
    """
    run = run_case(board, "6.G.15")
    run.assert_expected()


def test_6_G_16(board: Board) -> None:
    """6.G.16 The two unit in one area bug, moving by convoy.

    If the adjudicator is not correctly implemented, this may lead to a resolution where two units end
    up in the same area.

    England:
    A Norway - Sweden
    A Denmark Supports A Norway - Sweden
    F Baltic Sea Supports A Norway - Sweden
    F North Sea - Norway

    Russia:
    A Sweden - Norway via convoy
    F Skagerrak Convoys A Sweden - Norway
    F Norwegian Sea Supports A Sweden - Norway

    See decision details 5.B.6. If the 'PREVENT STRENGTH' is incorrectly implemented, due to the fact
    that it does not take into account that the 'PREVENT STRENGTH' is only zero when the unit is engaged
    in a head-to-head battle, then this goes wrong in this test case. The 'PREVENT STRENGTH' of Sweden
    would be zero, because the opposing unit in Norway successfully moves. Since, this strength would be
    zero, the fleet in the North Sea would move to Norway. However, although the 'PREVENT STRENGTH' is
    zero, the army in Sweden would also move to Norway. So, the final result would contain two units
    that successfully moved to Norway.

    Of course, this is incorrect. Norway will indeed successfully move to Sweden while the army in
    Sweden ends in Norway, because it is stronger than the fleet in the North Sea. This fleet will stay
    in the North Sea.
    """
    run = run_case(board, "6.G.16")
    run.assert_expected()


def test_6_G_17(board: Board) -> None:
    """6.G.17 The two unit in one area bug, moving over land.

    Similar to the previous test case, but now the other unit moves by convoy.

    England:
    A Norway - Sweden via convoy
    A Denmark Supports A Norway - Sweden
    F Baltic Sea Supports A Norway - Sweden
    F Skagerrak Convoys A Norway - Sweden
    F North Sea - Norway

    Russia:
    A Sweden - Norway
    F Norwegian Sea Supports A Sweden - Norway

    Sweden and Norway are swapped, while the fleet in the North Sea will bounce.
    """
    run = run_case(board, "6.G.17")
    run.assert_expected()


def test_6_G_18(board: Board) -> None:
    """6.G.18 The two unit in one area bug, with double convoy.

    Similar to the previous test case, but now both units move by convoy.

    England:
    F North Sea Convoys A London - Belgium
    A Holland Supports A London - Belgium
    A Yorkshire - London
    A London - Belgium
    A Ruhr Supports A London - Belgium

    France:
    F English Channel Convoys A Belgium - London
    A Belgium - London
    A Wales Supports A Belgium - London

    Belgium and London are swapped, while the army in Yorkshire fails to move to London.
    """
    run = run_case(board, "6.G.18")
    run.assert_expected()


def test_6_G_19(board: Board) -> None:
    """6.G.19 Swapping with intent of unnecessary convoy.

    Can the intent made clear by the order of a fleet that is not necessary?

    France:
    A Marseilles - Spain
    F Western Mediterranean Convoys A Marseilles - Spain

    Italy:
    F Gulf of Lyon Convoys A Marseilles - Spain
    A Spain - Marseilles

    See issue 4.A.3 and 4.E.1.

    In case the 1971 rules are used, the intent is not important and the units in Marseilles and Spain
    swap.

    The point of interest is that there is a convoy route from Marseilles, Gulf of Lyon, Western
    Mediterranean to Spain. However, the fleet in Western Mediterranean is not necessary for this convoy
    and not necessary for any other convoy route. Therefore, this order should be considered illegal.
    Webbased adjudicators should not give this order as an option.

    With the 2023 rules (which I prefer) illegal orders are ignored. The fleet in Gulf of Lyon is
    foreign and foreign units cannot express intent. With this, there is no intent to convoy and the
    units in Marseilles and Spain fail to move.

    If explicit adjacent convoying is used (DPTG) there is also no convoy and none of the units move.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: F WES convoy is illegal (not needed for any route); foreign F LYO cannot give intent;
    MAR-SPA and SPA-MAR go by land and bounce
    """
    run = run_case(board, "6.G.19")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F WES C A MAR - SPA": ("FRANCE", Outcome.INVALID),
            "F LYO C A MAR - SPA": ("ITALY", Outcome.VOID),
            "A MAR - SPA": ("FRANCE", Outcome.BOUNCE),
            "A SPA - MAR": ("ITALY", Outcome.BOUNCE),
        }
    )


def test_6_G_20(board: Board) -> None:
    """6.G.20 Explicit convoy to adjacent province disrupted.

    If a move to adjacent province was explicit via convoy, and the convoy is disrupted, should it fall
    back to the land route?

    France:
    F Brest - English Channel
    A Picardy - Belgium via Convoy
    A Burgundy Supports A Picardy - Belgium
    F Mid-Atlantic Ocean Supports F Brest - English Channel

    England:
    F English Channel Convoys A Picardy - Belgium

    This situation is not applicable for the 1971 and 1982 rulebooks, because they don't have the notion
    of 'via convoy'.

    For the 2000/2023 rulebook the question arises whether the army in Picardy will fall back to the
    land route, since the convoy route is disrupted. See issue 4.A.3.

    I don't prefer the fallback anymore. So, the move of Picardy fails.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: no fallback to land route: A PIC stays
    """
    run = run_case(board, "6.G.20")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A PIC - BEL VIA": ("FRANCE", Outcome.NO_CONVOY),
            "F BRE - ENG": ("FRANCE", Outcome.SUCCESS),
        }
    )
