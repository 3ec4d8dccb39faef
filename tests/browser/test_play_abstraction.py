"""The Abstraction A/F rules in a real browser (Deluge's rule 7): an army boards its fleet by clicking, the
A/F is drawn as a marker of its own, and it lands its army by clicking."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from dipserver.games.models import Game, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.browser.test_play_modules import open_game, signed_in_page
from tests.browser.test_play_sahara import click_on_province

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 15_000


def deluge_in_autumn(lock) -> tuple[Game, object]:
    """A Deluge game in Autumn 1901 with England's A YOR beside its F NTH; England's player."""
    with lock:
        users = [
            get_user_model().objects.create_user(username=f"sailor{i}", password="x" * 12) for i in range(7)
        ]
        game = game_create(name="Flood", variant="deluge")
        for user in users:
            game_join(game_id=game.id, user=user)
        game.refresh_from_db()
        england = Power.objects.get(game=game, name="ENGLAND").user
        assert orders_submit(game_id=game.id, user=england, text="A LVP - YOR\nF EDI - NTH").ok
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        assert game.current_phase.name == "F1901M"
    return game, england


def test_an_army_boards_its_fleet_by_clicking_and_the_af_is_drawn_apart(browser, live_server):
    base, lock = live_server.url, live_server.lock
    game, england = deluge_in_autumn(lock)
    page = signed_in_page(browser, base, england, lock)
    open_game(page, base, game)
    page.locator('#map .unit-group[data-location="YOR"]').click()
    page.locator('#unit-options .mode[data-mode="board"]').click()
    expect(page.locator("#unit-options .option.kind-embark")).to_have_text(["A YOR boards F NTH"])
    click_on_province(page, "NTH")
    expect(page.locator("#order-list li.valid")).to_contain_text("A YOR boards F NTH", timeout=TIMEOUT)
    expect(page.locator("#notice")).to_have_text("Orders saved.", timeout=TIMEOUT)  # stored before processing
    with lock:
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        assert {
            "power": "ENGLAND",
            "type": "F",
            "location": "NTH",
            "aboard": True,
        } in game.current_phase.snapshot["units"]
    open_game(page, base, game)
    expect(page.locator('#map .unit-group.unit-af[data-location="NTH"]')).to_have_count(1, timeout=TIMEOUT)
