"""How an Ice Lords game ends (seed 001, "Destroy all enemy units"; ruling E17 for what is final).

The last power with units wins at once (a power without one can recruit no more), owning every village
wins, and a game nobody wins ends with no winner after its last year: the game master's, else the variant's
default, so that no game runs forever.
"""

from __future__ import annotations

import pytest

from dipserver.engine.ending import Outcome, Result
from dipserver.engine.icelords import DEFAULT_END_YEAR, generate
from dipserver.engine.position import Position
from dipserver.engine.turn import Turn, play_phase
from dipserver.engine.types import Phase, Terrain, Unit, UnitType
from dipserver.engine.variant import Variant


@pytest.fixture(scope="module")
def board() -> Variant:
    return generate("ice-lords-endings", 3).variant


def homes(variant: Variant) -> dict[str, str]:
    """Power -> its home village."""
    return {power: village for village, power in variant.map_state.homes.items()}


def only(variant: Variant, powers: set[str], owners: dict[str, str]) -> Position:
    """The start, keeping the heroes of ``powers`` only, with these centre ``owners``."""
    units = {p: u for p, u in variant.start.units.items() if u.power in powers}
    return Position(variant.start.phase, units, owners)


def play_to_the_end(variant: Variant, position: Position, end_year: int | None = None) -> list[Turn]:
    """Every unit holds, phase after phase, until the game ends (at most 100 phases)."""
    turns: list[Turn] = []
    map_state = variant.map_state
    while not turns or turns[-1].outcome is None:
        assert len(turns) < 100, "the game did not end"
        turns.append(play_phase(variant, map_state, position, {}, end_year=end_year))
        map_state, position = turns[-1].map_state, turns[-1].position
    return turns


def test_ice_lords_the_last_power_in_play_wins_at_once(board: Variant) -> None:
    first = sorted(homes(board))[0]
    pos = only(board, {first}, {homes(board)[first]: first})

    turn = play_phase(board, board.map_state, pos, {})

    assert turn.outcome == Outcome(Result.WIN, (first,), f"{first} is the only power left in play.")


def test_ice_lords_a_power_with_no_unit_is_out_even_if_it_owns_its_village(board: Variant) -> None:
    # "Destroy all enemy units": recruiting needs a unit beside the village, so a power without one can
    # never rebuild (seed 001).
    first, second, _ = sorted(homes(board))
    pos = only(board, {first}, {homes(board)[first]: first, homes(board)[second]: second})

    turn = play_phase(board, board.map_state, pos, {})

    assert turn.outcome == Outcome(Result.WIN, (first,), f"{first} is the only power left in play.")


def test_ice_lords_owning_every_village_wins_once_the_year_is_over(board: Variant) -> None:
    first, *others = sorted(homes(board))
    villages = board.map_state.supply_centres
    fields = sorted(p for p, t in board.map_state.terrain.items() if t is Terrain.LAND and p not in villages)
    units = {homes(board)[first]: board.start.units[homes(board)[first]]}
    units |= {field: Unit(power, UnitType.ARMY, field) for power, field in zip(others, fields, strict=False)}
    pos = Position(Phase.parse("F1901M"), units, dict.fromkeys(villages, first))

    fall = play_phase(board, board.map_state, pos, {})
    assert str(fall.next_phase) == "W1901A" and fall.outcome is None  # the year is not over yet
    winter = play_phase(board, fall.map_state, fall.position, {})

    # The Winter removes the others' armies (no village to keep them), so the owner is also the last in play.
    assert winter.outcome is not None and (winter.outcome.result, winter.outcome.powers) == (
        Result.WIN,
        (first,),
    )


def test_ice_lords_a_game_ends_with_no_winner_after_its_default_last_year(board: Variant) -> None:
    turns = play_to_the_end(board, board.start)

    assert board.default_end_year == DEFAULT_END_YEAR
    assert turns[-1].phase.year == DEFAULT_END_YEAR
    assert turns[-1].outcome == Outcome(
        Result.NO_WINNER, (), f"The game's last year, {DEFAULT_END_YEAR}, is over."
    )


def test_ice_lords_the_game_masters_last_year_replaces_the_default(board: Variant) -> None:
    turns = play_to_the_end(board, board.start, end_year=1903)

    assert [str(t.phase) for t in turns][-1] == "F1903M"
    assert turns[-1].outcome is not None and turns[-1].outcome.result is Result.NO_WINNER
    assert Phase.parse("S1904M") == turns[-1].next_phase
