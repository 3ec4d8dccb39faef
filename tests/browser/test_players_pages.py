"""Issue 36, in Chromium: a player's profile (reliability, games, ratings), the lobby's open seats taken
with a click, and the create form's options for players (minimums, replacements, bots, rated)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.phases import phase_process
from dipserver.games.services.powers import power_civil_disorder_set
from tests.browser.conftest import LAPTOP

pytestmark = pytest.mark.django_db(transaction=True)


def started(name: str, prefix: str) -> Game:
    users = get_user_model().objects
    game = game_create(name=name, variant="standard")
    for i in range(7):
        game_join(game_id=game.id, user=users.create_user(username=f"{prefix}{i}", password="x" * 12))
    game.refresh_from_db()
    return game


def signed_in_page(browser, base: str, path: str, user, lock) -> Page:
    context = browser.new_context(viewport=LAPTOP, locale="en-GB")
    if user is not None:
        with lock:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    page = context.new_page()
    page.goto(f"{base}{path}")
    return page


def test_a_profile_shows_reliability_and_the_games_played(browser, live_server, shoot):
    with live_server.lock:
        game = started("Profiled", "pr")
        phase_process(phase_id=game.current_phase_id, force=True)  # nobody ordered: 0 of 1
        name = Power.objects.get(game=game, name="FRANCE").user.username

    page = signed_in_page(browser, live_server.url, f"/players/{name}/", None, live_server.lock)

    expect(page.locator("#reliability")).to_contain_text("0%: orders given in 0 of 1 phases due")
    expect(page.locator(".record tfoot")).to_contain_text("All")
    expect(page.locator("#ratings-title")).to_be_visible()
    shoot(page, "profile")
    page.get_by_role("link", name="Profiled").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game.id}/")


def test_a_volunteer_takes_an_open_seat_from_the_lobby(browser, live_server, shoot):
    with live_server.lock:
        game = started("Seats", "se")
        france = Power.objects.get(game=game, name="FRANCE")
        power_civil_disorder_set(power_id=france.id)
        volunteer = get_user_model().objects.create_user(username="volunteer", password="x" * 12)

    page = signed_in_page(browser, live_server.url, "/games/", volunteer, live_server.lock)
    row = page.locator(f'#open-seats [data-seat="{france.id}"]')
    expect(row).to_contain_text("France")
    shoot(page, "open-seats")
    row.get_by_role("button", name="Take this seat").click()

    expect(page).to_have_url(f"{live_server.url}/games/{game.id}/")
    with live_server.lock:
        assert Power.objects.get(id=france.id).user == volunteer


def test_the_create_form_sets_the_options_for_players(browser, live_server, shoot):
    with live_server.lock:
        creator = get_user_model().objects.create_user(username="creator", password="x" * 12)

    page = signed_in_page(browser, live_server.url, "/games/new/", creator, live_server.lock)
    page.get_by_label("Name").fill("Options for players")
    page.get_by_label("Minimum reliability to join (%)").fill("70")
    page.get_by_label("Minimum rating to join (optional)").fill("1.5")
    page.get_by_label("Civil disorder after this many missed phases in a row").fill("3")
    page.get_by_label("I approve replacement players").check()
    page.get_by_label("Fill empty seats with bots").check()
    page.get_by_label("A bot plays a power in civil disorder").check()
    page.get_by_label("Rated").select_option("no")
    shoot(page, "create-options")
    page.get_by_role("button", name="Create the game").click()

    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    with live_server.lock:
        game = Game.objects.get(name="Options for players")
    assert (game.min_reliability, game.min_rating, game.missed_limit) == (70, 1.5, 3)
    assert (game.replacement_approval, game.bots_fill_seats, game.rated) == (True, True, False)
    assert game.bots_play_disorder
