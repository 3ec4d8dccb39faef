"""The press panel in a real browser: anonymous press arrives in its own channel, which cannot be answered,
and a group channel is named by its other powers and answered there.

Games are created and filled through the games services; the player signs in with a session cookie."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Message, Power
from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.press import message_send
from tests.browser.conftest import LAPTOP

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 15_000  # ms: the page polls every 4 s


def started(name: str, prefix: str, press: str) -> Game:
    users = get_user_model().objects
    game = game_create(name=name, variant="standard", press=press)
    for i in range(7):
        game_join(game_id=game.id, user=users.create_user(username=f"{prefix}{i}", password="x" * 12))
    game.refresh_from_db()
    return game


def user_of(game: Game, power: str):
    return Power.objects.select_related("user").get(game=game, name=power).user


def open_as(browser, base: str, game: Game, user, lock) -> Page:
    with lock:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.new_context(viewport=LAPTOP)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game.id}/")
    expect(page.locator("body[data-loaded=true]")).to_have_count(1, timeout=TIMEOUT)
    return page


def test_anonymous_press_arrives_in_its_own_channel_that_cannot_be_answered(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Whispers", "whisper", "anonymous")
        france = user_of(game, "FRANCE")
    page = open_as(browser, base, game, france, lock)
    with lock:
        message_send(game_id=game.id, user=user_of(game, "ENGLAND"), body="Guess who", recipients=["FRANCE"])
    inbox = page.locator("#press-channel option[value=anonymous]")
    expect(inbox).to_have_text("Anonymous press to me (1 new)", timeout=TIMEOUT)
    page.select_option("#press-channel", "anonymous")
    expect(page.locator("#press-log li")).to_contain_text("Anonymous")
    expect(page.locator("#press-log li")).to_contain_text("Guess who")
    expect(page.locator("#press-log")).not_to_contain_text("England")
    expect(page.locator("#press-body")).to_be_disabled()
    expect(page.locator("#press-form button")).to_be_disabled()
    shoot(page, "anonymous-inbox")
    page.context.close()


def test_a_group_channel_is_named_by_its_other_powers_and_answered_there(browser, live_server, shoot):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started("Triple", "triple", "full")
        england = user_of(game, "ENGLAND")
        message_send(game_id=game.id, user=england, body="Triple?", recipients=["FRANCE", "GERMANY"])
    page = open_as(browser, base, game, user_of(game, "FRANCE"), lock)
    group = page.locator('#press-channel option[value="ENGLAND,GERMANY"]')
    expect(group).to_have_text("England, Germany (1 new)")
    page.select_option("#press-channel", "ENGLAND,GERMANY")
    page.fill("#press-body", "Agreed")
    page.click("#press-form button")
    expect(page.locator("#press-log li.mine")).to_contain_text("Agreed")
    with lock:
        answer = Message.objects.get(game=game, body="Agreed")
        assert (answer.recipients, answer.idempotency_key != "") == (["ENGLAND", "GERMANY"], True)
    page.context.close()
    # Read marks live on the server: the page opened afresh, in a new browser with nothing stored, does not
    # bring "1 new" back.
    with lock:
        france = user_of(game, "FRANCE")
    again = open_as(browser, base, game, france, lock)
    expect(again.locator('#press-channel option[value="ENGLAND,GERMANY"]')).to_have_text("England, Germany")
    expect(again.locator("#press-title")).to_have_text("Press")
    again.context.close()
