"""The variant studio's editor in Chromium: a blank draft given the small SVG map, its provinces clicked
and edited, its borders corrected by clicking, the rest written as tables, checked clean and published;
each problem of the check is shown beside its province; edits not yet saved survive a closed tab; an edit
still waiting for its save when Publish is clicked is saved first and published, and one that cannot be
saved publishes nothing."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from dipserver.studio import services
from dipserver.studio.models import Draft, VariantVersion
from tests.browser.test_lobby_actions import TIMEOUT, open_page
from tests.factories import GameMasterFactory
from tests.studio.conftest import DATA, small_draft, small_variant_tables

pytestmark = pytest.mark.django_db(transaction=True)


def editor(browser, live_server, prefix: str) -> tuple[Page, Draft]:
    with live_server.lock:
        gm = GameMasterFactory(username=f"{prefix}-gm")
        draft = services.draft_create(user=gm, slug=f"{prefix}-map", name="Small")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock)
    expect(page.locator("body[data-ready=true]")).to_have_count(1, timeout=TIMEOUT)
    page.set_input_files("#svg-file", str(DATA / "small_map.svg"))
    page.get_by_role("button", name="Import the map").click()
    expect(page.locator("path[data-province=ALP]")).to_have_count(1, timeout=TIMEOUT)
    return page, draft


def tables_of(page: Page) -> dict:
    return json.loads(page.locator("#tables").input_value())


def test_a_game_master_draws_checks_and_publishes_a_small_map(browser, live_server, shoot):
    page, _ = editor(browser, live_server, "draw")
    expect(page.locator("#svg-warnings")).to_contain_text("path42")
    tables = {**tables_of(page), **small_variant_tables()}
    for code in ("BRE", "COR", "DAL", "ESS", "FAR"):
        tables["map"]["provinces"][code]["sc"] = True
    tables["map"]["provinces"]["ALP"]["home"], tables["map"]["provinces"]["COR"]["home"] = "RED", "BLUE"
    page.locator("#tables").fill(json.dumps(tables))
    # RED's home ALP is no centre yet: the check says so beside ALP until it is made one by clicking.
    expect(page.locator("#check-problems")).to_contain_text("home centre", timeout=TIMEOUT)
    expect(page.locator("path[data-province=ALP].problem")).to_have_count(1)
    page.locator("path[data-province=ALP]").click()
    expect(page.locator("#province-code")).to_have_text("ALP")
    page.locator("#province-sc").check()
    expect(page.locator("#check-summary")).to_have_text("No problems: ready to publish.", timeout=TIMEOUT)
    shoot(page, "studio-small-map")
    page.get_by_role("button", name="Publish").click()
    expect(page.locator("#publish-result")).to_contain_text("version 1", timeout=TIMEOUT)
    with live_server.lock:
        assert VariantVersion.objects.get(slug="draw-map").geometry["width"] == 300


def test_borders_are_corrected_by_clicking(browser, live_server):
    page, draft = editor(browser, live_server, "border")
    page.locator("path[data-province=ALP]").click()
    expect(page.locator("#province-borders")).to_have_text("BRE, DAL, NTH")
    page.locator("#edit-borders").check()
    page.locator("path[data-province=ESS]").click()
    expect(page.locator("#province-borders")).to_have_text("BRE, DAL, ESS, NTH")
    expect(page.locator("#save-state")).to_contain_text("saved (revision", timeout=TIMEOUT)
    with live_server.lock:
        provinces = Draft.objects.get(id=draft.id).data["map"]["provinces"]
    assert "ESS" in provinces["ALP"]["borders"] and "ALP" in provinces["ESS"]["borders"]


def test_a_problem_is_shown_beside_its_province(browser, live_server):
    with live_server.lock:
        gm = GameMasterFactory(username="problem-gm")
        draft = small_draft(gm, "problem-map")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock)
    expect(page.locator("#check-summary")).to_have_text("No problems: ready to publish.", timeout=TIMEOUT)
    page.locator("path[data-province=COR]").click()
    page.locator("#province-sc").uncheck()
    expect(page.locator("path[data-province=COR].problem")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#province-problems")).to_contain_text("home centre", timeout=TIMEOUT)


def test_edits_not_yet_saved_survive_a_closed_tab(browser, live_server):
    page, draft = editor(browser, live_server, "closed")
    tables = tables_of(page)
    tables["variant"]["description"] = "Kept in the browser"
    page.route(
        "**/api/v1/studio/drafts/*",
        lambda route: route.abort() if route.request.method == "PUT" else route.continue_(),
    )
    page.locator("#tables").fill(json.dumps(tables))
    expect(page.locator("#save-state")).to_have_text("not saved", timeout=TIMEOUT)
    page.unroute("**/api/v1/studio/drafts/*")
    page.reload()
    expect(page.locator("#notice")).to_contain_text("restored", timeout=TIMEOUT)
    expect(page.locator("#save-state")).to_contain_text("saved (revision", timeout=TIMEOUT)
    with live_server.lock:
        assert Draft.objects.get(id=draft.id).data["variant"]["description"] == "Kept in the browser"


def clean_draft_open(browser, live_server, prefix: str) -> tuple[Page, Draft]:
    with live_server.lock:
        gm = GameMasterFactory(username=f"{prefix}-gm")
        draft = small_draft(gm, f"{prefix}-map")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock)
    expect(page.locator("#check-summary")).to_have_text("No problems: ready to publish.", timeout=TIMEOUT)
    return page, draft


def test_publish_right_after_an_edit_publishes_the_edit(browser, live_server):
    page, _ = clean_draft_open(browser, live_server, "quick")
    tables = tables_of(page)
    tables["variant"]["name"] = "Renamed just now"
    page.locator("#tables").fill(json.dumps(tables))
    page.get_by_role("button", name="Publish").click()  # before the edit's own save is due
    expect(page.locator("#publish-result")).to_contain_text("version 1", timeout=TIMEOUT)
    with live_server.lock:
        assert VariantVersion.objects.get(slug="quick-map").name == "Renamed just now"


def test_publish_with_an_edit_that_cannot_be_saved_publishes_nothing(browser, live_server):
    page, _ = clean_draft_open(browser, live_server, "unsaved")
    page.route(
        "**/api/v1/studio/drafts/*",
        lambda route: route.abort() if route.request.method == "PUT" else route.continue_(),
    )
    tables = tables_of(page)
    tables["variant"]["name"] = "Never saved"
    page.locator("#tables").fill(json.dumps(tables))
    page.get_by_role("button", name="Publish").click()
    expect(page.locator("#publish-result")).to_have_text(
        "Not published: the latest edits could not be saved (the notice above says why).", timeout=TIMEOUT
    )
    with live_server.lock:
        assert not VariantVersion.objects.filter(slug="unsaved-map").exists()
