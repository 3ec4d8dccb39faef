"""A game its player muted (no mail, nothing in the inbox) still reaches the webhooks they set up for it:
each is an address made on purpose (a bot, a chat), narrowed or removed on its own."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.models import Game
from dipserver.games.services.mutes import game_mute
from dipserver.games.services.phases import Processed, phase_process
from dipserver.webhooks.services import webhook_create
from tests.server.conftest import START, seat, started_game

pytestmark = pytest.mark.django_db


def test_the_players_webhook_still_hears_a_muted_game(receiver, django_capture_on_commit_callbacks):
    players = [get_user_model().objects.create(username=f"player{i}") for i in range(7)]
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players)
    france = seat(game, "FRANCE").user
    webhook_create(owner=france, url=receiver.url, game_id=game.id)
    game_mute(game_id=game.id, user=france, muted=True)
    with django_capture_on_commit_callbacks(execute=True):
        phase_id = Game.objects.get(id=game.id).current_phase_id
        assert phase_process(phase_id=phase_id, now=START + dt.timedelta(days=2)) == Processed.DONE
    assert [body["event"] for body in receiver.bodies()] == ["phase_processed"]
