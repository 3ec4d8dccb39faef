"""Issue 33, "colours players know", as the game page draws them on a laptop and on a phone: each power's
units, the land it owns and its swatch in the powers table come from its variant's data, and every pair of
them, and each against the land and sea on the map, stays apart for everyone and under the
colour-blindness simulations (tests/render/palette.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dipserver.engine import load_variant
from tests.browser.profiles import both_profiles, open_game_as
from tests.browser.test_lobby_actions import started, user_of
from tests.render.palette import problems

pytestmark = pytest.mark.django_db(transaction=True)

# A unit of each power standing on one of its home centres at the start.
HOME = {
    "AUSTRIA": "VIE",
    "ENGLAND": "LON",
    "FRANCE": "PAR",
    "GERMANY": "BER",
    "ITALY": "ROM",
    "RUSSIA": "MOS",
    "TURKEY": "ANK",
}

DRAWN = """(home) => {
  const byte = (v) => Number(v).toString(16).padStart(2, "0");
  const hex = (css) => "#" + css.match(/\\d+/g).slice(0, 3).map(byte).join("");
  const fill = (code) => hex(getComputedStyle(document.querySelector(`#map #provinces [id="${code}"]`)).fill);
  const out = { units: {}, owned: {}, swatches: {}, land: fill("BOH"), sea: fill("ION") };
  for (const [power, code] of Object.entries(home)) {
    const unit = document.querySelector(`#map #units .unit-group[data-location="${code}"] .unit`);
    out.units[power] = unit.getAttribute("fill");
    out.owned[power] = fill(code);
    const rows = [...document.querySelectorAll("#powers-body tr")];
    const row = rows.find((tr) => tr.textContent.includes(power));
    out.swatches[power] = hex(getComputedStyle(row.querySelector(".swatch")).backgroundColor);
  }
  return out;
}"""


@both_profiles
def test_the_powers_colours_on_the_page_are_told_apart_by_everyone(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Colours {profile}", f"colour{profile}")
        player = user_of(game, "FRANCE")
    page = open_game_as(browser, base, game, player, lock, profile)
    expect(page.locator("#powers-body tr")).to_have_count(7)
    drawn = page.evaluate(DRAWN, HOME)
    data = {name: power.colour for name, power in load_variant("standard").powers.items()}
    assert drawn["units"] == data  # the map draws the variant's colours
    assert drawn["swatches"] == data  # and the page shows the same ones
    found = problems(drawn["units"], land=drawn["land"], sea=drawn["sea"], owned=drawn["owned"])
    assert not found, "\n".join(found)
    assert re.fullmatch(r"#[0-9a-f]{6}", drawn["sea"])
