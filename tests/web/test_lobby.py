"""The lobby lists games open to join and my games with their phase, my orders and the deadline."""

import re

import pytest
from django.contrib.auth import get_user_model

from dipserver.games.services.games import game_create, game_join
from dipserver.games.services.orders import orders_submit
from tests.web.conftest import seat_of

pytestmark = pytest.mark.django_db


def test_open_games_show_their_free_seats(client, master, players):
    game_create(name="Forming", variant="sahara", masters=[master])
    client.force_login(players[0])
    page = client.get("/games/").content.decode()
    assert "Forming" in page and "0 of 7 seats taken" in page and ">Join</button>" in page


def test_my_game_shows_phase_orders_needed_and_deadline(client, sahara):
    italy = seat_of(sahara, "ITALY")
    client.force_login(italy.user)
    page = client.get("/games/").content.decode()
    assert "Dry times" in page and "Spring 1901" in page
    assert "orders needed" in page
    assert f'datetime="{sahara.current_phase.deadline.isoformat()[:19]}' in page


def test_my_game_shows_when_i_have_ordered(client, sahara):
    italy = seat_of(sahara, "ITALY")
    orders_submit(game_id=sahara.id, user=italy.user, text="A ROM H", phase="S1901M")
    client.force_login(italy.user)
    page = client.get("/games/").content.decode()
    assert "✔ ordered" in page and "orders needed" not in page


def test_joining_takes_a_seat_and_reports_refusals(client, master, players):
    game = game_create(name="Forming", variant="sahara", masters=[master])
    client.force_login(players[0])
    client.post(f"/games/{game.id}/join/")
    assert game.powers.filter(user=players[0]).exists()
    answer = client.post(f"/games/{game.id}/join/", follow=True)
    assert "You could not join: You have already joined this game." in answer.content.decode()


def test_joining_needs_a_login(client, master):
    game = game_create(name="Forming", variant="sahara", masters=[master])
    answer = client.post(f"/games/{game.id}/join/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def test_game_rows_name_the_variant_as_its_rules_do(client, master, players):
    game_create(name="Frozen north", variant="wall_of_ice", masters=[master])
    mine = game_create(name="Mine", variant="wall_of_ice", masters=[master])
    game_join(game_id=mine.id, user=players[1])
    client.force_login(players[1])
    page = client.get("/games/").content.decode()
    assert "Wall of Ice" in page and "Wall_Of_Ice" not in page
    assert 'href="/variants/wall_of_ice/"' in page


def test_an_open_ice_lords_game_counts_its_seats_and_links_no_missing_rules_page(client, master, players):
    game_create(name="Grid", variant="ice_lords", masters=[master], powers=4)
    client.force_login(players[0])
    page = client.get("/games/").content.decode()
    assert "0 of 4 seats taken" in page and "Ice Lords" in page
    # Ice Lords has a rules page now (issue 15): every link to it must lead somewhere.
    for link in set(re.findall(r'href="(/variants/ice_lords/[^"]*)"', page)):
        assert client.get(link).status_code == 200, link


def test_the_lobby_leads_a_visitor_to_every_variants_rules(client):
    page = client.get("/games/").content.decode()
    for slug, name in (("standard", "Standard"), ("sahara", "Sahara"), ("wall_of_ice", "Wall of Ice")):
        assert f'<a href="/variants/{slug}/">{name}</a>' in page


def test_games_in_play_are_listed_to_watch_and_filtered_by_variant_and_status(
    client, sahara, master, players
):
    from dipserver.games.services.games import game_pause

    other = get_user_model().objects.create_user(username="watcher", password="x" * 12)
    standard = game_create(name="Classic", variant="standard", masters=[master])
    for i in range(7):
        game_join(
            game_id=standard.id,
            user=get_user_model().objects.create_user(username=f"s{i}", password="x" * 12),
        )
    game_pause(game_id=standard.id)
    game_create(name="Still forming", variant="standard", masters=[master])
    page = client.get("/games/").content.decode()  # anonymous visitors may watch too
    watch = page.split('id="watch-title"')[1].split('id="variants-title"')[0]
    assert "Dry times" in watch and "Classic" in watch and "Still forming" not in watch
    assert "⏸ paused" in watch and ">Watch</a>" in watch
    client.force_login(other)
    by_variant = client.get("/games/?variant=sahara").content.decode().split('id="watch-title"')[1]
    assert "Dry times" in by_variant.split('id="variants-title"')[0]
    assert "Classic" not in by_variant.split('id="variants-title"')[0]
    paused = client.get("/games/?status=paused").content.decode().split('id="watch-title"')[1]
    assert "Classic" in paused.split('id="variants-title"')[0]
    assert "Dry times" not in paused.split('id="variants-title"')[0]
    # My own games are in "My games", not offered to watch.
    client.force_login(seat_of(sahara, "ITALY").user)
    mine = client.get("/games/").content.decode().split('id="watch-title"')[1].split('id="variants-title"')[0]
    assert "Dry times" not in mine
    client.force_login(master)
    mastered = client.get("/games/").content.decode().split('id="watch-title"')[1]
    assert "Dry times" not in mastered.split('id="variants-title"')[0]


def test_a_paused_game_says_so_in_my_games_without_a_countdown(client, sahara):
    from dipserver.games.services.games import game_pause

    game_pause(game_id=sahara.id)
    client.force_login(seat_of(sahara, "ITALY").user)
    page = client.get("/games/").content.decode()
    row = page.split('id="mine-title"')[1].split("</section>")[0]
    assert "⏸ paused" in row and "countdown" not in row


def test_leaving_a_forming_game_from_the_lobby(client, master, players):
    game = game_create(name="Forming", variant="sahara", masters=[master])
    game_join(game_id=game.id, user=players[0])
    client.force_login(players[0])
    assert f'action="/games/{game.id}/leave/"' in client.get("/games/").content.decode()
    answer = client.post(f"/games/{game.id}/leave/", follow=True)
    assert "You have left the game" in answer.content.decode()
    assert not game.powers.filter(user=players[0]).exists()


def test_leaving_a_started_game_is_refused(client, sahara):
    italy = seat_of(sahara, "ITALY")
    client.force_login(italy.user)
    answer = client.post(f"/games/{sahara.id}/leave/", follow=True)
    assert "You could not leave" in answer.content.decode()
    assert sahara.powers.filter(user=italy.user).exists()
