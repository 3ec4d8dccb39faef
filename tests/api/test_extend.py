"""A game master's extend: a later time, given with its zone; anything else is refused and changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from dipserver.games.models import Phase
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def _extend(game, master, deadline):
    return client_for(master).post(f"/api/v1/games/{game.id}/extend", {"deadline": deadline}, format="json")


def _deadline(game) -> dt.datetime:
    return Phase.objects.get(id=game.current_phase_id).deadline


def test_a_deadline_without_a_time_zone_is_refused(game, master):
    before = _deadline(game)
    answer = _extend(game, master, "2099-01-01T18:00")
    error = answer.json()["error"]
    assert (answer.status_code, error["code"]) == (400, "invalid")
    assert "has no time zone" in error["fields"]["deadline"]
    assert _deadline(game) == before


def test_a_deadline_in_the_past_is_refused(game, master):
    before = _deadline(game)
    answer = _extend(game, master, "2001-01-01T18:00Z")
    error = answer.json()["error"]
    assert (answer.status_code, error["code"]) == (422, "refused")
    assert "has already passed" in error["message"]
    assert _deadline(game) == before


@pytest.mark.parametrize("deadline", ["next tuesday", 1893456000, None])
def test_a_deadline_that_is_not_a_date_and_time_is_refused(game, master, deadline):
    answer = _extend(game, master, deadline)
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid")
    assert answer.json()["error"]["fields"]["deadline"]


def test_a_later_deadline_with_an_offset_is_stored_as_that_instant(game, master):
    answer = _extend(game, master, "2099-01-01T18:00+01:00")
    assert answer.status_code == 200
    assert _deadline(game) == dt.datetime(2099, 1, 1, 17, 0, tzinfo=dt.UTC)


def test_a_token_client_is_answered_in_the_masters_zone_as_a_signed_in_one_is(game, master):
    # Both kinds of client get the same instant written the same way: the account's own offset.
    master.time_zone = "Europe/Paris"
    master.save(update_fields=["time_zone"])
    by_token = _extend(game, master, "2099-06-02T18:00Z").json()["current_phase"]["deadline"]
    session = APIClient()
    session.force_login(master)
    read = session.get(f"/api/v1/games/{game.id}").json()["current_phase"]["deadline"]
    assert by_token == read == "2099-06-02T20:00:00+02:00"
