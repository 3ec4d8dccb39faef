"""The game master's "Process now" names the phase it is for: a click meant for one phase never
processes the next one (the last player's ready may have processed the first a moment before)."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game, Phase
from tests.api.conftest import POWERS, client_for, user_of

pytestmark = pytest.mark.django_db


def _process(game: Game, body: object):
    return client_for(game.masters.get()).post(f"/api/v1/games/{game.id}/process", body, format="json")


def test_process_now_for_the_open_phase_processes_it(game: Game, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # processing is queued on commit
        answer = _process(game, {"phase": "S1901M"})
    assert answer.status_code == 200, answer.content
    assert Phase.objects.get(game=game, index=0).status == Phase.Status.PROCESSED


def test_process_now_must_name_the_phase(game: Game) -> None:
    answer = _process(game, {})
    assert answer.status_code == 400
    assert "phase" in answer.json()["error"]["fields"]
    assert Phase.objects.get(game=game, index=0).status == Phase.Status.OPEN


def test_a_click_for_a_phase_the_last_ready_processed_answers_409_and_processes_nothing(
    game: Game, django_capture_on_commit_callbacks
) -> None:
    for power in POWERS:
        with django_capture_on_commit_callbacks(execute=True):
            client_for(user_of(game, power)).put(
                f"/api/v1/games/{game.id}/ready", {"phase": "S1901M", "ready": True}, format="json"
            )
    autumn = Phase.objects.get(game=game, index=1)
    assert (autumn.name, autumn.status) == ("F1901M", Phase.Status.OPEN)
    deadline = autumn.deadline

    with django_capture_on_commit_callbacks(execute=True):
        answer = _process(game, {"phase": "S1901M"})  # sent as the ready landed
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"]["code"] == "conflict"
    assert "F1901M" in answer.json()["error"]["message"]
    autumn.refresh_from_db()
    assert (autumn.status, autumn.deadline) == (Phase.Status.OPEN, deadline)  # not made due either
    assert Phase.objects.filter(game=game).count() == 2  # nothing further processed
