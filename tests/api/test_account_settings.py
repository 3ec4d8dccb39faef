"""My account settings through the API: read them, change some (the rest stay), and see my vacation."""

from __future__ import annotations

import pytest

from dipserver.games.services.games import game_create, game_join
from dipserver.mail.models import Mail
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db
URL = "/api/v1/accounts/settings"


def test_the_settings_start_with_every_mail_on_and_utc(outsider):
    got = client_for(outsider).get(URL).json()
    assert got["time_zone"] == "UTC" and got["vacation"] == []
    assert got["email"] is None and got["email_pending"] is None  # no address: null, never ""
    assert got["preferences"] == {
        "phase_processed": True,
        "deadline_reminder": True,
        "reminder_hours": 24,
        "press": "each",
        "game_started": True,
        "game_ended": True,
        "version_changed": True,
    }


def test_changing_one_preference_keeps_the_others_and_the_time_zone(outsider):
    client_for(outsider).patch(URL, {"time_zone": "Europe/Paris"}, format="json")
    answer = client_for(outsider).patch(URL, {"preferences": {"press": "digest"}}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["time_zone"] == "Europe/Paris"
    assert answer.json()["preferences"]["press"] == "digest"
    assert answer.json()["preferences"]["phase_processed"] is True


def test_an_unknown_time_zone_is_refused_and_changes_nothing(outsider):
    answer = client_for(outsider).patch(URL, {"time_zone": "Mars/Olympus"}, format="json")
    assert answer.status_code == 400 and "time_zone" in answer.json()["error"]["fields"]
    assert client_for(outsider).get(URL).json()["time_zone"] == "UTC"


def test_a_new_email_waits_for_its_link(outsider, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(outsider).patch(URL, {"email": "me@example.org"}, format="json")
    assert answer.json()["email"] is None and answer.json()["email_pending"] == "me@example.org"
    assert Mail.objects.get(to="me@example.org").kind == "account"


def test_null_removes_every_address_as_the_empty_string_does(outsider, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client_for(outsider).patch(URL, {"email": "me@example.org"}, format="json")
    for cleared in (None, ""):
        answer = client_for(outsider).patch(URL, {"email": cleared}, format="json")
        assert answer.status_code == 200, answer.json()
        assert (answer.json()["email"], answer.json()["email_pending"]) == (None, None), cleared


def test_too_many_confirmation_links_in_a_day_are_refused(outsider, django_capture_on_commit_callbacks):
    for i in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            client_for(outsider).patch(URL, {"email": f"me{i}@example.org"}, format="json")
    answer = client_for(outsider).patch(URL, {"email": "again@example.org"}, format="json")
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "throttled"


def test_my_vacation_left_is_listed_per_game(game):
    england = user_of(game, "ENGLAND")
    (row,) = client_for(england).get(URL).json()["vacation"]
    assert row["game"] == game.id and row["power"] == "ENGLAND"
    assert row["days_left"] == game.vacation_days and row["away_until"] is None


def test_a_seat_in_a_game_not_started_has_no_power_yet_null_not_empty(players, master):
    game = game_create(name="Forming", variant="standard", masters=[master])
    game_join(game_id=game.id, user=players[0])
    (row,) = client_for(players[0]).get(URL).json()["vacation"]
    assert row["game"] == game.id and row["power"] is None
