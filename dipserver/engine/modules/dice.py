"""Dice expressions such as ``"1d6"``, ``"2d8+1"``, ``"1d6-1"`` or ``"2"``, rolled with auditable draws.

Ice Lords rolls 1d6 blizzards a turn; on a 75-province Diplomacy map that is strong, so games pick their own
expression. Every die is one ``randomness.draw`` under ``<draw_id>/die/<n>``, so anyone holding the revealed
game secret can recompute the roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dipserver.engine.randomness import draw

_DICE_RE = re.compile(r"^(?:(\d+)[dD](\d+))?\s*(?:([+-])\s*(\d+))?$|^(\d+)$")
_MAX_DICE = 20  # a typo such as "99d6" should be caught, not rolled


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides plus ``bonus``; never rolls below zero."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int) -> Dice:
        if isinstance(text, bool):
            raise ValueError(f"{text!r} is not a dice expression like 1d6, 2d8+1 or 3")
        if isinstance(text, int):
            if text < 0:
                raise ValueError(f"{text} is negative: a number of blizzards is 0 or more")
            return cls(0, 0, text)
        m = _DICE_RE.match(text.strip())
        if not m or not text.strip():
            raise ValueError(f"{text!r} is not a dice expression like 1d6, 2d8+1 or 3")
        count, sides, sign, bonus, plain = m.groups()
        if plain is not None:
            return cls(0, 0, int(plain))
        if count is None:
            raise ValueError(f"{text!r} is not a dice expression like 1d6, 2d8+1 or 3")
        dice = cls(int(count), int(sides), int(bonus or 0) * (-1 if sign == "-" else 1))
        if not 1 <= dice.count <= _MAX_DICE or dice.sides < 1:
            raise ValueError(f"{text!r}: roll 1 to {_MAX_DICE} dice of at least one side")
        return dice

    def roll(self, secret: str, draw_id: str) -> int:
        total = self.bonus
        for n in range(1, self.count + 1):
            total += 1 + int(draw(secret, f"{draw_id}/die/{n}") * self.sides)
        return max(total, 0)

    def __str__(self) -> str:
        if not self.count:
            return str(self.bonus)
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{bonus}"
