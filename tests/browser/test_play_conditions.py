"""The map changes that wait on a condition of the game (``when`` in a timeline) on the game page, on a
laptop and on a phone: under "Map changes coming" each is said in the server's words, marked when its
condition holds on the board now, and pointing at it (or its "Show ... on the map") outlines the provinces
its condition names. The game plays a copy of the standard map whose timeline has only
``SNOWED_UKRAINE`` (tests/api/test_timeline_conditions.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.api.test_coming import set_up
from tests.api.test_timeline_conditions import conditional_standard  # noqa: F401 (a fixture)
from tests.browser.profiles import TIMEOUT, both_profiles, on_phone, open_game_as
from tests.browser.test_lobby_actions import started, user_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("conditional_standard")]

WATCHED = re.compile(r"\bwatched\b")
WORDS = "From 1903, after the Autumn retreats, when GERMANY controls WAR: UKR becomes impassable"


def condition(page: Page):
    return page.locator("#conditions-list > li", has_text="when GERMANY controls WAR")


def warsaw(page: Page):
    return page.locator('#map #provinces [id="WAR"]')


@both_profiles
def test_a_conditional_change_is_listed_in_its_words(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Waiting change {profile}", f"waitchange{profile}")
        player = user_of(game, "FRANCE")
    page = open_game_as(browser, base, game, player, lock, profile)

    expect(condition(page)).to_contain_text(WORDS, timeout=TIMEOUT)
    expect(condition(page).locator(".holds-now")).to_have_count(0)  # Germany does not hold Warsaw
    expect(page.locator("#changes-list")).to_contain_text("No more map changes on set dates.")


@both_profiles
def test_a_condition_that_holds_now_says_the_change_comes_at_the_next_hook(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Holding change {profile}", f"holdchange{profile}")
        set_up(game, "F1903M", "GERMANY A WAR", owners={"GERMANY": ["WAR", "BER"]})
        player = user_of(game, "FRANCE")
    page = open_game_as(browser, base, game, player, lock, profile)

    expect(condition(page).locator(".holds-now")).to_have_text(
        "Holds now: comes at the next hook, after the Autumn retreats.", timeout=TIMEOUT
    )
    expect(condition(page)).to_have_class(re.compile(r"\bholds\b"))


@both_profiles
def test_pointing_at_a_conditional_change_outlines_its_conditions_provinces(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Pointed change {profile}", f"pointchange{profile}")
        player = user_of(game, "FRANCE")
    page = open_game_as(browser, base, game, player, lock, profile)
    expect(warsaw(page)).not_to_have_class(WATCHED)

    if on_phone(page):  # a finger taps it
        condition(page).get_by_role("button", name="Show WAR on the map").tap()
    else:
        condition(page).hover()

    expect(warsaw(page)).to_have_class(WATCHED, timeout=TIMEOUT)
    expect(page.locator("#map #provinces .watched")).to_have_count(1)


@both_profiles
def test_a_change_shown_on_the_map_stays_outlined_until_pressed_again(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Pinned change {profile}", f"pinchange{profile}")
        player = user_of(game, "FRANCE")
    page = open_game_as(browser, base, game, player, lock, profile)
    show = condition(page).get_by_role("button", name="Show WAR on the map")

    show.click()
    page.locator("#powers-title").hover()  # the pointer leaves it
    expect(warsaw(page)).to_have_class(WATCHED)
    expect(show).to_have_attribute("aria-pressed", "true")

    show.click()
    page.locator("#powers-title").hover()
    expect(warsaw(page)).not_to_have_class(WATCHED)
    expect(show).to_have_attribute("aria-pressed", "false")
