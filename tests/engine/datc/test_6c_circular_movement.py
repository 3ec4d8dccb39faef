"""DATC v3.0 section 6.C: circular movement."""

from __future__ import annotations

from datc_driver import run_case

from dipserver.engine.board import Board
from dipserver.engine.orders import Outcome


def test_6_C_1(board: Board) -> None:
    """6.C.1 Three army circular movement.

    Three units can change place, even in spring 1901.

    Turkey:
    F Ankara - Constantinople
    A Constantinople - Smyrna
    A Smyrna - Ankara

    All three units will move.
    """
    run = run_case(board, "6.C.1")
    run.assert_expected()


def test_6_C_2(board: Board) -> None:
    """6.C.2 Three army circular movement with support.

    Three units can change place, even when one gets support.

    Turkey:
    F Ankara - Constantinople
    A Constantinople - Smyrna
    A Smyrna - Ankara
    A Bulgaria Supports F Ankara - Constantinople

    Of course, the three units will move, but knowing how programs are written, this can confuse the
    adjudicator.
    """
    run = run_case(board, "6.C.2")
    run.assert_expected()


def test_6_C_3(board: Board) -> None:
    """6.C.3 A disrupted three army circular movement.

    When one of the units bounces, the whole circular movement will hold.

    Turkey:
    F Ankara - Constantinople
    A Constantinople - Smyrna
    A Smyrna - Ankara
    A Bulgaria - Constantinople

    Every unit will keep its place.
    """
    run = run_case(board, "6.C.3")
    run.assert_expected()


def test_6_C_4(board: Board) -> None:
    """6.C.4 A circular movement with attacked convoy.

    When the circular movement contains an attacked convoy, the circular movement succeeds. The
    adjudication algorithm should handle attack of convoys before calculating circular movement.

    Austria:
    A Trieste - Serbia
    A Serbia - Bulgaria

    Turkey:
    A Bulgaria - Trieste
    F Aegean Sea Convoys A Bulgaria - Trieste
    F Ionian Sea Convoys A Bulgaria - Trieste
    F Adriatic Sea Convoys A Bulgaria - Trieste

    Italy:
    F Naples - Ionian Sea

    The fleet in the Ionian Sea is attacked but not dislodged. The circular movement succeeds. The
    Austrian and Turkish armies will advance.
    """
    run = run_case(board, "6.C.4")
    run.assert_expected()


def test_6_C_5(board: Board) -> None:
    """6.C.5 A disrupted circular movement due to dislodged convoy.

    When the circular movement contains a convoy, the circular movement is disrupted when the convoying
    fleet is dislodged. The adjudication algorithm should disrupt convoys before calculating circular
    movement.

    Austria:
    A Trieste - Serbia
    A Serbia - Bulgaria

    Turkey:
    A Bulgaria - Trieste
    F Aegean Sea Convoys A Bulgaria - Trieste
    F Ionian Sea Convoys A Bulgaria - Trieste
    F Adriatic Sea Convoys A Bulgaria - Trieste

    Italy:
    F Naples - Ionian Sea
    F Tunis Supports F Naples - Ionian Sea

    Due to the dislodged convoying fleet, all Austrian and Turkish armies will not move.
    """
    run = run_case(board, "6.C.5")
    run.assert_expected()


def test_6_C_6(board: Board) -> None:
    """6.C.6 Two armies with two convoys.

    Two armies can swap places even when they are not adjacent.

    England:
    F North Sea Convoys A London - Belgium
    A London - Belgium

    France:
    F English Channel Convoys A Belgium - London
    A Belgium - London

    Both convoys should succeed.
    """
    run = run_case(board, "6.C.6")
    run.assert_expected()


def test_6_C_7(board: Board) -> None:
    """6.C.7 Disrupted unit swap.

    If in a swap one of the unit bounces, then the swap fails.

    England:
    F North Sea Convoys A London - Belgium
    A London - Belgium

    France:
    F English Channel Convoys A Belgium - London
    A Belgium - London
    A Burgundy - Belgium

    None of the units will succeed to move.
    """
    run = run_case(board, "6.C.7")
    run.assert_expected()


def test_6_C_8(board: Board) -> None:
    """6.C.8 No self dislodgement in disrupted circular movement.

    Self dislodgement is prohibited as usual in circular movement.

    Turkey:
    F Constantinople - Black Sea
    A Bulgaria - Constantinople
    A Smyrna Supports A Bulgaria - Constantinople

    Russia:
    F Black Sea - Bulgaria(ec)

    Austria
    A Serbia - Bulgaria

    None of the units will succeed to move.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: none of the units move
    """
    run = run_case(board, "6.C.8")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F CON - BLA": ("TURKEY", Outcome.BOUNCE),
            "A BUL - CON": ("TURKEY", Outcome.BOUNCE),
            "F BLA - BUL/EC": ("RUSSIA", Outcome.BOUNCE),
            "A SER - BUL": ("AUSTRIA", Outcome.BOUNCE),
        }
    )


def test_6_C_9(board: Board) -> None:
    """6.C.9 No help in dislodgement of own unit in disrupted circular movement.

    Helping to dislodge your own unit is prohibited as usual in circular movement.

    Turkey:
    F Constantinople - Black Sea
    A Smyrna Supports A Bulgaria - Constantinople

    Russia:
    F Black Sea - Bulgaria(ec)

    Austria
    A Serbia - Bulgaria
    A Bulgaria - Constantinople

    None of the units will succeed to move.

    The JSON expectation of this case was encoded by hand from the v3.0 prose; checked against
    DATC_v3_0.html, it agrees.
    The per-order results asserted below restate the prose.
    JSON note: none of the units move
    """
    run = run_case(board, "6.C.9")
    run.assert_expected()
    run.assert_outcomes(
        {
            "F CON - BLA": ("TURKEY", Outcome.BOUNCE),
            "A BUL - CON": ("AUSTRIA", Outcome.BOUNCE),
            "F BLA - BUL/EC": ("RUSSIA", Outcome.BOUNCE),
            "A SER - BUL": ("AUSTRIA", Outcome.BOUNCE),
        }
    )
