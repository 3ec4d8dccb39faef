"""DATC v3.0 section 6.G: convoying to adjacent provinces, cases 6.G.1 to 6.G.10."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_G_1(board: Board) -> None:
    """6.G.1 Two units can swap provinces by convoy.

    The only way to swap two units, is by convoy.

    England:
    A Norway - Sweden
    F Skagerrak Convoys A Norway - Sweden

    Russia:
    A Sweden - Norway

    If explicit adjacent convoying is used (DPTG, see issue 4.A.3), then it is just a head-to-head
    battle. However, all rulebooks (which I prefer) allow that convoy intent is given by a convoying
    fleet of same country. So, swap should happen.
    """
    run = run_case(board, "6.G.1")
    run.assert_expected()


def test_6_G_2(board: Board) -> None:
    """6.G.2 Kidnapping an army.

    Germany promised England to support to dislodge the Russian fleet in Sweden and it promised Russia
    to support to dislodge the English army in Norway. Instead, the joking German orders a convoy.

    England:
    A Norway - Sweden

    Russia:
    F Sweden - Norway

    Germany:
    F Skagerrak Convoys A Norway - Sweden

    See issue 4.A.3. If the 1971 rulebook is used, then the army in Norway is kidnapped and swaps with
    the army in Sweden. In all other rulebooks (which I prever), kidnapping is prevented and the armies
    fail to move.
    """
    run = run_case(board, "6.G.2")
    run.assert_expected()


def test_6_G_3(board: Board) -> None:
    """6.G.3 An unwanted disrupted convoy to adjacent province.

    One can try to convoy an army unwanted with a fleet that is almost certainly dislodged. However,
    this trick should not work.

    France:
    F Brest - English Channel
    A Picardy - Belgium
    A Burgundy Supports A Picardy - Belgium
    F Mid-Atlantic Ocean Supports F Brest - English Channel

    England:
    F English Channel Convoys A Picardy - Belgium

    See issue 4.A.3. The 1982/2000/2023 rulebooks (which I prefer) will only use the convoy route if
    intent is clear. The army in Picardy will successfully move by land route to Belgium. In case of the
    1971 rulebook it is less clear. However, since no unit in Belgium moves in opposite direction the
    convoy should be ignored, resulting in the same adjudication.
    """
    run = run_case(board, "6.G.3")
    run.assert_expected()


def test_6_G_4(board: Board) -> None:
    """6.G.4 An unwanted disrupted convoy to adjacent province and opposite move.

    In the situation of the previous test case, it was rather clear that the army didn't want to take
    the convoy. But what if there is an army moving in opposite direction?

    France:
    F Brest - English Channel
    A Picardy - Belgium
    A Burgundy Supports A Picardy - Belgium
    F Mid-Atlantic Ocean Supports F Brest - English Channel

    England:
    F English Channel Convoys A Picardy - Belgium
    A Belgium - Picardy

    See issue 4.A.3. In case of the 1971 rules, it is not directly clear whether the French army in
    Picardy will take the land route. However, if unwanted convoys are prevented as much as possible, it
    will not take the convoy if it is disrupted. So, the move of the army in Picardy will succeed.

    With the 1982/2000/2023 rulebooks (which I prefer) and with explicit adjacent convoying, kidnapping
    is prevented and the French army will successfully move.
    """
    run = run_case(board, "6.G.4")
    run.assert_expected()


def test_6_G_5(board: Board) -> None:
    """6.G.5 Swapping with multiple fleets with one own fleet.

    One fleet is sufficient to show the intent to convoy.

    Italy:
    A Rome - Apulia
    F Tyrrhenian Sea Convoys A Apulia - Rome

    Turkey:
    A Apulia - Rome
    F Ionian Sea Convoys A Apulia - Rome

    If explicit adjacent convoying is used (DPTG, see issue 4.A.3), then it is just a head-to-head
    battle. However, all rulebooks (which I prefer) allow that convoy intent is given by a convoying
    fleet of same country. So, the swap should happen.
    """
    run = run_case(board, "6.G.5")
    run.assert_expected()


def test_6_G_6(board: Board) -> None:
    """6.G.6 Swapping with unintended intent.

    The intent is questionable.

    England:
    A Liverpool - Edinburgh
    F English Channel Convoys A Liverpool - Edinburgh

    Germany:
    A Edinburgh - Liverpool

    France:
    F Irish Sea Hold
    F North Sea Hold

    Russia:
    F Norwegian Sea Convoys A Liverpool - Edinburgh
    F North Atlantic Ocean Convoys A Liverpool - Edinburgh

    Here England intended to convoy via the French fleets in the Irish Sea and the North Sea. However,
    the French did not order the convoy. The alternative route with the Russian fleets was unintended.
    The English fleet in the English Channel (with the convoy order) is not part of this alternative
    route with the Russian fleets.

    See issue 4.A.3.

    If the 1971 rules are used, the intent is not important and the units are swapped.

    In case of the 1982/2000/2023 rulebooks (which I prefer) England still intents to convoy and the
    armies should swap.

    When explicit adjacent convoying is used (DPTG), then the English army did not receive an order to
    move by convoy. So, it is just a head-to-head battle and both the army in Edinburgh and Liverpool
    will not move.
    """
    run = run_case(board, "6.G.6")
    run.assert_expected()


def test_6_G_7(board: Board) -> None:
    """6.G.7 Swapping with illegal intent.

    Can the intent be made clear with an impossible order?

    England:
    F Skagerrak Convoys A Sweden - Norway
    F Norway - Sweden

    Russia:
    A Sweden - Norway
    F Gulf of Bothnia Convoys A Sweden - Norway

    See issue 4.A.3 and 4.E.1.

    In case the 1971 rules are used, the intent is not important and the units in Norway and Sweden
    swap.

    With the 2023 rules (which I prefer) impossible orders are ignored. Also, with modern webbased
    adjudicators, impossible orders cannot be given at all. With this, there is no intent to convoy and
    the units in Norway and Sweden fail to move.

    If explicit adjacent convoying is used (DPTG) there is also no convoy and none of the units move.
    """
    run = run_case(board, "6.G.7")
    run.assert_expected()


def test_6_G_8(board: Board) -> None:
    """6.G.8 Explicit convoy that isn't there.

    What to do when a unit is explicitly ordered to move via convoy and the convoy is not there?

    France:
    A Belgium - Holland via convoy

    England:
    F North Sea - Helgoland Bight
    A Holland - Kiel

    The French army in Belgium intended to move convoyed with the English fleet in the North Sea. But
    England changed its plans.

    See issue 4.A.3.

    In case of 1971 or 1982 rulebook, this test case not applicable, because they don't have the notion
    of 'via convoy'.

    For the 2000/2023 rulebook and the DPTG, the question is whether the land route should be used as
    "fallback".

    As discussed in the issue, I don't prefer fallback anymore.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: no fallback to the land route: A BEL - HOL VIA fails
    """
    run = run_case(board, "6.G.8")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A BEL - HOL VIA": ("FRANCE", Outcome.NO_CONVOY),
        }
    )


def test_6_G_9(board: Board) -> None:
    """6.G.9 Swapped or dislodged?.

    In the following situation the English army in Norway will end in all cases in Sweden. But whether
    it is convoyed or not has effect on the Russian army. In case of convoy the Russian army ends in
    Norway and in case of a land route the Russian army is dislodged (see issue 4.A.3).

    England:
    A Norway - Sweden
    F Skagerrak Convoys A Norway - Sweden
    F Finland Supports A Norway - Sweden

    Russia:
    A Sweden - Norway

    If played according to the DPTG, then an army is only convoyed to an adjacent province if it is
    tagged with "via convoy". This means that the Russian army in Sweden is dislodged by the army from
    Norway.

    If played according to any of the rulebooks (which I prefer) then the move of Norway is via convoy
    and the armies swap.
    """
    run = run_case(board, "6.G.9")
    run.assert_expected()


def test_6_G_10(board: Board) -> None:
    """6.G.10 Swapped or an head-to-head battle?.

    Can a dislodged unit have effect on the attacker's area, when the attacker moved by convoy?

    England:
    A Norway - Sweden via convoy
    F Denmark Supports A Norway - Sweden
    F Finland Supports A Norway - Sweden

    Germany:
    F Skagerrak Convoys A Norway - Sweden

    Russia:
    A Sweden - Norway
    F Barents Sea Supports A Sweden - Norway

    France:
    F Norwegian Sea - Norway
    F North Sea Supports F Norwegian Sea - Norway

    Since England ordered the army in Norway to move explicitly via convoy and the army in Sweden is
    moving in opposite direction, there is no head-to-head battle. It is clear that the army in Norway
    will dislodge the Russian army in Sweden. Since the strength of three is in all cases the strongest
    force.

    The army in Sweden will not advance to Norway, because it cannot beat the force in the Norwegian
    Sea. It will be dislodged by the army from Norway.

    The more interesting question is whether the French fleet in the Norwegian Sea is bounced by the
    Russian army from Sweden. This depends on the interpretation of issue 4.A.7. If the rulebook is
    taken literally (choice a), then a dislodged unit cannot bounce a unit in the area where the
    attacker came from. This would mean that the move of the fleet in the Norwegian Sea succeeds.
    However, if choice b is taken (which I prefer), then a bounce is still possible, when there is no
    head-to-head battle. So, the fleet in the Norwegian Sea will fail to move.
    """
    run = run_case(board, "6.G.10")
    run.assert_expected()
