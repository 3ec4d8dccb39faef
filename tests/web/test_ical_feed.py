"""The deadlines feed: a private signed address on the account page and in the API that calendar apps
fetch without signing in, answering an iCalendar file with one event per deadline of the games I play."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from icalendar import Calendar
from rest_framework.test import APIClient

from dipserver.accounts.calendar import SALT, calendar_token
from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join, game_pause
from dipserver.games.services.powers import power_replace
from tests.server.conftest import started_game
from tests.server.test_migrations_round_trip import migrated

pytestmark = pytest.mark.django_db


def make_users(prefix: str, count: int):
    return [get_user_model().objects.create_user(username=f"{prefix}{i}") for i in range(count)]


@pytest.fixture
def me():
    return get_user_model().objects.create_user(username="me", password="a long passphrase 1")


@pytest.fixture
def my_game(me) -> Game:
    return started_game([me, *make_users("ally", 6)], name="Western Front")


def feed_path(user) -> str:
    user.refresh_from_db()
    return f"/accounts/calendar/{calendar_token(user.id, user.calendar_key)}.ics"


def events(client, user) -> list:
    answer = client.get(feed_path(user))
    assert answer.status_code == 200
    return list(Calendar.from_ical(answer.content).walk("VEVENT"))


def test_calendar_apps_may_ask_with_head(client, me, my_game):
    answer = client.head(feed_path(me))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")


def test_the_feed_is_an_icalendar_file_without_signing_in(client, me, my_game):
    answer = client.get(feed_path(me))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(answer.content)
    assert str(calendar["VERSION"]) == "2.0" and "PRODID" in calendar
    assert "X-PUBLISHED-TTL:PT1H" in answer.content.decode()  # calendar apps fetch it again hourly


def test_each_open_deadline_is_one_event_at_its_time_in_utc(client, me, my_game):
    phase = my_game.current_phase
    [event] = events(client, me)
    assert event.decoded("DTSTART") == phase.deadline
    assert event.decoded("DTSTART").utcoffset() == dt.timedelta(0)
    assert event.decoded("DTEND") > event.decoded("DTSTART")
    assert "DTSTART:" in event.to_ical().decode() and event.to_ical().decode().count("Z\r\n") >= 3


def test_an_event_names_the_game_and_the_phase_and_links_to_the_game_page(client, me, my_game):
    [event] = events(client, me)
    assert str(event["SUMMARY"]) == "Western Front: Spring 1901 movement deadline"
    assert urlsplit(str(event["URL"])).path == f"/games/{my_game.id}/"
    power = Power.objects.get(game=my_game, user=me).name.title()
    assert power in str(event["DESCRIPTION"])


def test_an_events_uid_stays_with_its_phase(client, me, my_game):
    [first] = events(client, me)
    phase = my_game.current_phase
    phase.deadline += dt.timedelta(days=1)  # an extension moves the event, it does not add one
    phase.save(update_fields=["deadline"])
    [again] = events(client, me)
    assert str(again["UID"]) == str(first["UID"])
    assert again.decoded("DTSTART") == phase.deadline


def test_every_game_i_play_has_its_own_event(client, me, my_game):
    other = started_game([me, *make_users("rival", 6)], name="Eastern Front")
    uids = {str(e["UID"]) for e in events(client, me)}
    assert len(uids) == 2
    assert {str(e["SUMMARY"]).split(":")[0] for e in events(client, me)} == {my_game.name, other.name}


def test_another_users_games_never_appear(client, me, my_game):
    started_game(make_users("stranger", 7), name="Not mine")
    assert [str(e["SUMMARY"]).split(":")[0] for e in events(client, me)] == ["Western Front"]


def test_a_paused_games_deadline_is_not_listed(client, me, my_game):
    game_pause(game_id=my_game.id)
    assert events(client, me) == []


def test_a_game_i_have_left_is_not_listed(client, me, my_game):
    seat = Power.objects.get(game=my_game, user=me)
    seat.seat_open = True
    seat.save(update_fields=["seat_open"])
    power_replace(power_id=seat.id, user=get_user_model().objects.create_user(username="substitute"))
    assert events(client, me) == []


def test_a_game_not_started_has_no_deadline_to_list(client, me):
    game = game_create(name="Still forming", variant="standard")
    game_join(game_id=game.id, user=me)
    assert events(client, me) == []


def test_a_phase_without_a_deadline_is_not_listed(client, me, my_game):
    phase = my_game.current_phase
    phase.deadline = None
    phase.save(update_fields=["deadline"])
    assert events(client, me) == []


def test_an_eliminated_seat_has_no_deadlines(client, me, my_game):
    Power.objects.filter(game=my_game, user=me).update(status=Power.Status.ELIMINATED)
    assert events(client, me) == []


def test_an_altered_signature_is_not_found(client, me, my_game):
    path = feed_path(me)
    token = path.removeprefix("/accounts/calendar/").removesuffix(".ics")
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/accounts/calendar/{tampered}.ics").status_code == 404
    assert client.get("/accounts/calendar/not-a-token.ics").status_code == 404


def test_a_token_signed_for_another_purpose_is_not_found(client, me, my_game):
    forged = signing.Signer(salt="dipserver.accounts.email-confirm").sign_object(
        {"u": me.id, "k": me.calendar_key}
    )
    assert client.get(f"/accounts/calendar/{forged}.ics").status_code == 404


def test_my_key_does_not_open_another_users_feed(client, me, my_game):
    stranger = make_users("stranger", 1)[0]
    token = signing.Signer(salt=SALT).sign_object({"u": stranger.id, "k": me.calendar_key})
    assert client.get(f"/accounts/calendar/{token}.ics").status_code == 404


def test_a_new_address_revokes_the_old_one(client, me, my_game):
    old = feed_path(me)
    client.force_login(me)
    assert client.post("/accounts/calendar/renew/").status_code == 302
    client.logout()
    assert client.get(old).status_code == 404
    assert client.get(feed_path(me)).status_code == 200


def test_a_deactivated_account_has_no_feed(client, me, my_game):
    path = feed_path(me)
    me.is_active = False
    me.save(update_fields=["is_active"])
    assert client.get(path).status_code == 404


def test_the_account_page_shows_the_address_that_works(client, me, my_game):
    client.force_login(me)
    address = shown_address(client)
    assert 'action="/accounts/calendar/renew/"' in client.get("/accounts/settings/").content.decode()
    client.logout()
    assert client.get(urlsplit(address).path).status_code == 200


def shown_address(client) -> str:
    page = client.get("/accounts/settings/").content.decode()
    start = page.index('id="calendar-url"')
    return page[start:].split('value="', 1)[1].split('"', 1)[0]


def test_the_address_stays_the_same_from_one_visit_to_the_next(client, me):
    client.force_login(me)
    first = shown_address(client)
    assert shown_address(client) == first
    assert urlsplit(first).path == feed_path(me)


def test_the_api_gives_my_feeds_address(me, my_game):
    api = APIClient()
    api.force_authenticate(me)
    address = api.get("/api/v1/accounts/me").json()["calendar_url"]
    assert urlsplit(address).path == feed_path(me)
    assert APIClient().get(urlsplit(address).path).status_code == 200


def test_the_api_makes_a_new_address_and_the_old_one_stops(me, my_game):
    api = APIClient()
    api.force_authenticate(me)
    old = urlsplit(api.get("/api/v1/accounts/me").json()["calendar_url"]).path
    answer = api.post("/api/v1/accounts/calendar/renew")
    assert answer.status_code == 200
    new = urlsplit(answer.json()["calendar_url"]).path
    assert new != old and new == urlsplit(api.get("/api/v1/accounts/me").json()["calendar_url"]).path
    assert APIClient().get(old).status_code == 404 and APIClient().get(new).status_code == 200


def test_renewing_needs_a_signed_in_post(client, me):
    old = feed_path(me)
    assert client.post("/accounts/calendar/renew/").status_code == 302  # to the sign-in page
    client.force_login(me)
    assert client.get("/accounts/calendar/renew/").status_code == 405
    assert feed_path(me) == old


def test_accounts_made_before_the_feed_each_get_their_own_key(transactional_db):
    apps = migrated([("accounts", "0003_api_tokens")])
    user_model = apps.get_model("accounts", "User")
    ids = [user_model.objects.create(username=f"old{i}", password="!").id for i in range(3)]
    migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
    keys = set(get_user_model().objects.filter(id__in=ids).values_list("calendar_key", flat=True))
    assert len(keys) == 3 and "" not in keys
