"""Issue 36 on the game page, on a laptop and on a phone: a power a bot plays is marked "bot" wherever the
page names players (the powers table, the press panel, the phase's results; in the lobby, an open seat a
bot plays meanwhile), and a game master hands a power in civil disorder to a bot from the powers table,
after a confirmation, through the API's ``POST .../seats/<seat>/bot``; a refusal is said plainly."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from dipserver.games.models import Game, Power
from dipserver.games.services.phases import phase_process
from dipserver.games.services.powers import power_civil_disorder_set
from dipserver.games.services.press import message_send
from dipserver.games.services.seats import seat_take
from dipserver.players.house_bots import seat_to_bot
from tests.browser.profiles import TIMEOUT, both_profiles, open_as, open_game_as
from tests.browser.test_lobby_actions import started, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def seat_of(game: Game, power: str) -> Power:
    return Power.objects.select_related("user").get(game=game, name=power)


def with_a_bot(name: str, prefix: str) -> tuple[Game, object]:
    """A started standard game whose England a bot plays (after civil disorder), and its master."""
    game = started(name, prefix)
    master = get_user_model().objects.create_user(f"{prefix}-gm", password="x" * 12)
    game.masters.add(master)
    england = seat_of(game, "ENGLAND")
    power_civil_disorder_set(power_id=england.id)
    seat_to_bot(game_id=game.id, power_id=england.id)
    return game, master


def row(page: Page, power: str):
    return page.locator("#powers-body tr", has_text=power)


@both_profiles
def test_a_power_a_bot_plays_is_marked_in_the_powers_table(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, _ = with_a_bot(f"Bot table {profile}", f"bottable{profile}")
        player = user_of(game, "ITALY")
    page = open_game_as(browser, base, game, player, lock, profile)

    expect(row(page, "ENGLAND").locator(".bot-tag")).to_have_text("bot", timeout=TIMEOUT)
    expect(page.locator("#powers-body .bot-tag")).to_have_count(1)  # nobody else is marked


@both_profiles
def test_a_power_a_bot_plays_is_marked_in_the_press_panel_and_the_results(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, _ = with_a_bot(f"Bot press {profile}", f"botpress{profile}")
        message_send(game_id=game.id, user=seat_of(game, "ENGLAND").user, body="Beep")
        phase_process(phase_id=game.current_phase_id, force=True)
        player = user_of(game, "ITALY")
    page = open_game_as(browser, base, game, player, lock, profile)
    page.get_by_role("button", name="Previous phase").click()

    england = page.locator(".power-results", has=page.locator("h4", has_text="ENGLAND"))
    expect(england.locator("h4 .bot-tag")).to_have_text("bot", timeout=TIMEOUT)
    expect(page.locator(".power-results h4 .bot-tag")).to_have_count(1)
    expect(page.locator("#press-log li", has_text="Beep").locator(".from .bot-tag")).to_have_text("bot")
    expect(page.locator("#press-channel option", has_text="England")).to_have_text("England (bot)")


@both_profiles
def test_a_master_hands_a_power_in_civil_disorder_to_a_bot(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = with_a_bot(f"Hand over {profile}", f"handover{profile}")
        power_civil_disorder_set(power_id=seat_of(game, "FRANCE").id)
    page = open_game_as(browser, base, game, master, lock, profile)

    expect(row(page, "ENGLAND").get_by_role("button", name="Hand to a bot")).to_have_count(0)  # a bot has it
    expect(row(page, "GERMANY").get_by_role("button", name="Hand to a bot")).to_have_count(0)  # a person
    row(page, "FRANCE").get_by_role("button", name="Hand to a bot").click()
    dialog = page.locator("#bot-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Hand France to a bot?")
    dialog.get_by_role("button", name="Yes, hand it to a bot").click()

    expect(page.locator("#notice")).to_contain_text("France is now played by a bot", timeout=TIMEOUT)
    expect(row(page, "FRANCE").locator(".bot-tag")).to_have_text("bot")
    expect(row(page, "FRANCE").get_by_role("button", name="Hand to a bot")).to_have_count(0)
    with lock:
        france = seat_of(game, "FRANCE")
    assert france.user.is_bot and france.seat_open  # still offered to a person


@both_profiles
def test_a_master_who_cancels_hands_nothing(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = with_a_bot(f"Cancel hand {profile}", f"cancelhand{profile}")
        power_civil_disorder_set(power_id=seat_of(game, "FRANCE").id)
        person = seat_of(game, "FRANCE").user
    page = open_game_as(browser, base, game, master, lock, profile)

    row(page, "FRANCE").get_by_role("button", name="Hand to a bot").click()
    page.locator("#bot-confirm").get_by_role("button", name="Cancel").click()

    expect(page.locator("#bot-confirm")).to_be_hidden()
    with lock:
        assert seat_of(game, "FRANCE").user == person


@both_profiles
def test_handing_a_seat_a_person_took_meanwhile_is_refused_plainly(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, master = with_a_bot(f"Taken meanwhile {profile}", f"takenmeanwhile{profile}")
        power_civil_disorder_set(power_id=seat_of(game, "FRANCE").id)
        newcomer = get_user_model().objects.create_user(f"takenmeanwhile{profile}-new", password="x" * 12)
    page = open_game_as(browser, base, game, master, lock, profile)
    row(page, "FRANCE").get_by_role("button", name="Hand to a bot").click()
    with lock:
        seat_take(power_id=seat_of(game, "FRANCE").id, user=newcomer)
    page.locator("#bot-confirm").get_by_role("button", name="Yes, hand it to a bot").click()

    expect(page.locator("#notice.error")).to_contain_text("France is not in civil disorder", timeout=TIMEOUT)
    expect(row(page, "FRANCE").get_by_role("button", name="Hand to a bot")).to_have_count(0)
    with lock:
        assert seat_of(game, "FRANCE").user == newcomer


@both_profiles
def test_the_lobby_says_a_bot_plays_an_open_seat_meanwhile(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game, _ = with_a_bot(f"Lobby bot {profile}", f"lobbybot{profile}")
        power_civil_disorder_set(power_id=seat_of(game, "FRANCE").id)
        visitor = get_user_model().objects.create_user(f"lobbybot{profile}-visitor", password="x" * 12)
    page = open_as(browser, base, "/games/", visitor, lock, profile)

    england = page.locator("#open-seats li", has_text="England")
    expect(england.locator(".bot-tag")).to_have_text("a bot plays it meanwhile", timeout=TIMEOUT)
    expect(page.locator("#open-seats li", has_text="France").locator(".bot-tag")).to_have_count(0)
