"""Issue 33, "done when": from the click (or tap) that gives an order to its arrow on the map stays within
50 ms, on a laptop and on a phone, with everything this issue added to the page (the last turn drawn, the
tap halos, the key under the map)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.profiles import both_profiles, open_game_as, tap_province, tap_unit
from tests.browser.test_accessibility import played_once
from tests.browser.test_lobby_actions import user_of

pytestmark = pytest.mark.django_db(transaction=True)

BUDGET_MS = 50

# Times each click or tap on the map (captured before the page's own handler) to the first arrow of my
# orders drawn after it.
WATCH = """() => {
  window.arrowTimes = [];
  let clicked = null;
  document.addEventListener("click", () => { clicked = performance.now(); }, true);
  new MutationObserver((changes) => {
    if (clicked === null) return;
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.id === "live-orders" && node.querySelector(".live-order")) {
          window.arrowTimes.push(performance.now() - clicked);
          clicked = null;
          return;
        }
      }
    }
  }).observe(document.querySelector("#map"), { childList: true, subtree: true });
}"""


@both_profiles
def test_a_click_draws_its_arrow_within_50_ms(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = played_once(f"Quick {profile}", f"quick{profile}")  # the last turn lies on the map too
        russia = user_of(game, "RUSSIA")
    page = open_game_as(browser, base, game, russia, lock, profile)
    expect(page.locator("#last-turn")).to_be_visible()
    page.evaluate(WATCH)
    tap_unit(page, "WAR")
    tap_province(page, "UKR")
    expect(page.locator('#live-orders .live-order[data-text="A WAR - UKR"]')).to_have_count(1)
    tap_unit(page, "WAR")
    tap_unit(page, "WAR")  # the unit again: it holds instead
    expect(page.locator('#live-orders .live-order[data-text="A WAR H"]')).to_have_count(1)
    times = page.evaluate("window.arrowTimes")
    assert len(times) >= 2 and max(times) <= BUDGET_MS, times
