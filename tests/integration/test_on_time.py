"""On time: with real beat and a worker, a phase is processed within 2 s of its deadline.

Beat sweeps the database every second (``games-phases-due-sweep``); nothing is queued ahead of a deadline.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from dipserver.games.models import Phase

from .conftest import ROOT, Workers, _tail, due_game, processed_once

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ON_TIME = dt.timedelta(seconds=2)


@pytest.fixture
def beat(workers: Workers, tmp_path: Path) -> Iterator[Path]:
    """A fresh `celery beat` (no schedule file yet) sending to the workers' queue; yields its log."""
    log = tmp_path / "beat.log"
    command = [
        sys.executable, "-m", "celery", "-A", "dipserver.config", "beat", "--loglevel=DEBUG",
        "--schedule", str(tmp_path / "beat-schedule"),
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=workers.env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield log
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def sweeps_sent(log: Path) -> int:
    return log.read_text(errors="replace").count("Sending due task games-phases-due-sweep")


def test_phases_are_processed_within_two_seconds_of_their_deadlines(
    workers: Workers, beat: Path, wait_for: Callable[..., object]
) -> None:
    workers.start()
    wait_for(lambda: sweeps_sent(beat) > 0, timeout=60, what=f"beat's first sweep:\n{_tail(beat)}")
    with transaction.atomic():  # beat's sweeps see the games only with their deadlines to come
        games = [due_game(f"on-time{n}") for n in range(3)]
        start = timezone.now()
        for n, game in enumerate(games):
            deadline = start + dt.timedelta(seconds=2 + n / 2)
            Phase.objects.filter(id=game.current_phase_id).update(deadline=deadline)

    wait_for(lambda: all(processed_once(g) for g in games), timeout=60, what="the phases to be processed")
    late = {
        game.name: (phase.processed_at - phase.deadline).total_seconds()
        for game in games
        for phase in [Phase.objects.get(game=game, index=0)]
    }
    assert all(0 <= seconds <= ON_TIME.total_seconds() for seconds in late.values()), late
