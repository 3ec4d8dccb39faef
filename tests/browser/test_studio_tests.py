"""The studio's panels beyond the timeline in Chromium: the variant's own tests written by placing units on
the map, red until what must follow is right, then green, after each save; a case tried before it is
added; the start's units placed and removed by clicks; coasts named; a victory condition added."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dipserver.studio.models import Draft
from tests.browser.test_studio_timeline import CLEAN, editor, pick

pytestmark = pytest.mark.django_db(transaction=True)


def saved(live_server, draft) -> dict:
    with live_server.lock:
        return Draft.objects.get(id=draft.id).data


def place(page: Page, placer: str, power: str, kind: str, *provinces: str) -> None:
    row = page.locator(f"[data-placer={placer}]")
    row.locator(".placer-power").select_option(power)
    row.locator(".placer-type").select_option(kind)
    row.locator(".place-button").click()
    for code in provinces:
        page.locator(f"path[data-province={code}]").click()
    row.locator(".place-button").click()


def write_test(page: Page, after: str) -> None:
    page.fill("#test-name", "Red marches on")
    place(page, "test", "RED", "A", "ALP")
    expect(page.locator("#test-units")).to_have_value("RED: A ALP")
    page.fill("#test-orders", "RED: A ALP - BRE")
    page.fill("#expect-units", after)
    page.fill("#expect-phase", "F1901M")


def test_a_test_is_red_until_what_must_follow_is_right_then_green(browser, live_server, shoot):
    page, draft = editor(browser, live_server, "cases")
    write_test(page, "RED: A ALP")
    page.get_by_role("button", name="Add the test").click()
    first = page.locator("#tests-list > li").first
    expect(first).to_have_class("failed", timeout=15_000)
    expect(first).to_contain_text("RED's units are A BRE, not A ALP")
    # Marked and listed as the studio page lists a version's tests (one helper builds both).
    expect(first.locator(".test-mark")).to_have_text("✗ fails")
    expect(first.locator(".test-failures li")).to_have_text(["RED's units are A BRE, not A ALP"])
    expect(page.locator("#check-summary")).to_have_text("1 problem(s)")
    shoot(page, "studio-test-red")
    page.get_by_role("button", name="Edit test 1").click()
    expect(page.locator("#test-units")).to_have_value("RED: A ALP")
    page.fill("#expect-units", "RED: A BRE")
    page.get_by_role("button", name="Save the test").click()
    expect(first).to_have_class("passed", timeout=15_000)
    expect(first.locator(".test-mark")).to_have_text("✓ passes")
    expect(first.locator(".test-failures")).to_have_count(0)
    expect(page.locator("#tests-summary")).to_have_text("1 of 1 test(s) pass")
    expect(page.locator("#check-summary")).to_have_text(CLEAN)
    assert saved(live_server, draft)["tests"] == {
        "scenarios": [
            {
                "name": "Red marches on",
                "units": {"RED": ["A ALP"]},
                "orders": {"RED": ["A ALP - BRE"]},
                "expect": {"units": {"RED": ["A BRE"]}, "phase": "F1901M"},
            }
        ]
    }


def test_a_case_is_tried_before_it_is_added(browser, live_server):
    page, draft = editor(browser, live_server, "try")
    write_test(page, "RED: A ALP")
    page.get_by_role("button", name="Try it").click()
    expect(page.locator("#test-tried")).to_have_text("✗ It fails: RED's units are A BRE, not A ALP")
    page.fill("#expect-units", "RED: A BRE")
    page.get_by_role("button", name="Try it").click()
    expect(page.locator("#test-tried")).to_have_text("✓ It passes.")
    assert "tests" not in saved(live_server, draft)


def test_the_starts_units_are_placed_and_removed_by_clicking(browser, live_server):
    page, draft = editor(browser, live_server, "start")
    place(page, "start", "RED", "A", "DAL", "ALP")
    expect(page.locator("#start-units")).to_contain_text("RED: A DAL")
    expect(page.locator("text.unit[data-unit=DAL]")).to_have_count(1)
    expect(page.locator("#save-state")).to_contain_text("saved (revision", timeout=15_000)
    assert saved(live_server, draft)["start"]["units"] == {"RED": ["A DAL"], "BLUE": ["F COR"]}


def test_named_coasts_are_written_and_checked(browser, live_server):
    page, draft = editor(browser, live_server, "coasts")
    page.locator("path[data-province=BRE]").click()
    page.fill("#province-coasts", "NC: NTH; SC: COR")
    page.locator("#province-coasts").press("Tab")
    expect(page.locator("#province-problems")).to_contain_text("touches no water", timeout=15_000)
    assert saved(live_server, draft)["map"]["provinces"]["BRE"]["coasts"] == {"NC": ["NTH"], "SC": ["COR"]}


def test_a_victory_condition_and_the_centres_to_win_are_set(browser, live_server):
    page, draft = editor(browser, live_server, "victory")
    page.fill("#victory-centres", "5")
    page.locator("#victory-centres").press("Tab")
    page.select_option("#victory-type", "province_control")
    pick(page, "victory-provinces", "ALP", "COR")
    page.locator("#victory-split").check()
    page.get_by_role("button", name="Add the condition").click()
    expect(page.locator("#victory-list")).to_contain_text(
        "owning ALP, COR wins; split between powers, a draw"
    )
    expect(page.locator("#save-state")).to_contain_text("saved (revision", timeout=15_000)
    expect(page.locator("#check-summary")).to_have_text(CLEAN, timeout=15_000)
    data = saved(live_server, draft)
    assert data["variant"]["victory"] == {"centres": 5}
    assert data["timeline"]["victory"] == [
        {"type": "province_control", "provinces": ["ALP", "COR"], "split": "draw"}
    ]
