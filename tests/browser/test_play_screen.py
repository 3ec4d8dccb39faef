"""Issue 33, the map on the screen: on a 1440 by 900 laptop the whole board shows without scrolling (the
Mediterranean was below the fold), and on both a laptop and a phone the map's key is read at 11 CSS px
or more (the legend band drawn into the picture came out at 8 px on a laptop, 3 on a phone)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.profiles import both_profiles, open_game_as
from tests.browser.test_lobby_actions import started, user_of

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = """() => {
  const svg = document.querySelector("#map svg");
  const board = svg.querySelector("#provinces").getBoundingClientRect();
  const frame = svg.getBoundingClientRect();
  const legend = svg.querySelector("#legend").getBoundingClientRect();
  return {
    boardBottom: board.bottom,
    frameBottom: frame.bottom,
    legendTop: legend.top,
    screen: window.innerHeight,
    smallestLegendText: Math.min(...[...svg.querySelectorAll("#legend text")]
      .filter((t) => t.getBoundingClientRect().top < frame.bottom)
      .map((t) => parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a)),
  };
}"""


@both_profiles
def test_the_whole_board_is_on_the_screen_and_its_key_is_legible(browser, live_server, profile, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Fold {profile}", f"fold{profile}")
        player = user_of(game, "ITALY")
    page = open_game_as(browser, base, game, player, lock, profile)
    shown = page.evaluate(SHOWN)
    assert shown["boardBottom"] <= shown["screen"], f"the board ends at {shown['boardBottom']:.0f} px"
    # The band of small print is not shown in the map at all: its keys are a list under it.
    assert shown["smallestLegendText"] == float("inf"), f"legend text at {shown['smallestLegendText']:.1f} px"
    key = page.locator("#map-key li")
    expect(key.filter(has_text=re.compile("^Sea$"))).to_have_count(1)
    expect(key.filter(has_text=re.compile("^Support$"))).to_have_count(1)
    expect(key.filter(has_text=re.compile("^Italy 3$"))).to_have_count(1)
    sizes = key.evaluate_all("items => items.map((li) => parseFloat(getComputedStyle(li).fontSize))")
    assert min(sizes) >= 11, sizes
    expect(page.locator("#map-key")).not_to_contain_text("Army, ,")  # the sample units name no one
    shoot(page, "board-and-key", full_page=False)
