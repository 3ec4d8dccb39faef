"""DATC v3.0 section 6.F: convoys, cases 6.F.16 to 6.F.25."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_F_16(board: Board) -> None:
    """6.F.16 Pandin's paradox.

    In Pandin's paradox, the attacked unit protects the convoying fleet by a beleaguered garrison.

    England:
    F London Supports F Wales - English Channel
    F Wales - English Channel

    France:
    A Brest - London
    F English Channel Convoys A Brest - London

    Germany:
    F North Sea Supports F Belgium - English Channel
    F Belgium - English Channel

    See issue 4.A.2

    According to all rulebooks (including the Szykman rule which I prefer), the support of London is not
    cut. That means that the fleet in the English Channel is not dislodged and none of the units succeed
    to move.
    """
    run = run_case(board, "6.F.16")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F WAL - ENG": ("ENGLAND", Outcome.BOUNCE),
            "F BEL - ENG": ("GERMANY", Outcome.BOUNCE),
            "F LON S F WAL - ENG": ("ENGLAND", Outcome.SUCCESS),
        }
    )


def test_6_F_17(board: Board) -> None:
    """6.F.17 Pandin's extended paradox.

    In Pandin's extended paradox, the attacked unit protects the convoying fleet by a beleaguered
    garrison and the attacked unit can dislodge the unit that gives the protection.

    England:
    F London Supports F Wales - English Channel
    F Wales - English Channel

    France:
    A Brest - London
    F English Channel Convoys A Brest - London
    F Yorkshire Supports A Brest - London

    Germany:
    F North Sea Supports F Belgium - English Channel
    F Belgium - English Channel

    When the 1971/1982/2000/2023 rules are used (see issue 4.A.2), the support of London is not cut.
    That means that the fleet in the English Channel is not dislodged. The convoy will succeed and
    dislodge the fleet in London. One can argue that this violates the dislodge rule, but one may assume
    that the paradox convoy rule take precedence over the dislodge rule.

    If the Simon Szykman alternative is used (which I prefer), the convoy fails and the fleet in London
    and the English Channel are not dislodged (which I think is a more appealing adjudication).
    """
    run = run_case(board, "6.F.17")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A BRE - LON": ("FRANCE", Outcome.NO_CONVOY),
            "F ENG C A BRE - LON": ("FRANCE", Outcome.VOID),
        }
    )


def test_6_F_18(board: Board) -> None:
    """6.F.18 Betrayal paradox.

    The betrayal paradox is comparable to Pandin's paradox, but now the attacked unit directly supports
    the convoying fleet. Of course, this will only happen when the player of the attacked unit is
    betrayed.

    England:
    F North Sea Convoys A London - Belgium
    A London - Belgium
    F English Channel Supports A London - Belgium

    France:
    F Belgium Supports F North Sea

    Germany:
    F Helgoland Bight Supports F Skagerrak - North Sea
    F Skagerrak - North Sea

    If the English convoy from London to Belgium is successful, then it cuts the France support
    necessary to hold the fleet in the North Sea (see issue 4.A.2).

    The 1971, 2000 and 2023 rules do not give an answer on this.

    According to the 1982 rules the French support on the North Sea will not be cut. So, the fleet in
    the North Sea will not be dislodged by the Germans and the army in London will dislodge the French
    army in Belgium.

    If the Szykman rule is followed (which I prefer), the convoy in the English Channel fails. Without
    the convoy, the move of the army in London will fail and the support in Belgium will not be cut.
    That means that the fleet in the North Sea will not be dislodged.
    """
    run = run_case(board, "6.F.18")
    run.assert_expected()


def test_6_F_19(board: Board) -> None:
    """6.F.19 Multi-route convoy disruption paradox.

    The situation becomes more complex when the convoy has alternative routes.

    France:
    A Tunis - Naples
    F Tyrrhenian Sea Convoys A Tunis - Naples
    F Ionian Sea Convoys A Tunis - Naples

    Italy:
    F Naples Supports F Rome - Tyrrhenian Sea
    F Rome - Tyrrhenian Sea

    Now, two issues play a role. The rule about disruption of multi-route convoys (issue 4.A.1) and the
    determination of how paradoxes are resolved (issue 4.A.2).

    If the 1971 rulebook is used then a multi-route convoy is disrupted when one of the routes is
    disrupted. That makes this situation paradoxical and the 1971 paradox rule kicks in. The support of
    the fleet in Naples is not cut and the fleet in Rome dislodges the fleet in the Tyrrhenian Sea.

    With the 1982 rulebook, the support of Naples is not cut, because it is supporting an action in a
    body of water that contains a convoying fleet. This means that the fleet in Rome dislodges the fleet
    in the Tyrrhenian Sea.

    According to the 2000/2023 rules the fleet in the Tyrrhenian Sea is not "necessary" for the convoy
    and the support of Naples is cut and the fleet in the Tyrrhenian Sea is not dislodged.

    If the Szykman rule is used (which I prefer), then there is no paradoxical situation. The support of
    Naples is cut (the same as in the 2000/2023 ruling) and the fleet in the Tyrrhenian Sea is not
    dislodged.
    """
    run = run_case(board, "6.F.19")
    run.assert_expected()


def test_6_F_20(board: Board) -> None:
    """6.F.20 Unwanted multi-route convoy paradox.

    The 1982 paradox rule allows some creative defense.

    France:
    A Tunis - Naples
    F Tyrrhenian Sea Convoys A Tunis - Naples

    Italy:
    F Naples Supports F Ionian Sea
    F Ionian Sea Convoys A Tunis - Naples

    Turkey:
    F Aegean Sea Supports F Eastern Mediterranean - Ionian Sea
    F Eastern Mediterranean - Ionian Sea

    Again, two issues play a role. The rule about disruption of multi-route convoys (issue 4.A.1) and
    the determination of how paradoxes are resolved (issue 4.A.2).

    If the 1971 rulebook is used, then a multi-route convoy is disrupted when one of the routes is
    disrupted. This makes the situation paradoxical. However, since the fleet in Naples is not
    supporting an attack on a convoying fleet, the paradox rule does not apply and the 1971 rules do not
    give answer to this situation.

    With the 1982 rules the support in Naples is not cut, because it is supporting an action in a body
    of water that contains a convoying fleet. That means that the fleet in the Ionian Sea is not
    dislodged.

    The paradox rule of the 2000/2023 rules, does not kick in, because the support is not a support that
    attacks the convoying fleet. However, with these rules a multi-route convoy is only disrupted when
    all routes are disrupted, which prevents that this situation is a paradox. So, the support of Naples
    is cut and the fleet in the Ionian Sea is dislodged by the Turkish fleet in the Eastern
    Mediterranean.

    If the Szykman rule is used, then there is no paradoxical situation. The support of Naples is cut
    and the fleet in the Ionian Sea is dislodged by the Turkish fleet in the Eastern Mediterranean.

    As you can see, the 1982 rules allow the Italian player to save its fleet in the Ionian Sea with a
    trick. I do not consider this trick as normal tactical play. I prefer the Szykman rule as one of the
    rules that does not allow this trick. According to this rule the fleet in the Ionian Sea is
    dislodged.
    """
    run = run_case(board, "6.F.20")
    run.assert_expected()


def test_6_F_21(board: Board) -> None:
    """6.F.21 Dad's army convoy.

    The 1982 paradox rule has as side effect that convoying armies do not cut support in some situations
    that are not paradoxical.

    Russia:
    A Edinburgh Supports A Norway - Clyde
    F Norwegian Sea Convoys A Norway - Clyde
    A Norway - Clyde

    France:
    F Irish Sea Supports F Mid-Atlantic Ocean - North Atlantic Ocean
    F Mid-Atlantic Ocean - North Atlantic Ocean

    England:
    A Liverpool - Clyde via convoy
    F North Atlantic Ocean Convoys A Liverpool - Clyde
    F Clyde Supports F North Atlantic Ocean

    In all rules, except the 1982 paradox rule, the support of the fleet in Clyde on the North Atlantic
    Ocean is cut and the French fleet in the Mid-Atlantic Ocean will dislodge the fleet in the North
    Atlantic Ocean. This is the preferred way.

    However, in the 1982 paradox rule (see issue 4.A.2), the support of the fleet in Clyde is not cut.
    That means that the English fleet in the North Atlantic Ocean is not dislodged.

    As you can see, the 1982 rule allows England to save its fleet in the North Atlantic Ocean in a very
    strange way. Just the support of Clyde is insufficient (if there is no convoy, the support is cut).
    Only the convoy to the area occupied by own unit, can do the trick in this situation. The embarking
    of troops in the fleet deceives the enemy so much that it works as a magic cloak. The enemy is not
    able to dislodge the fleet in the North Atlantic Ocean any more. Of course, this will only work in
    comedies. I prefer the Szykman rule as one of the rules that does not allow this trick. According to
    this rule (and all other paradox rules), the fleet in the North Atlantic is just dislodged.
    """
    run = run_case(board, "6.F.21")
    run.assert_expected()


def test_6_F_22(board: Board) -> None:
    """6.F.22 Second order paradox with two resolutions.

    Two convoys are involved in a second order paradox.

    England:
    F Edinburgh - North Sea
    F London Supports F Edinburgh - North Sea

    France:
    A Brest - London
    F English Channel Convoys A Brest - London

    Germany:
    F Belgium Supports F Picardy - English Channel
    F Picardy - English Channel

    Russia:
    A Norway - Belgium
    F North Sea Convoys A Norway - Belgium

    Without any paradox rule, there are two consistent resolutions. The supports of the English fleet in
    London and the German fleet in Picardy are not cut. That means that the French fleet in the English
    Channel and the Russian fleet in the North Sea are dislodged, which makes it impossible to cut the
    support. The other resolution is that the supports of the English fleet in London the German fleet
    in Picardy are cut. In that case the French fleet in the English Channel and the Russian fleet in
    the North Sea will survive and will not be dislodged. This gives the possibility to cut the support.

    The 1971, 2000 and 2023 rules (see issue 4.A.2) do not have an answer on this.

    According to the 1982 rule, the supports are not cut which means that the French fleet in the
    English Channel and the Russian fleet in the North Sea are dislodged.

    The Szykman (which I prefer), has the same result as the 1982 rule. The supports are not cut, the
    convoying armies fail to move, the fleet in Picardy dislodges the fleet in English Channel and the
    fleet in Edinburgh dislodges the fleet in the North Sea.
    """
    run = run_case(board, "6.F.22")
    run.assert_expected()


def test_6_F_23(board: Board) -> None:
    """6.F.23 Second order paradox with two exclusive convoys.

    In this paradox there are two consistent resolutions, but where the two convoys do not fail or
    succeed at the same time.

    England:
    F Edinburgh - North Sea
    F Yorkshire Supports F Edinburgh - North Sea

    France:
    A Brest - London
    F English Channel Convoys A Brest - London

    Germany:
    F Belgium Supports F English Channel
    F London Supports F North Sea

    Italy:
    F Mid-Atlantic Ocean - English Channel
    F Irish Sea Supports F Mid-Atlantic Ocean - English Channel

    Russia:
    A Norway - Belgium
    F North Sea Convoys A Norway - Belgium

    Without any paradox rule, there are two consistent resolutions. In one resolution, the convoy in the
    English Channel is dislodged by the fleet in the Mid-Atlantic Ocean, while the convoy in the North
    Sea succeeds. In the other resolution, it is the other way around. The convoy in the North Sea is
    dislodged by the fleet in Edinburgh, while the convoy in the English Channel succeeds.

    The 1971, 2000 and 2023 rules (see issue 4.A.2) do not have an answer on this.

    According to the 1982 rule, the supports are not cut which means that the none of the units move.

    The Szykman rule (which I prefer), has the same result as the 1982 rule. The convoying armies fail
    to move and the supports are not cut. Because of the failure to cut the support, no fleet succeeds
    to move.
    """
    run = run_case(board, "6.F.23")
    run.assert_expected()


def test_6_F_24(board: Board) -> None:
    """6.F.24 Second order paradox with no resolution.

    As first order paradoxes, second order paradoxes come in two flavors, with two resolutions or no
    resolution.

    England:
    F Edinburgh - North Sea
    F London Supports F Edinburgh - North Sea
    F Irish Sea - English Channel
    F Mid-Atlantic Ocean Supports F Irish Sea - English Channel

    France:
    A Brest - London
    F English Channel Convoys A Brest - London
    F Belgium Supports F English Channel

    Russia:
    A Norway - Belgium
    F North Sea Convoys A Norway - Belgium

    When no paradox rule is used, there is no consistent resolution. If the French support in Belgium is
    cut, the French fleet in the English Channel will be dislodged. That means that the support of
    London will not be cut and the fleet in Edinburgh will dislodge the Russian fleet in the North Sea.
    In this way the support in Belgium is not cut! But if the support in Belgium is not cut, the Russian
    fleet in the North Sea will not be dislodged and the army in Norway can cut the support in Belgium.

    The 1971, 2000 and 2023 rules (see issue 4.A.2) do not have an answer on this.

    According to the 1982 rule, the supports are not cut which means that the French fleet in the
    English Channel will survive and but the Russian fleet in the North Sea is dislodged.

    If the Szykman alternative is used (which I prefer), the supports are not cut and the convoying
    armies fail to move, which gives the same result as the 1982 rule.
    """
    run = run_case(board, "6.F.24")
    run.assert_expected()


def test_6_F_25(board: Board) -> None:
    """6.F.25 Cut support last.

    For manual play the rule of thumb is, cut support first. However, in below example the support of
    Holland is some of the last orders to adjudicated.

    Germany:
    A Rhur - Belgium
    A Holland Supports Rhur - Belgium
    A Denmark - Norway
    F Skagerrak Convoys Denmark - Norway
    A Finland Supports Denmark - Norway

    England:
    A Yorkshire - Holland
    F North Sea Convoys Yorkshire - Holland
    F Helgoland Bight Supports Yorkshire - Holland
    A Belgium Hold

    Russia:
    F Norwegian Sea - North Sea
    F Norway Supports Norwegian Sea - North Sea
    F Sweden - Skagerrak

    The fleet in Sweden fails to disrupt the convoy in Skagerrak. The move from Denmark to Norway
    succeeds and cuts the support of Norway. The fleet in the Norwegian Sea fails to disrupt the convoy
    in North Sea. The move from Yorkshire to Holland succeeds and cuts the support of Holland. The move
    from Rhur fails to dislodge the army in Belgium.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    """
    run = run_case(board, "6.F.25")
    run.assert_expected()
    run.assert_outcomes(
        {
            "A DEN - NWY": ("GERMANY", Outcome.SUCCESS),
            "A YOR - HOL": ("ENGLAND", Outcome.SUCCESS),
            "A HOL S A RUH - BEL": ("GERMANY", Outcome.CUT),
            "A RUH - BEL": ("GERMANY", Outcome.BOUNCE),
            "F NWY S F NWG - NTH": ("RUSSIA", Outcome.CUT),
        }
    )
