"""The statements the ORM cannot express, run on PostgreSQL at every CI run (``games.services.orders``):
the share-locked read of a game and its current phase (``FOR SHARE OF``: Django locks only ``FOR UPDATE``)
and a seat's orders replaced in one statement. SQLite takes the ORM path beside them; these tests hold
the PostgreSQL path to what that path gives. Also: processing locks its game row before its phase's."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction
from django.db.utils import OperationalError
from django.test.utils import CaptureQueriesContext

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Order, Phase, Power
from dipserver.games.services import orders as order_services
from dipserver.games.services.games import game_create
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process

from .test_games_orders import open_game
from .test_games_processing import due_game, worker_waiting_on_a_lock

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql(postgres_url: str) -> None:
    """Only PostgreSQL runs these statements: elsewhere the test is skipped (and fails when CI is set)."""


def _user(game: Game, power: str):
    return Power.objects.select_related("user").get(game=game, name=power).user


def test_the_share_locked_read_gives_what_the_orm_reads() -> None:
    game = open_game("shared-read")
    Game.objects.filter(id=game.id).update(options={"press": "none", "nested": {"a": [1, 2]}})
    seen, phase = order_services._game_and_phase_shared(game.id)
    stored = Game.objects.get(id=game.id)
    for name in order_services._GAME_FIELDS:
        assert getattr(seen, name) == getattr(stored, name), name
    current = Phase.objects.get(id=stored.current_phase_id)
    assert (phase.id, phase.name, phase.status, phase.deadline) == (
        current.id,
        current.name,
        current.status,
        current.deadline,
    )


def test_the_share_locked_read_names_a_missing_game_and_one_not_started() -> None:
    with pytest.raises(GameError) as missing:
        order_services._game_and_phase_shared(2_000_000_000)
    assert missing.value.code == "not_found"
    waiting = game_create(name="Not started", variant="standard")
    with pytest.raises(GameError) as unstarted:
        order_services._game_and_phase_shared(waiting.id)
    assert unstarted.value.code == "not_started"


def test_a_submission_replaces_the_seats_orders_in_order_in_one_statement() -> None:
    game = open_game("replace")
    france, england = _user(game, "FRANCE"), _user(game, "ENGLAND")
    orders_submit(game_id=game.id, user=england, text="F LON - NTH", phase="S1901M")
    orders_submit(game_id=game.id, user=france, text="A PAR - BUR\nA MAR - SPA", phase="S1901M")
    with CaptureQueriesContext(connection) as queries:
        done = orders_submit(game_id=game.id, user=france, text="F BRE - MAO\nA PAR - PIC\nA MAR H")
    assert done.accepted == ["F BRE - MAO", "A PAR - PIC", "A MAR H"]
    rows = Order.objects.filter(phase_id=game.current_phase_id).order_by("id")
    assert [(o.power.name, o.text) for o in rows.select_related("power")] == [
        ("ENGLAND", "F LON - NTH"),
        ("FRANCE", "F BRE - MAO"),
        ("FRANCE", "A PAR - PIC"),
        ("FRANCE", "A MAR H"),
    ]
    statements = [q["sql"] for q in queries]
    # BEGIN, the shared read, the seat's version bumped, the orders replaced, COMMIT.
    assert len(statements) == 5, statements
    assert "FOR SHARE OF" in statements[1] and statements[3].startswith("WITH gone AS (DELETE")


def test_emptying_a_seats_orders_leaves_no_row() -> None:
    game = open_game("empty")
    france = _user(game, "FRANCE")
    orders_submit(game_id=game.id, user=france, text="A PAR - BUR", phase="S1901M")
    orders_submit(game_id=game.id, user=france, text="", phase="S1901M")
    assert not Order.objects.filter(phase_id=game.current_phase_id).exists()


def test_processing_locks_the_game_row_before_the_phase_row(wait_for: Callable[..., object]) -> None:
    """The game and its phase are locked in one statement; while another transaction holds the game,
    processing waits without holding the phase (the lock order: game, then phase)."""
    game = due_game("lock-order")
    outcome: list[Processed] = []
    with transaction.atomic():
        Game.objects.select_for_update().get(id=game.id)  # held, as a game master's write holds it

        def process() -> None:
            try:
                outcome.append(phase_process(phase_id=game.current_phase_id))
            finally:
                connections.close_all()

        worker = threading.Thread(target=process)
        worker.start()
        wait_for(worker_waiting_on_a_lock, what="processing to wait for the game row")
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:  # the phase row is free: processing has not taken it
                cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT id FROM games_phase WHERE id = %s FOR UPDATE NOWAIT", [game.current_phase_id]
                )
                cursor.execute("ROLLBACK")
        except OperationalError as exc:  # the phase taken with the game: the wrong order
            pytest.fail(f"processing locked the phase before the game: {exc}")
        finally:
            other.close()
    worker.join(timeout=30)
    assert outcome == [Processed.DONE]
