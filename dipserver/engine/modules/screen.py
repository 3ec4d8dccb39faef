"""Orders a rule module forbids, taken out before the adjudicator runs and put back in its answer.

The adjudicator answers one result per order given, in the order given (then automatic disbands). A module
that forbids an order (a unit snowed in by a blizzard, a support from a unit out of supply) removes it, so
the unit holds as with any illegal order, and reports it as ``invalid`` with the module's reason, in the
slot the order had. The standard adjudicator never sees the module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from dipserver.engine.orders import Order, OrderResult, Outcome

Problem = Callable[[str, Order], "str | None"]  # (power, order) -> why the module forbids it, or None


@dataclass(frozen=True, slots=True)
class Screened:
    given: Mapping[str, tuple[Order, ...]]  # every order as given, per power
    kept: Mapping[str, list[Order]]  # what the adjudicator sees
    rejected: Mapping[tuple[str, int], OrderResult]  # (power, position in its list) -> the module's answer

    def merge(self, results: Iterable[OrderResult]) -> tuple[OrderResult, ...]:
        """The adjudicator's results with the rejected orders back in their slots."""
        answered = iter(results)
        merged = []
        for power, orders in self.given.items():
            for i in range(len(orders)):
                found = self.rejected.get((power, i))
                merged.append(found if found is not None else next(answered))
        merged.extend(answered)  # automatic disbands come after the orders
        return tuple(merged)


def screen(orders_by_power: Mapping[str, Iterable[Order]], *problems: Problem) -> Screened:
    """Split the orders into those the adjudicator sees and those a module forbids (first reason wins)."""
    given = {power: tuple(orders) for power, orders in orders_by_power.items()}
    kept: dict[str, list[Order]] = {}
    rejected: dict[tuple[str, int], OrderResult] = {}
    for power, orders in given.items():
        mine = kept[power] = []
        for i, order in enumerate(orders):
            why = next((w for check in problems if (w := check(power, order)) is not None), None)
            if why is None:
                mine.append(order)
            else:
                rejected[(power, i)] = OrderResult(power, order, Outcome.INVALID, why)
    return Screened(given, kept, rejected)
