"""Issue 33, the lobby: its filters narrow "My games" too, not only the games in play, and it names a
phase as the game page does ("Autumn", never "Fall")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dipserver.games.services.phases import phase_process
from tests.browser.profiles import TIMEOUT, both_profiles, open_as, open_game_as
from tests.browser.test_lobby_actions import started, user_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@both_profiles
def test_the_lobby_filters_narrow_my_games_too(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        mine = started(f"Mine standard {profile}", f"mstd{profile}")
        player = user_of(mine, "FRANCE")
        other = started(f"Mine sahara {profile}", f"msah{profile}")
        other.variant = "sahara"  # only the lobby's filter reads this
        other.save(update_fields=["variant"])
        other.powers.filter(name="FRANCE").update(user=player)
    page = open_as(browser, base, "/games/", player, lock, profile)
    expect(page.locator("#mine-list li")).to_have_count(2)
    page.select_option("#watch-variant", "standard")
    page.click(".lobby-filter button")
    expect(page.locator("#mine-list li")).to_have_count(1)
    expect(page.locator("#mine-list li")).to_contain_text(mine.name)

    page.select_option("#watch-variant", "")
    page.select_option("#watch-status", "finished")
    page.click(".lobby-filter button")
    expect(page.locator("#mine-list li")).to_have_count(0)
    expect(page.locator("#mine-none")).to_have_text("None of your games matches these filters.")


@both_profiles
def test_the_lobby_names_a_season_as_the_game_page_does(browser, live_server, profile):
    base, lock = live_server.url, live_server.lock
    with lock:
        game = started(f"Seasons {profile}", f"season{profile}")
        phase_process(phase_id=game.current_phase_id, force=True)
        game.refresh_from_db()
        player = user_of(game, "ITALY")
        watcher = UserFactory(username=f"watcher{profile}")
    page = open_game_as(browser, base, game, player, lock, profile)
    expect(page.locator("#phase-title")).to_have_text("Autumn 1901 movement", timeout=TIMEOUT)
    page.goto(f"{base}/games/")
    row = page.locator(f'#mine-list li[data-game="{game.id}"] .phase')
    expect(row).to_have_text("Autumn 1901 movement")
    spectator = open_as(browser, base, "/games/", watcher, lock, profile)
    watched = spectator.locator(f'#watch-list li[data-game="{game.id}"] .phase')
    expect(watched).to_have_text("Autumn 1901 movement")
