"""The game master gives a running studio game a newer version of its variant from the game page, in
Chromium: the versions published since are listed, one is previewed (what it changes, and what refuses it
now), and given from the start of the open phase; a position the new map cannot hold keeps it refused."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import expect

from dipserver.games.models import Game, Phase
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.versions import version_preview
from dipserver.games.version_diff import diff_lines
from dipserver.studio import services
from tests.browser.test_lobby_actions import TIMEOUT, open_game
from tests.factories import GameFactory, GameMasterFactory, UserFactory
from tests.studio.conftest import small_draft
from tests.studio.test_game_versions import republished, without_ess

pytestmark = pytest.mark.django_db(transaction=True)

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def studio_game(prefix: str) -> tuple[Game, object, object]:
    """A started game of the small studio map's version 1, its master, and version 2 without ESS."""
    gm = GameMasterFactory(username=f"{prefix}-gm")
    gm.set_password("x" * 12)
    gm.save()
    draft = small_draft(gm, slug=f"{prefix}-small")
    first = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    players = [UserFactory(username=f"{prefix}-p{i}") for i in range(2)]
    game = GameFactory(
        name=f"{prefix} game",
        variant="",
        studio_version=first.id,
        players=players,
        joined_at=START,
        masters=[gm],
    )
    return game, gm, republished(gm, first.draft, without_ess)


def test_the_master_previews_and_gives_a_newer_version(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, gm, second = studio_game("given")
    page = open_game(browser, base, game, gm, lock)
    box = page.locator("#studio-versions")
    box.locator("summary").click()
    expect(box).to_have_attribute("data-ready", "true", timeout=TIMEOUT)
    box.get_by_role("button", name="Preview").click()
    expect(page.locator("#version-diff")).to_contain_text("Provinces removed: ESS")
    expect(page.locator("#version-diff")).to_contain_text("Supply centres removed: ESS")
    with lock:  # the players' news says the same sentences, in the same order
        told = diff_lines(version_preview(game_id=game.id, version_id=second.id).diff)
    expect(page.locator("#version-diff li")).to_have_text(told)
    expect(page.locator("#version-problems li")).to_have_count(0)
    shoot(page, "version-preview")
    page.get_by_role("button", name="Give the game version 2 from S1901M").click()
    expect(page.locator("#version-result")).to_contain_text("plays version 2 now")
    expect(page.locator("#studio-versions summary")).to_contain_text("version 2", timeout=TIMEOUT)
    with lock:
        assert Game.objects.get(id=game.id).studio_version_id == second.id
    page.locator("#studio-versions summary").click()
    expect(page.locator("#versions-changes")).to_contain_text("S1901M: version 1 → 2", timeout=TIMEOUT)
    expect(page.locator("#versions-none")).to_be_visible()


def test_a_position_the_new_map_cannot_hold_keeps_it_refused(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, gm, second = studio_game("held")
        phase = Phase.objects.get(game=game, index=0)
        phase.snapshot["units"].append({"power": "RED", "type": "A", "location": "ESS"})
        phase.save(update_fields=["snapshot"])
    page = open_game(browser, base, game, gm, lock)
    page.locator("#studio-versions summary").click()
    page.locator("#studio-versions").get_by_role("button", name="Preview").click()
    expect(page.locator("#version-problems")).to_contain_text("ESS is not on the new map")
    expect(page.locator("#version-apply")).to_be_disabled()
    shoot(page, "version-refused")
    with lock:
        assert Game.objects.get(id=game.id).studio_version_id != second.id


def dal_moved_from_alp_to_far(tables: dict[str, Any]) -> None:
    """Version 2's map (no ESS) with DAL bordering FAR instead of ALP."""
    provinces = tables["map"]["provinces"]
    provinces["ALP"]["borders"].remove("DAL")
    provinces["DAL"]["borders"] = ["FAR"]
    provinces["FAR"]["borders"].append("DAL")


def test_an_order_the_new_map_refuses_is_named_with_its_power_and_why(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, gm, second = studio_game("named")
        third = republished(gm, second.draft, dal_moved_from_alp_to_far)
        red = game.powers.get(name="RED").user
        given = orders_submit(game_id=game.id, user=red, text="A ALP - DAL", phase="S1901M", now=START)
        assert given.accepted
    page = open_game(browser, base, game, gm, lock)
    box = page.locator("#studio-versions")
    box.locator("summary").click()
    expect(box).to_have_attribute("data-ready", "true", timeout=TIMEOUT)
    box.locator(f'button[data-version="{third.id}"]').click()
    problem = page.locator('#version-problems li[data-code="order_refused"]')
    expect(problem).to_contain_text("RED: A ALP - DAL would no longer be valid:")
    expect(problem.locator("code")).to_have_text("A ALP - DAL")
    expect(page.locator("#version-apply")).to_be_disabled()
