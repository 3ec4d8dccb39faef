"""A phase's results, one per order in the order given, made into values only when they are read.

The movement phase decides every order's outcome in rows of its own (``Row``: the fields of an
``OrderResult``); ``Results`` keeps those rows and builds the ``OrderResult`` values the first time anyone
reads them, once. A caller that wants only the next position (a search, a benchmark) builds none, and the
one pipeline (``turn.play_phase``) reads the rows (``rows_of``) to make its own records of the phase,
without a value per order in between. Read as values, ``Results`` is a sequence like the tuple it stands
for, and equal to the tuple of the same results.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from dipserver.engine.orders import Order, OrderResult, Outcome

# One order's result as its fields: power, order, outcome, reason, dislodged (``OrderResult``'s).
Row = tuple[str, Order, Outcome, str, bool]


class Results(Sequence[OrderResult]):
    """The results of a phase, as rows until read (the module's docstring). ``items`` are rows or, where
    a rule made the value itself (the A/F rules), ``OrderResult`` values."""

    __slots__ = ("_items", "_values")

    def __init__(self, items: list[Row | OrderResult]) -> None:
        self._items = items
        self._values: tuple[OrderResult, ...] | None = None

    def values(self) -> tuple[OrderResult, ...]:
        """The results as values, built on the first call."""
        if self._values is None:
            self._values = tuple(
                item if isinstance(item, OrderResult) else OrderResult(*item) for item in self._items
            )
        return self._values

    def rows(self) -> list[Row]:
        """The results as rows, in order, without building a value."""
        return [item if isinstance(item, tuple) else _row(item) for item in self._items]

    def plus(self, more: list[Row | OrderResult]) -> Results:
        """These results and ``more`` after them."""
        return Results(self._items + more)

    @overload
    def __getitem__(self, index: int) -> OrderResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[OrderResult, ...]: ...

    def __getitem__(self, index: int | slice) -> OrderResult | tuple[OrderResult, ...]:
        return self.values()[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[OrderResult]:
        return iter(self.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Results):
            return self.values() == other.values()
        return isinstance(other, tuple) and self.values() == other

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return repr(self.values())


def rows_of(results: Sequence[OrderResult]) -> list[Row]:
    """The rows of ``results`` (a phase's ``Results``, or values another step made), in order."""
    if isinstance(results, Results):
        return results.rows()
    return [_row(r) for r in results]


def _row(result: OrderResult) -> Row:
    return (result.power, result.order, result.outcome, result.reason, result.dislodged)
