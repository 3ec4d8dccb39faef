"""A game master tries a studio draft in a sandbox, on a laptop and on a phone: "Try in a sandbox" in
the editor opens the draft as saved, on the sandbox page, its map drawn from the draft's drawing."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from dipserver.sandbox.models import Sandbox
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.test_lobby_actions import TIMEOUT, open_page
from tests.factories import GameMasterFactory
from tests.studio.conftest import small_draft

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_try_in_a_sandbox_opens_the_draft_with_its_map(browser, live_server, screen):
    with live_server.lock:
        gm = GameMasterFactory(username=f"try{screen['width']}")
        draft = small_draft(gm, f"try-{screen['width']}")
    page = open_page(
        browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock, viewport=screen
    )
    expect(page.locator("#check-summary")).to_have_text("No problems: ready to publish.", timeout=TIMEOUT)
    page.get_by_role("button", name="Try in a sandbox").click()
    expect(page).to_have_url(re.compile(r"/sandboxes/\d+/$"), timeout=TIMEOUT)
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator('#map #provinces [id="ALP"]')).to_have_count(1)  # the small map's own province
    expect(page.locator('#map #units .unit-group[data-location="ALP"]')).to_have_count(1)
    with live_server.lock:
        sandbox = Sandbox.objects.get(owner=gm)
    assert sandbox.source == Sandbox.Source.DRAFT and sandbox.origin["draft"] == draft.id


def test_an_edit_not_yet_saved_is_saved_before_the_sandbox_opens(browser, live_server):
    with live_server.lock:
        gm = GameMasterFactory(username="try-edit")
        draft = small_draft(gm, "try-edit")
    page = open_page(browser, live_server.url, f"/studio/drafts/{draft.id}/", gm, live_server.lock)
    expect(page.locator("#check-summary")).to_have_text("No problems: ready to publish.", timeout=TIMEOUT)
    tables = json.loads(page.locator("#tables").input_value())
    tables["variant"]["powers"]["RED"]["name"] = "Scarlet"
    page.locator("#tables").fill(json.dumps(tables))
    page.get_by_role("button", name="Try in a sandbox").click()  # at once: the save is still waiting
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("#power-select option[value=RED]")).to_have_text("Scarlet")
