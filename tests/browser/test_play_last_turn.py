"""Issue 33: after a phase is processed, the new phase's map shows what just happened (the last turn's
orders and results, as the history map draws them) with one line saying who took what, until the player
hides it; hidden, it stays hidden on the next visit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.profiles import TIMEOUT, both_profiles, open_game_as
from tests.browser.test_accessibility import played_once
from tests.browser.test_lobby_actions import user_of

pytestmark = pytest.mark.django_db(transaction=True)


@both_profiles
def test_the_new_phase_shows_the_last_turn_until_it_is_hidden(browser, live_server, profile, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = played_once(f"Last turn {profile}", f"last{profile}")  # A BUD - SER went through
        england = user_of(game, "ENGLAND")
    page = open_game_as(browser, base, game, england, lock, profile)
    bar = page.locator("#last-turn")
    expect(bar).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#last-turn-summary")).to_have_text(
        "Last turn: Spring 1901 movement: Austria took SER."
    )
    drawn = page.locator("#map svg #last-turn-orders")
    expect(drawn.locator("path.order.move").first).to_be_attached()
    expect(drawn.locator(".mark").first).to_be_attached()  # the bounce in Galicia, crossed
    shoot(page, "last-turn", full_page=False)

    page.locator("#last-turn-hide").click()
    expect(bar).to_be_hidden()
    expect(drawn).to_have_count(0)
    page.reload()
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#map svg #units")).to_be_attached()
    page.wait_for_timeout(500)  # the last turn would come with the map's second request
    expect(bar).to_be_hidden()
    expect(drawn).to_have_count(0)
