"""A phase's results, one per order in the order given, made into values only when they are read.

The movement phase decides every order's outcome in rows of its own (``Row``: the fields of an
``OrderResult``); ``Results`` keeps those rows and builds the ``OrderResult`` values the first time anyone
reads them, once. A caller that wants only the next position (a search, a benchmark) builds none, and the
one pipeline (``turn.play_phase``) reads the rows (``rows_of``) to make its own records of the phase,
which it keeps the same way (``Built``: ``Turn.played``), for the command line to answer from the rows.
Read as values, a ``Built`` is a sequence like the tuple it stands for, and equal to the tuple of the same
values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from typing import Any, Generic, TypeVar, overload

from dipserver.engine.orders import Order, OrderResult, Outcome

V = TypeVar("V")

# One order's result as its fields: power, order, outcome, reason, dislodged (``OrderResult``'s).
Row = tuple[str, Order, Outcome, str, bool]


class Built(Sequence[V], Generic[V]):
    """Dataclass values, kept as rows (tuples of their fields, in order) until read (the module's
    docstring): ``make`` makes one from a row's fields (the dataclass, or a function that makes one).
    ``items`` are rows or, where a step made the value itself, values."""

    __slots__ = ("_items", "_make", "_values")

    def __init__(self, items: list[Any], make: Callable[..., V]) -> None:
        self._items = items
        self._make = make
        self._values: tuple[V, ...] | None = None

    def values(self) -> tuple[V, ...]:
        """The values, built on the first call."""
        if self._values is None:
            make = self._make
            self._values = tuple(make(*item) if isinstance(item, tuple) else item for item in self._items)
        return self._values

    def rows(self) -> list[tuple[Any, ...]]:
        """The values as rows (every field, in order), without building a value."""
        return [item if isinstance(item, tuple) else _fields_of(item) for item in self._items]

    @overload
    def __getitem__(self, index: int) -> V: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[V, ...]: ...

    def __getitem__(self, index: int | slice) -> V | tuple[V, ...]:
        return self.values()[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[V]:
        return iter(self.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Built):
            return self.values() == other.values()
        return isinstance(other, tuple) and self.values() == other

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return repr(self.values())


class Results(Built[OrderResult]):
    """A phase's ``OrderResult`` values, kept as rows until read."""

    __slots__ = ()

    def __init__(self, items: list[Row | OrderResult]) -> None:
        super().__init__(items, OrderResult)

    def plus(self, more: list[Row | OrderResult]) -> Results:
        """These results and ``more`` after them."""
        return Results(self._items + more)


def rows_of(values: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of ``values`` (a ``Built``, or dataclass values another step made), in order: an
    ``OrderResult``'s are ``Row``s."""
    if isinstance(values, Built):
        return values.rows()
    return [_fields_of(value) for value in values]


def _fields_of(value: Any) -> tuple[Any, ...]:
    return tuple(getattr(value, f.name) for f in fields(value))
