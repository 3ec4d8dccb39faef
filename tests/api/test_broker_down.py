"""With the Celery broker unreachable, what was asked for is saved and the answer is a success: the phase
is processed by the deadline sweep once the broker is back (its deadline is already now).

The requests run in real transactions (``transaction=True``), so processing is queued on commit inside the
request, as in production; the broker is a Redis URL on a port where nothing listens.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest
from django.utils import timezone

from dipserver.config import celery_app
from dipserver.games.models import Game, Phase
from dipserver.games.services.phases import phases_due_sweep
from tests.api.conftest import POWERS, client_for, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again on leaving: connections to it are refused


@pytest.fixture
def broker_down(celery_conf: Callable[..., None]) -> Iterator[None]:
    celery_conf(task_always_eager=False, broker_url=f"redis://127.0.0.1:{_closed_port()}/0")
    celery_app._after_fork()  # forget connection pools made for the previous broker URL
    yield
    celery_app._after_fork()


def test_the_last_ready_is_saved_and_answered_with_success_while_the_broker_is_down(
    game: Game, broker_down: None
) -> None:
    for power in POWERS:
        answer = client_for(user_of(game, power)).put(
            f"/api/v1/games/{game.id}/ready", {"ready": True}, format="json"
        )
        assert answer.status_code == 200, answer.content
    assert answer.json() == {"ready": True, "phase_due": True}
    phase = Phase.objects.get(id=game.current_phase_id)
    assert (phase.status, phase.deadline <= timezone.now()) == (Phase.Status.OPEN, True)


def test_process_now_answers_success_while_the_broker_is_down(game: Game, broker_down: None) -> None:
    answer = client_for(game.masters.get()).post(f"/api/v1/games/{game.id}/process", format="json")
    assert answer.status_code == 200, answer.content
    assert Phase.objects.get(id=game.current_phase_id).deadline <= timezone.now()


def test_a_phase_made_due_while_the_broker_was_down_is_swept_and_processed_after(
    game: Game, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False, broker_url=f"redis://127.0.0.1:{_closed_port()}/0")
    celery_app._after_fork()
    client_for(game.masters.get()).post(f"/api/v1/games/{game.id}/process", format="json")
    celery_conf(task_always_eager=True)  # the broker is back (tasks run in-process here)
    celery_app._after_fork()

    assert phases_due_sweep() == [game.current_phase_id]
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.PROCESSED
