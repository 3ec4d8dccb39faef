"""What the announcement of a processed phase reads, read once for every channel that tells it.

The worker that announces an event runs the mail sender and then the channels beside mail (the inbox,
webhooks: ``notifications.announced``), and each tells the same facts: the phase, its game, the phase that
followed and every seat with its player. Inside ``reads_shared()`` (the announcing task) the first to ask
reads them and the rest reuse that, so an announcement costs two queries of reading, not two per channel.
Outside it every call reads afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from dipserver.games.models import Game, Phase, Power

T = TypeVar("T")

_shared: ContextVar[dict[Hashable, Any] | None] = ContextVar("dipserver_reads_shared", default=None)


@contextmanager
def reads_shared() -> Iterator[None]:
    """Inside, ``shared_read`` builds each key once (one announcement: its channels read the same)."""
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


def shared_read(key: Hashable, build: Callable[[], T]) -> T:
    """``build()``, or inside ``reads_shared`` what it gave for ``key`` the first time."""
    memo = _shared.get()
    if memo is None:
        return build()
    if key not in memo:
        memo[key] = build()
    return memo[key]  # type: ignore[no-any-return]  # stored by this function under this key


@dataclass(frozen=True)
class PhaseNews:
    phase: Phase  # the processed phase, its game loaded
    following: Phase | None  # the game's phase after it (open, or the last of a finished game), if any
    seats: list[Power]  # every seat of the game, its player loaded

    @property
    def game(self) -> Game:
        return self.phase.game


def phase_news(phase_id: int) -> PhaseNews:
    """The facts of a processed phase's announcement, in two queries (shared inside ``reads_shared``)."""
    return shared_read(("phase_news", phase_id), lambda: _phase_news_read(phase_id))


def _phase_news_read(phase_id: int) -> PhaseNews:
    # The phase that followed is the game's current phase: processing makes each new phase current and
    # a revert deletes the phases after the one it reopens, so no later phase is ever not current.
    # get(): one row, so no ORDER BY (the first() of a phase would sort by its game's ordering).
    # Its snapshot too: who had to act in it (``notifications``' "no orders from").
    phase = Phase.objects.select_related("game__current_phase").get(id=phase_id)
    current = phase.game.current_phase
    following = current if current is not None and current.index > phase.index else None
    seats = Power.objects.filter(game_id=phase.game_id).select_related("user").order_by()
    # In id order, sorted here: building the ORM's ORDER BY costs more CPU than the sort.
    return PhaseNews(phase, following, sorted(seats, key=lambda seat: seat.id))
