"""Issue 33, the phone: a tap on the map zoomed out zooms it in to the finger, where every tap target
(units, the provinces a unit may go to, coast rings) is 44 by 44 CSS px or more (WCAG 2.5.5); a unit's
orders come in a sheet over the map, all on the screen, with buttons as big; and arrows stay legible at
any zoom, on a phone as on a laptop (stroke widths follow the zoom). Before the first tap the map takes a
phone's screen below its top, the board filling that height (it was 330 px tall, the rest of the screen
the panels under it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.profiles import (
    ZOOMED_OUT,
    both_profiles,
    open_game_as,
    order_line,
    tap_province,
    tap_unit,
    unit,
)
from tests.browser.test_lobby_actions import started, user_of

pytestmark = pytest.mark.django_db(transaction=True)

FINGER = 44  # CSS px
LEGIBLE = 1.75  # CSS px: the thinnest arrow (a dashed support line) a screen still shows plainly

BOXES = """(selector) => [...document.querySelectorAll(selector)].map((n) => {
  const r = n.getBoundingClientRect();
  return [n.id || n.dataset.location || n.parentElement.dataset.location || n.textContent, r.width, r.height];
})"""

# The narrowest stroke of my drawn orders, in CSS px on the screen as the map is drawn now.
THINNEST_ARROW = """() => {
  const svg = document.querySelector("#map svg");
  const screen = svg.getScreenCTM().a;
  const widths = [...svg.querySelectorAll("#live-orders .order")].map(
    (p) => parseFloat(getComputedStyle(p).strokeWidth) * screen);
  return Math.min(...widths);
}"""


# The map's frame and the board as drawn in it (CSS px), and the screen.
FILLED = """() => {
  const frame = document.querySelector("#map").getBoundingClientRect();
  const svg = document.querySelector("#map svg");
  const ctm = svg.getScreenCTM();
  const box = svg.viewBox.baseVal;
  return { top: frame.top, bottom: frame.bottom, left: frame.left, right: frame.right,
    boardLeft: ctm.e + box.x * ctm.a, boardRight: ctm.e + (box.x + box.width) * ctm.a,
    boardTop: ctm.f + box.y * ctm.d, boardBottom: ctm.f + (box.y + box.height) * ctm.d,
    screen: window.innerHeight, scrolled: window.scrollY };
}"""


def too_small(page, selector: str) -> list:
    return [box for box in page.evaluate(BOXES, selector) if box[1] < FINGER - 0.5 or box[2] < FINGER - 0.5]


def test_on_a_phone_a_tap_zooms_to_targets_a_finger_can_hit_and_orders_come_in_a_sheet(
    browser, live_server, shoot
):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Fingers first", "finger")
        russia = user_of(game, "RUSSIA")  # St Petersburg's fleet stands on a named coast
    page = open_game_as(browser, base, game, russia, lock, "phone")
    assert page.evaluate(ZOOMED_OUT)
    sevastopol = unit(page, "SEV").locator(".unit")
    sevastopol.scroll_into_view_if_needed()
    box = sevastopol.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(f"() => !({ZOOMED_OUT})()")  # the first tap zoomed to the finger
    expect(page.locator("#unit-options h3")).to_have_count(0)  # and chose nothing yet
    page.wait_for_function("() => Math.abs(document.querySelector('#map').getBoundingClientRect().top) < 1")
    assert page.locator("#map").bounding_box()["width"] >= page.viewport_size["width"] - 1  # edge to edge
    assert not too_small(page, "#map #units .unit-group .tap-halo"), too_small(page, "#map .tap-halo")
    assert not too_small(page, "#map #coasts .coast-target")

    tap_unit(page, "SEV")
    expect(page.locator("#unit-options h3")).to_have_text("Orders for F SEV")
    assert not too_small(page, "#map #provinces .province.target")
    sheet = page.locator("#options-slot")
    frame = sheet.bounding_box()
    screen = page.viewport_size
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= screen["height"] + 0.5, frame
    assert frame["y"] > screen["height"] / 3, "the sheet leaves the map in view above it"
    assert page.locator("#map").bounding_box()["y"] < 1  # the map still at the top of the screen
    assert not too_small(page, "#unit-options .option, #unit-options .mode")
    for button in page.locator("#unit-options .option").all():
        button_box = button.bounding_box()
        assert button_box["y"] + button_box["height"] <= frame["y"] + frame["height"] + 0.5
    shoot(page, "sheet", full_page=False)
    tap_province(page, "RUM")
    expect(order_line(page, "F SEV - RUM")).to_contain_text("accepted")
    expect(page.locator("#unit-options h3")).to_have_count(0)


@both_profiles
def test_arrows_stay_legible_at_any_zoom(browser, live_server, profile, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Thick lines {profile}", f"thick{profile}")
        austria = user_of(game, "AUSTRIA")
    page = open_game_as(browser, base, game, austria, lock, profile)
    tap_unit(page, "VIE")
    tap_province(page, "GAL")
    tap_unit(page, "BUD")
    page.locator('#unit-options .mode[data-mode="support"]').click()
    tap_unit(page, "VIE")
    tap_province(page, "GAL")
    expect(order_line(page, "A BUD S A VIE - GAL")).to_contain_text("accepted")
    zoomed_in = page.evaluate(THINNEST_ARROW)
    assert zoomed_in >= LEGIBLE, f"an arrow {zoomed_in:.2f} CSS px wide"
    for _ in range(12):  # all the way out, however many steps that is
        if page.locator("#zoom-out").is_disabled():
            break
        page.locator("#zoom-out").click(force=True)
        page.wait_for_timeout(150)
    expect(page.locator("#zoom-out")).to_be_disabled()
    zoomed_out = page.evaluate(THINNEST_ARROW)
    assert zoomed_out >= LEGIBLE, f"an arrow {zoomed_out:.2f} CSS px wide when the map is zoomed out"
    shoot(page, "arrows", full_page=False)


def test_on_a_phone_the_map_takes_the_screen_below_its_top_before_the_first_tap(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Whole screen", "wholescreen")
        turkey = user_of(game, "TURKEY")
    page = open_game_as(browser, base, game, turkey, lock, "phone")
    shown = page.evaluate(FILLED)
    assert shown["scrolled"] == 0
    assert shown["bottom"] >= shown["screen"] - 20, f"the map ends at {shown['bottom']:.0f} px"
    assert shown["bottom"] <= shown["screen"], "and the whole of its frame is on the screen"
    assert shown["bottom"] - shown["top"] >= 0.6 * shown["screen"]
    # The board fills the frame (inside its border, to the pixel): its full height, and wider than the screen.
    assert shown["boardTop"] <= shown["top"] + 1.5 and shown["boardBottom"] >= shown["bottom"] - 1.5, shown
    assert shown["boardLeft"] < shown["left"] and shown["boardRight"] > shown["right"] - 1, shown
    # It shows my part of the board (Turkey's, at the board's right edge), my units in it to be tapped.
    assert shown["boardRight"] == pytest.approx(shown["right"], abs=1), shown
    for location in ("CON", "ANK", "SMY"):
        box = unit(page, location).bounding_box()
        assert box and shown["left"] <= box["x"] and box["x"] + box["width"] <= shown["right"], location
    assert page.evaluate(ZOOMED_OUT)  # a first tap still zooms in to the finger, as before
    shoot(page, "whole-screen", full_page=False)
    tap_unit(page, "CON")
    expect(page.locator("#unit-options h3")).to_have_text("Orders for A CON")


def test_on_a_phone_a_spectator_sees_the_middle_of_the_board(browser, live_server):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Whole screen watched", "watched")
    page = open_game_as(browser, base, game, None, lock, "phone")
    shown = page.evaluate(FILLED)
    middle = (shown["boardLeft"] + shown["boardRight"]) / 2
    assert abs(middle - (shown["left"] + shown["right"]) / 2) < 2, shown
