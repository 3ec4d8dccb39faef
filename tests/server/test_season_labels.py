"""Sahara names its seasons differently from 1905 (E23): mails, errors and the admin use its names."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from dipserver.engine.timeline import load_timeline
from dipserver.engine.variant import load_variant
from dipserver.games.errors import GameError
from dipserver.games.models import Game
from dipserver.games.notifications import phase_results_send
from dipserver.games.services.common import game_phase_title, phase_label, phase_title
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.server.conftest import START, seat, started_game


def test_phase_names_use_the_variants_seasons_when_given_its_timeline():
    sahara = load_timeline(load_variant("sahara"))
    assert phase_title("S1904M", sahara) == "Spring 1904 movement"
    assert phase_title("S1905M", sahara) == "Early Summer 1905 movement"
    assert phase_label("F1906R", sahara) == "Late Summer 1906"
    assert phase_title("W1905A", sahara) == "Between Summers 1905 builds"
    assert phase_title("S1905M") == "Spring 1905 movement"  # no variant: the usual names


def test_a_sahara_game_from_1905_mails_and_refuses_with_its_own_season_names(
    users, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    for n, user in enumerate(users):
        user.email = f"p{n}@example.org"
        user.save()
    game = started_game(users, variant="sahara")
    now = START
    while int(game.current_phase.name[1:5]) < 1905 and game.status == Game.Status.ACTIVE:
        now += dt.timedelta(days=3)
        phase_process(phase_id=game.current_phase_id, now=now)
        game.refresh_from_db()
    assert game.current_phase.name == "S1905M"
    assert game_phase_title(game, "S1905M") == "Early Summer 1905 movement"

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # each mail is queued on commit
        phase_results_send(phase_id=game.phases.get(index=game.current_phase.index - 1).id)
    assert mail.outbox and "Next: Early Summer 1905 movement" in mail.outbox[0].body

    with pytest.raises(GameError, match="The Early Summer 1905 deadline has passed"):
        orders_submit(
            game_id=game.id, user=seat(game, "FRANCE").user, text="", now=now + dt.timedelta(days=30)
        )
