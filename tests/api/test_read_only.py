"""A read-only database (maintenance, a failover): reads keep working, token clients included; a write
answers 503 "read-only, try again" with ``Retry-After`` and changes nothing; a phase task meets an error
it retries; /healthz says 503 and why. Run on SQLite here and on PostgreSQL by
tests/integration/test_read_only_postgres.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client

from dipserver.games.models import Game, Order, Phase
from dipserver.games.services.phases import phase_process as phase_process_service
from dipserver.games.tasks import phase_process
from tests.api.conftest import client_for, user_of
from tests.api.read_only import database_read_only

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def read_only(transactional_db: None) -> Iterator[None]:
    with database_read_only():
        yield


@pytest.fixture
def england(game: Game):
    return client_for(user_of(game, "ENGLAND"))  # a new token: its first use is due to be written


def test_token_clients_still_read(game: Game, england, read_only) -> None:
    assert england.get("/api/v1/accounts/me").status_code == 200
    assert england.get(f"/api/v1/games/{game.id}").status_code == 200
    assert england.get(f"/api/v1/games/{game.id}/orders").status_code == 200


def test_a_write_answers_503_read_only_with_retry_after_and_changes_nothing(game: Game, england, read_only):
    answer = england.put(
        f"/api/v1/games/{game.id}/orders",
        {"phase": game.current_phase.name, "orders": ["F LON H"]},
        format="json",
    )
    assert answer.status_code == 503, answer.content
    assert answer.json()["error"]["code"] == "read_only"
    assert "try again" in answer.json()["error"]["message"].lower()
    assert int(answer["Retry-After"]) > 0
    assert not Order.objects.filter(phase_id=game.current_phase_id).exists()


def test_a_page_that_writes_answers_a_503_page_with_retry_after(game: Game, transactional_db: None) -> None:
    browser = Client()
    browser.force_login(user_of(game, "ENGLAND"))  # the session is written before the database turns
    with database_read_only():
        assert browser.get(f"/games/{game.id}/").status_code == 200
        answer = browser.post("/inbox/read/")
    assert answer.status_code == 503
    assert "read-only" in answer.content.decode().lower()
    assert int(answer["Retry-After"]) > 0


def test_healthz_says_503_and_that_the_database_is_read_only(client: Client, read_only) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["database"]["ok"] is False
    assert "read-only" in answer.json()["database"]["detail"]


def test_processing_a_phase_meets_an_error_its_task_retries(game: Game) -> None:
    with database_read_only(), pytest.raises(Exception) as failed:
        phase_process_service(phase_id=game.current_phase_id, force=True)
    assert isinstance(failed.value, phase_process.autoretry_for)
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.OPEN
