"""The two ways the game page is used in the issue 33 tests: a laptop with a mouse, and a phone held in the
hand (390 by 844, touch). ``open_as`` opens a page logged in as ``user`` (None: a visitor) in one of them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from tests.browser.conftest import LAPTOP, PHONE

TIMEOUT = 15_000  # ms: the page polls every 4 s

PROFILES = {
    "desktop": {"viewport": LAPTOP},
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
}
both_profiles = pytest.mark.parametrize("profile", list(PROFILES), ids=list(PROFILES))


def open_as(browser: Any, base: str, path: str, user: Any, lock: Any, profile: str) -> Page:
    context = browser.new_context(timezone_id="UTC", locale="en-GB", **PROFILES[profile])
    if user is not None:
        with lock:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    page = context.new_page()
    page.goto(f"{base}{path}")
    return page


def open_game_as(browser: Any, base: str, game: Any, user: Any, lock: Any, profile: str) -> Page:
    page = open_as(browser, base, f"/games/{game.id}/", user, lock, profile)
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    return page


def unit(page: Page, location: str, dislodged: bool = False):
    extra = ".dislodged" if dislodged else ":not(.dislodged)"
    return page.locator(f'#map #units .unit-group{extra}[data-location="{location}"]')


# Whether the map is zoomed out further than one SVG unit to a CSS pixel (mapview.js: a tap zooms first).
ZOOMED_OUT = """() => {
  const map = document.querySelector("#map");
  const svg = map.querySelector("svg");
  if (map.dataset.panzoom !== "on" || !svg) return false;
  return Number(map.dataset.scale || 1) * svg.clientWidth < svg.viewBox.baseVal.width;
}"""


def on_phone(page: Page) -> bool:
    return bool(page.viewport_size and page.viewport_size["width"] < 500)


def map_scale(page: Page) -> float:
    return float(page.locator("#map").get_attribute("data-scale") or 1)


def _tap_at(page: Page, target) -> None:
    """A finger on ``target`` (a locator, or a function giving the point): on a phone a tap on a map still
    zoomed out only zooms it in to the finger (the targets were too small), so the finger taps again."""
    point = target if callable(target) else None

    def where() -> tuple[float, float]:
        if point:
            return point()
        box = target.bounding_box()
        assert box, "nothing to tap"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    if not on_phone(page):
        page.mouse.click(*where())
        return
    zoomed_out = page.evaluate(ZOOMED_OUT)
    page.touchscreen.tap(*where())
    if zoomed_out:
        page.wait_for_function(f"() => !({ZOOMED_OUT})()")
        page.touchscreen.tap(*where())


def tap_unit(page: Page, location: str, dislodged: bool = False) -> None:
    target = unit(page, location, dislodged)
    target.scroll_into_view_if_needed()
    _tap_at(page, target.locator(".unit").first)


def tap_province(page: Page, code: str) -> None:
    """Click (or tap) where the map writes the province's name, as a player would."""
    label = page.locator("#map #labels text").filter(has_text=re.compile(f"^{code}$"))
    label.scroll_into_view_if_needed()
    _tap_at(page, label)


def order_line(page: Page, text: str):
    return page.locator(
        "#order-list li", has=page.locator(".order-text", has_text=re.compile(f"^{re.escape(text)}$"))
    )
