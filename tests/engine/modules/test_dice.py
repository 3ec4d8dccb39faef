"""Dice expressions for the number of blizzards: parsed strictly, rolled from the game secret."""

from __future__ import annotations

import pytest

from dipserver.engine.modules.dice import Dice


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("1d6", Dice(1, 6)),
        ("2d8+1", Dice(2, 8, 1)),
        ("1d6-1", Dice(1, 6, -1)),
        (" 3 ", Dice(0, 0, 3)),
        (2, Dice(0, 0, 2)),
    ],
)
def test_expressions_read(text: str | int, dice: Dice) -> None:
    assert Dice.parse(text) == dice
    assert Dice.parse(str(dice)) == dice


@pytest.mark.parametrize("text", ["d6", "six", "", "1d6+", "0d6", "1d0", "21d6", -1, True])
def test_nonsense_is_refused_with_a_reason(text: str | int) -> None:
    with pytest.raises(ValueError, match=r"dice|negative|roll 1 to 20"):
        Dice.parse(text)


def test_a_roll_stays_in_range_covers_it_and_repeats_for_the_same_draw() -> None:
    rolls = [Dice(2, 8, -3).roll("secret", f"blizzard/S19{y:02d}M/count") for y in range(300)]
    assert min(rolls) == 0  # 2 - 3 is clamped: never a negative number of blizzards
    assert max(rolls) == 13
    assert set(range(14)) <= set(rolls)
    assert Dice(2, 8).roll("secret", "x") == Dice(2, 8).roll("secret", "x")
