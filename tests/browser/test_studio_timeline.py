"""The studio's timeline editor and season-by-season preview in Chromium, on a laptop and a phone: a dated
event and a conditional one added with provinces picked on the map, saved with the draft and checked clean;
a check's problem shown beside the event it concerns; the preview stepping through the map's changes."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from dipserver.studio.models import Draft
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.test_lobby_actions import TIMEOUT, open_page
from tests.factories import GameMasterFactory
from tests.studio.conftest import small_draft

pytestmark = pytest.mark.django_db(transaction=True)
CLEAN = "No problems: ready to publish."


def editor(browser, live_server, prefix: str, viewport=LAPTOP) -> tuple[Page, Draft]:
    with live_server.lock:
        gm = GameMasterFactory(username=f"{prefix}-gm")
        draft = small_draft(gm, f"{prefix}-map")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock, viewport)
    expect(page.locator("#check-summary")).to_have_text(CLEAN, timeout=TIMEOUT)
    return page, draft


def pick(page: Page, field: str, *provinces: str) -> None:
    page.locator(f".pick-button[data-pick={field}]").click()
    for code in provinces:
        page.locator(f"path[data-province={code}]").click()
    expect(page.locator("path.province.picked")).to_have_count(len(provinces))
    page.locator(f".pick-button[data-pick={field}]").click()


def add_dated(page: Page) -> None:
    page.select_option("#event-timing", "year")
    page.fill("#event-year", "1903")
    page.select_option("#event-hook", "after_spring_retreats")
    page.select_option("#event-change", "sc_loss")
    pick(page, "event-provinces", "FAR")
    page.get_by_role("button", name="Add the event").click()


def add_conditional(page: Page) -> None:
    page.select_option("#event-timing", "when")
    page.fill("#event-year", "1901")
    page.select_option("#event-hook", "after_fall_retreats")
    page.select_option("#event-change", "impassable")
    pick(page, "event-provinces", "ESS")
    page.select_option("#when-kind", "occupied")
    page.select_option("#when-power", "RED")
    pick(page, "when-provinces", "ALP")
    page.fill("#when-until", "1910")
    page.get_by_role("button", name="Add the event").click()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_dated_and_a_conditional_event_are_added_saved_and_checked(browser, live_server, viewport, shoot):
    page, draft = editor(browser, live_server, f"events-{viewport['width']}", viewport)
    add_dated(page)
    add_conditional(page)
    events = page.locator("#timeline-events > li")
    expect(events).to_have_count(2)
    expect(events.nth(0)).to_contain_text("1903 after the Spring retreats: FAR stops being a supply centre")
    expect(events.nth(1)).to_contain_text("when RED's units stand in ALP (from 1901 until 1910)")
    fired = "RED's units stand in ALP (event 2)"
    expect(page.locator("#check-timeline")).to_contain_text(fired, timeout=TIMEOUT)
    expect(page.locator("#save-state")).to_contain_text("saved (revision")
    expect(page.locator("#check-summary")).to_have_text(CLEAN)
    shoot(page, f"studio-timeline-{viewport['width']}")
    with live_server.lock:
        saved = Draft.objects.get(id=draft.id).data["timeline"]["events"]
    assert saved == [
        {"year": 1903, "hook": "after_spring_retreats", "change": "sc_loss", "provinces": ["FAR"]},
        {
            "year": 1901,
            "hook": "after_fall_retreats",
            "change": "impassable",
            "provinces": ["ESS"],
            "when": {"occupied": ["ALP"], "power": "RED"},
            "until": 1910,
        },
    ]


def test_the_checks_problem_is_shown_beside_its_event_and_goes_when_it_is_removed(browser, live_server):
    page, _ = editor(browser, live_server, "beside")
    add_dated(page)
    page.fill("#event-year", "1902")
    page.select_option("#event-change", "land")
    pick(page, "event-provinces", "ALP")
    page.get_by_role("button", name="Add the event").click()
    expect(page.locator("#check-summary")).to_have_text("1 problem(s)", timeout=TIMEOUT)
    expect(page.locator("#timeline-events > li[data-event='2'] .problems")).to_contain_text("ALP")
    expect(page.locator("#timeline-events > li[data-event='1'] .problems li")).to_have_count(0)
    page.get_by_role("button", name="Remove event 2").click()
    expect(page.locator("#check-summary")).to_have_text(CLEAN, timeout=TIMEOUT)


def test_an_event_is_edited_in_the_form(browser, live_server):
    page, draft = editor(browser, live_server, "edit")
    add_dated(page)
    expect(page.locator("#save-state")).to_contain_text("saved (revision 4)", timeout=TIMEOUT)
    page.get_by_role("button", name="Edit event 1").click()
    expect(page.locator("#event-provinces")).to_have_value("FAR")
    page.fill("#event-year", "1904")
    page.get_by_role("button", name="Save the event").click()
    expect(page.locator("#timeline-events > li")).to_contain_text("1904 after the Spring retreats")
    expect(page.locator("#save-state")).to_contain_text("saved (revision 5)", timeout=TIMEOUT)
    with live_server.lock:
        assert Draft.objects.get(id=draft.id).data["timeline"]["events"][0]["year"] == 1904


def test_an_event_without_provinces_is_refused_in_the_form(browser, live_server):
    page, _ = editor(browser, live_server, "empty")
    page.fill("#event-year", "1903")
    page.get_by_role("button", name="Add the event").click()
    expect(page.locator("#event-error")).to_have_text("Pick the provinces that change on the map.")
    expect(page.locator("#timeline-events > li")).to_have_text("No events: the map never changes.")


def test_the_preview_steps_through_the_maps_changes(browser, live_server, shoot):
    page, _ = editor(browser, live_server, "preview")
    add_dated(page)
    add_conditional(page)
    expect(page.locator("#preview")).to_be_visible(timeout=TIMEOUT)
    ess, far = page.locator("path[data-province=ESS]"), page.locator("path[data-province=FAR]")
    centres = page.locator("circle.centre")
    expect(centres).to_have_count(6)
    page.select_option("#preview-step", label="1901 after the Autumn retreats")
    expect(ess).to_have_class("province impassable")
    expect(centres).to_have_count(5)
    expect(page.locator("#preview-events")).to_contain_text("ESS becomes impassable")
    page.get_by_role("button", name="The step after").click()
    expect(page.locator("#preview-step")).to_have_value("3")
    expect(page.locator("#preview-events")).to_contain_text("FAR stops being a supply centre")
    expect(centres).to_have_count(4)
    expect(far).to_have_class("province land")
    shoot(page, "studio-preview")
    page.get_by_role("button", name="The step before").click()
    page.get_by_role("button", name="The step before").click()
    expect(page.locator("#preview-step")).to_have_value("1")
    expect(ess).to_have_class("province land")
    expect(centres).to_have_count(6)


def test_a_chance_event_and_a_loss_of_every_centre_but_some(browser, live_server):
    page, draft = editor(browser, live_server, "chance")
    page.select_option("#event-timing", "chance")
    page.fill("#event-chance", "1902: 25, 1903: 100")
    page.select_option("#event-change", "impassable")
    pick(page, "event-provinces", "DAL")
    page.get_by_role("button", name="Add the event").click()
    page.select_option("#event-timing", "year")
    page.fill("#event-year", "1905")
    page.select_option("#event-change", "sc_loss_all")
    expect(page.locator("#event-provinces")).to_be_hidden()
    pick(page, "event-except", "ALP", "COR")
    page.get_by_role("button", name="Add the event").click()
    expect(page.locator("#timeline-events > li").nth(1)).to_contain_text(
        "every supply centre is lost except ALP, COR"
    )
    expect(page.locator("#check-timeline")).to_contain_text("1905", timeout=TIMEOUT)
    with live_server.lock:
        events = Draft.objects.get(id=draft.id).data["timeline"]["events"]
    assert events[0]["chance"] == {"1902": 25, "1903": 100} and events[0]["provinces"] == ["DAL"]
    assert events[1] == {
        "year": 1905,
        "hook": "after_spring_retreats",
        "change": "sc_loss_all",
        "except": ["ALP", "COR"],
    }


def test_a_when_naming_a_power_the_variant_lacks_is_a_problem_beside_its_event(browser, live_server):
    page, _ = editor(browser, live_server, "nopower")
    tables = json.loads(page.locator("#tables").input_value())
    broken = {
        "hook": "after_fall_retreats",
        "change": "sea",
        "provinces": ["ESS"],
        "when": {"centres": 3, "power": "GREEN"},
    }
    tables["timeline"] = {"events": [broken]}
    page.locator("#tables").fill(json.dumps(tables))
    problem = page.locator("#timeline-events > li[data-event='1'] .problems")
    expect(problem).to_contain_text("'GREEN' is not a power", timeout=TIMEOUT)
    page.locator("#check-problems").get_by_role("button").click()  # the problem leads to its event
    expect(page.locator("#event-form-title")).to_have_text("Event 1")
    expect(page.locator("#when-power")).to_have_value("GREEN")
    page.select_option("#when-power", "BLUE")
    page.get_by_role("button", name="Save the event").click()
    expect(page.locator("#check-summary")).to_have_text(CLEAN, timeout=TIMEOUT)
    expect(problem).to_have_count(1)
    expect(problem.locator("li")).to_have_count(0)


def test_an_event_on_the_default_hook_keeps_it_when_edited(browser, live_server):
    page, draft = editor(browser, live_server, "defaults")
    tables = json.loads(page.locator("#tables").input_value())
    event = {"year": 1903, "change": "sc_loss", "provinces": ["FAR"], "if": "late"}
    tables["timeline"] = {
        "defaults": {"hook": "after_fall_retreats"},
        "options": {"late": {"default": True}},
        "events": [event],
    }
    page.locator("#tables").fill(json.dumps(tables))
    expect(page.locator("#timeline-events > li")).to_contain_text("1903 at the default hook")
    page.get_by_role("button", name="Edit event 1").click()
    page.fill("#event-year", "1904")
    page.get_by_role("button", name="Save the event").click()
    expect(page.locator("#check-timeline")).to_contain_text("1904", timeout=TIMEOUT)
    with live_server.lock:
        saved = Draft.objects.get(id=draft.id).data["timeline"]["events"]
    assert saved == [{**event, "year": 1904}], "no hook written, the option kept"
