"""Order submission under concurrency, against PostgreSQL: the powers of one game submit side by side, and
processing still waits for a submission in flight (so its orders are part of the phase)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import connections, transaction
from django.utils import timezone

from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process

from .test_games_processing import due_game, worker_waiting_on_a_lock

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def open_game(tag: str) -> Game:
    game = due_game(tag)
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() + dt.timedelta(hours=1))
    return game


@contextmanager
def submission_in_flight(game: Game, power: str, text: str) -> Iterator[None]:
    """``power``'s orders submitted inside a transaction kept open (its locks held) until the block ends."""
    user = Power.objects.select_related("user").get(game=game, name=power).user
    submitted, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                orders_submit(game_id=game.id, user=user, text=text, phase="S1901M")
                submitted.set()
                release.wait(timeout=60)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert submitted.wait(timeout=30), "the first submission did not go through"
    try:
        yield
    finally:
        release.set()
        holder.join(timeout=60)


def test_a_power_submits_while_another_powers_submission_is_still_open(
    wait_for: Callable[..., object],
) -> None:
    game = open_game("side-by-side")
    france = Power.objects.select_related("user").get(game=game, name="FRANCE").user
    with submission_in_flight(game, "ENGLAND", "F LON - NTH"):
        answer: list[object] = []
        other = threading.Thread(
            target=lambda: (
                answer.append(
                    orders_submit(game_id=game.id, user=france, text="A PAR - BUR", phase="S1901M")
                ),
                connections.close_all(),
            )
        )
        other.start()
        other.join(timeout=10)
        assert answer and answer[0].accepted == ["A PAR - BUR"], "France waited for England's transaction"


def test_processing_waits_for_a_submission_in_flight_and_includes_it(wait_for: Callable[..., object]) -> None:
    game = open_game("in-flight")
    outcome: list[Processed] = []

    def process() -> None:
        try:
            outcome.append(phase_process(phase_id=game.current_phase_id, force=True))
        finally:
            connections.close_all()

    with submission_in_flight(game, "ENGLAND", "F LON - NTH"):
        worker = threading.Thread(target=process)
        worker.start()
        wait_for(worker_waiting_on_a_lock, what="processing to wait for the submission")
        assert outcome == []
    worker.join(timeout=60)
    assert outcome == [Processed.DONE]
    assert Phase.objects.get(game=game, index=0).orders["ENGLAND"] == ["F LON - NTH"]
