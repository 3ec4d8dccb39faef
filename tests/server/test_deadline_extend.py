"""Moving a deadline, in the service and the game masters' admin: only to a later time with its zone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.games.errors import GameError
from dipserver.games.models import Phase
from dipserver.games.services.phases import phase_deadline_extend
from tests.server.conftest import START, started_game


@pytest.fixture
def gm(db):
    user = get_user_model().objects.create_user("gm", password="pw", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=GAME_MASTERS_GROUP)[0])
    return user


@pytest.fixture
def mastered(users, gm):
    game = started_game(users)
    game.masters.add(gm)
    return game


def _deadline(game) -> dt.datetime:
    return Phase.objects.get(id=game.current_phase_id).deadline


def test_the_service_refuses_a_deadline_that_has_passed(game):
    before = _deadline(game)
    with pytest.raises(GameError, match="has already passed"):
        phase_deadline_extend(game_id=game.id, deadline=START - dt.timedelta(minutes=1), now=START)
    assert _deadline(game) == before


def test_the_service_refuses_a_deadline_without_a_zone(game):
    with pytest.raises(GameError, match="no time zone"):
        phase_deadline_extend(game_id=game.id, deadline=dt.datetime(2099, 1, 1, 18, 0), now=START)


def _post_extend(client, game, deadline: str):
    return client.post(reverse("admin:games_game_extend", args=[game.id]), {"deadline": deadline})


def test_the_admin_form_refuses_a_time_that_has_passed(client, gm, mastered):
    client.force_login(gm)
    before = _deadline(mastered)
    page = _post_extend(client, mastered, "2001-01-01 18:00Z")
    assert page.status_code == 200
    assert "has already passed" in page.content.decode()
    assert _deadline(mastered) == before


def test_the_admin_form_stores_a_time_with_an_offset_as_that_instant(client, gm, mastered):
    client.force_login(gm)
    assert _post_extend(client, mastered, "2099-01-01 18:00+01:00").status_code == 302
    assert _deadline(mastered) == dt.datetime(2099, 1, 1, 17, 0, tzinfo=dt.UTC)


def test_extending_an_overdue_phase_by_a_day_counts_from_now(client, gm, mastered):
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")
    client.post(url, {"action": "extend_day", "_selected_action": [mastered.id]})
    assert _deadline(mastered) >= timezone.now() + dt.timedelta(hours=23)  # the deadline of START had passed
