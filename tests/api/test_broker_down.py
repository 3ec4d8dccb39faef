"""With the Celery broker unreachable, what was asked for is saved and the answer is a success: the phase
is processed by the deadline sweep once the broker is back (its deadline is already now), and press is
told by the announcements' sweep.

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
from dipserver.games.services.announcements import REQUEUE_AFTER, announcements_due_sweep
from dipserver.games.services.phases import Processed, phase_process, phases_due_sweep
from dipserver.notices.models import Notification
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
    phase_name = game.current_phase.name
    for power in POWERS:
        answer = client_for(user_of(game, power)).put(
            f"/api/v1/games/{game.id}/ready", {"phase": phase_name, "ready": True}, format="json"
        )
        assert answer.status_code == 200, answer.content
    assert answer.json() == {"ready": True, "phase_due": True}
    phase = Phase.objects.get(id=game.current_phase_id)
    assert (phase.status, phase.deadline <= timezone.now()) == (Phase.Status.OPEN, True)


def test_process_now_answers_success_while_the_broker_is_down(game: Game, broker_down: None) -> None:
    answer = client_for(game.masters.get()).post(
        f"/api/v1/games/{game.id}/process", {"phase": game.current_phase.name}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert Phase.objects.get(id=game.current_phase_id).deadline <= timezone.now()


def test_a_phase_made_due_while_the_broker_was_down_is_swept_and_processed_after(
    game: Game, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False, broker_url=f"redis://127.0.0.1:{_closed_port()}/0")
    celery_app._after_fork()
    client_for(game.masters.get()).post(
        f"/api/v1/games/{game.id}/process", {"phase": game.current_phase.name}, format="json"
    )
    celery_conf(task_always_eager=True)  # the broker is back (tasks run in-process here)
    celery_app._after_fork()

    assert phases_due_sweep() == [game.current_phase_id]
    assert Phase.objects.get(id=game.current_phase_id).status == Phase.Status.PROCESSED


def test_press_sent_while_the_broker_is_down_is_saved_answered_and_told_by_the_first_sweep_after(
    game: Game, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False, broker_url=f"redis://127.0.0.1:{_closed_port()}/0")
    celery_app._after_fork()
    answer = client_for(user_of(game, "ENGLAND")).post(
        f"/api/v1/games/{game.id}/messages", {"body": "Anyone?", "recipients": []}, format="json"
    )
    assert answer.status_code == 201, answer.content
    celery_conf(task_always_eager=True)  # the broker is back (tasks run in-process here)
    celery_app._after_fork()

    message_id = answer.json()["id"]
    assert announcements_due_sweep() == [("press_send", {"message_id": message_id})]
    told = Notification.objects.filter(kind="press", game=game).values_list("user__username", flat=True)
    assert sorted(told) == sorted(user_of(game, p).username for p in POWERS if p != "ENGLAND")
    assert announcements_due_sweep(now=timezone.now() + 10 * REQUEUE_AFTER) == []


def test_results_processed_while_the_broker_is_down_are_told_by_the_first_sweep_after(
    game: Game, celery_conf: Callable[..., None]
) -> None:
    celery_conf(task_always_eager=False, broker_url=f"redis://127.0.0.1:{_closed_port()}/0")
    celery_app._after_fork()
    phase_id = game.current_phase_id
    assert (
        phase_process(phase_id=phase_id, force=True) is Processed.DONE
    )  # in a worker, its results task lost
    celery_conf(task_always_eager=True)
    celery_app._after_fork()

    assert announcements_due_sweep() == [("phase_results_send", {"phase_id": phase_id})]
    assert Notification.objects.filter(kind="phase_processed", game=game).count() == len(POWERS)
    assert Phase.objects.get(id=phase_id).announce_due is None
