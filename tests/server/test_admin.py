"""The game masters' console: a game master manages the games they master, and only those."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.games.models import Game, Phase, Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from tests.server.conftest import START, seat, started_game


@pytest.fixture
def gm(db):
    user = get_user_model().objects.create_user("gm", password="pw", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=GAME_MASTERS_GROUP)[0])
    return user


@pytest.fixture
def mastered(users, gm):
    game = started_game(users, variant="wall_of_ice")
    game.masters.add(gm)
    return game


def test_a_game_master_sees_only_their_games_with_status_phase_and_waiting_powers(
    client, gm, mastered, users
):
    other = game_other(users)
    orders_submit(game_id=mastered.id, user=seat(mastered, "ENGLAND").user, text="F LON H", now=START)
    client.force_login(gm)

    page = client.get(reverse("admin:games_game_changelist"))

    assert page.status_code == 200
    text = page.content.decode()
    assert mastered.name in text and other.name not in text
    assert "S1901M" in text
    waiting = re.search(r'<td class="field-waiting">([^<]*)</td>', text).group(1).split(", ")
    assert sorted(waiting) == ["AUSTRIA", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]  # not England
    assert client.get(reverse("admin:games_game_change", args=[other.id])).status_code in (302, 403, 404)


def game_other(users) -> Game:
    more = [get_user_model().objects.create(username=f"other{i}") for i in range(7)]
    game = started_game(more)
    Game.objects.filter(id=game.id).update(name="Somebody else's game")
    game.refresh_from_db()
    return game


def test_staff_outside_the_game_masters_group_are_kept_out(client, mastered):
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("admin:games_game_changelist")).status_code == 403


def test_the_change_page_shows_the_timeline_and_every_order(client, gm, mastered):
    orders_submit(game_id=mastered.id, user=seat(mastered, "FRANCE").user, text="A PAR - BUR", now=START)
    client.force_login(gm)

    text = client.get(reverse("admin:games_game_change", args=[mastered.id])).content.decode()

    assert "Timeline (what changes when)" in text and "impassable" in text
    assert "FRANCE: A PAR - BUR" in text


def test_process_now_and_dry_run_actions(client, gm, mastered, django_capture_on_commit_callbacks):
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")

    page = client.post(url, {"action": "dry_run", "_selected_action": [mastered.id]}, follow=True)
    assert "→ F1901M" in page.content.decode()
    assert Phase.objects.filter(game=mastered).count() == 1

    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "process_now", "_selected_action": [mastered.id], "post": "yes"})
    mastered.refresh_from_db()
    assert mastered.current_phase.name == "F1901M"


def test_extend_and_revert_forms(client, gm, mastered):
    phase_process(phase_id=mastered.current_phase_id, now=START + dt.timedelta(days=2))
    client.force_login(gm)

    new = "2030-01-01 18:00Z"
    response = client.post(reverse("admin:games_game_extend", args=[mastered.id]), {"deadline": new})
    assert response.status_code == 302
    mastered.refresh_from_db()
    assert mastered.current_phase.deadline == dt.datetime(2030, 1, 1, 18, 0, tzinfo=dt.UTC)

    url = reverse("admin:games_game_revert", args=[mastered.id])
    page = client.post(url, {"index": 7, "confirm": True})
    assert "Select a valid choice" in page.content.decode()
    client.post(url, {"index": 0, "confirm": True})
    mastered.refresh_from_db()
    assert mastered.current_phase.index == 0 and mastered.current_phase.status == Phase.Status.OPEN


def test_the_revert_page_offers_the_earlier_phases_and_says_what_it_deletes_before_it_does(
    client, gm, mastered
):
    now = START
    for _ in range(2):
        now += dt.timedelta(days=3)
        phase_process(phase_id=mastered.current_phase_id, now=now)
        mastered.refresh_from_db()
    client.force_login(gm)
    url = reverse("admin:games_game_revert", args=[mastered.id])

    choose = client.get(url).content.decode()
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', choose)
    assert [value for value, _ in options] == ["1", "0"]  # the current phase (2) is not earlier
    assert options[1][1] == "S1901M (Spring 1901 movement) — phase 0"
    crumbs = re.search(r'<div class="breadcrumbs">(.*?)</div>', choose, re.S).group(1)
    assert re.findall(r">([^<]+)</a>", crumbs) == ["Home", "Games", mastered.name]

    confirm = client.post(url, {"index": 0}).content.decode()
    assert "Reverting reopens S1901M (Spring 1901 movement)" in confirm
    doomed = re.findall(r"<li>([^<]*)</li>", re.search(r'<ul class="doomed">(.*?)</ul>', confirm).group(1))
    # No adjustments were due, but the Winter is played: fleets on coasts may become armies (rule 4).
    assert [d.split()[0] for d in doomed] == ["F1901M", "W1901A"]
    assert Phase.objects.filter(game=mastered).count() == 3  # nothing deleted yet

    done = client.post(url, {"index": 0, "confirm": "True"}, follow=True).content.decode()
    assert "S1901M (Spring 1901 movement) is open again" in done
    assert list(Phase.objects.filter(game=mastered).values_list("name", flat=True)) == ["S1901M"]


def test_replace_a_player_and_civil_disorder(client, gm, mastered, users):
    client.force_login(gm)
    france = seat(mastered, "FRANCE")

    client.post(
        reverse("admin:games_power_changelist"), {"action": "civil_disorder", "_selected_action": [france.id]}
    )
    france.refresh_from_db()
    assert france.status == Power.Status.CIVIL_DISORDER

    client.post(reverse("admin:games_power_replace", args=[france.id]), {"username": users[7].username})
    france.refresh_from_db()
    assert (france.user, france.status) == (users[7], Power.Status.ACTIVE)


def test_the_game_list_costs_the_same_queries_however_many_games(client, gm, mastered, users):
    orders_submit(game_id=mastered.id, user=seat(mastered, "ENGLAND").user, text="F LON H", now=START)
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")
    client.get(url)  # warm the variant caches

    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for n in range(2):
        more = [get_user_model().objects.create(username=f"more{n}-{i}") for i in range(7)]
        started_game(more, variant="wall_of_ice").masters.add(gm)
    with CaptureQueriesContext(connection) as three:
        text = client.get(url).content.decode()

    assert len(three) == len(one), [q["sql"] for q in three.captured_queries]
    waiting = re.findall(r'<td class="field-waiting">([^<]*)</td>', text)
    assert sorted(len(w.split(", ")) for w in waiting) == [6, 7, 7]  # England has ordered in the first


def test_the_change_page_shows_the_supply_lines_of_the_current_phase(client, gm, users):
    game = started_game(users, options={"supply_lines": True})
    game.masters.add(gm)
    client.force_login(gm)

    text = client.get(reverse("admin:games_game_change", args=[game.id])).content.decode()

    assert "Supply lines (as the phase opened)" in text
    assert "Moscow (RUSSIA): supplied from Moscow" in text


def test_the_dry_run_words_map_changes_as_the_engine_does(client, gm, users):
    game = started_game(users, variant="sahara")
    game.masters.add(gm)
    now = START
    while game.current_phase.name != "F1902M":  # Sahara's first change comes after the 1902 Autumn
        now += dt.timedelta(days=3)
        phase_process(phase_id=game.current_phase_id, now=now)
        game.refresh_from_db()
    client.force_login(gm)

    page = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "dry_run", "_selected_action": [game.id]},
        follow=True,
    )

    message = re.search(r'<li class="info">(.*?)</li>', page.content.decode(), re.S).group(1)
    assert "EAS becomes land" in message, message
    assert "Terrain." not in message and "kind" not in message


def test_the_next_map_change_reads_as_words(client, gm, mastered):
    client.force_login(gm)

    text = client.get(reverse("admin:games_game_changelist")).content.decode()

    cell = re.search(r'<td class="field-next_change">([^<]*)</td>', text).group(1)
    assert re.fullmatch(r"19\d\d, (after|before) the [A-Z][a-z]+ [a-z]+: [A-Z]{3} becomes [a-z]+", cell), cell


def test_the_variant_column_and_filter_show_the_variants_name(client, gm, mastered):
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")

    text = client.get(url).content.decode()

    assert re.search(r'<td class="field-variant_shown">Wall of Ice</td>', text)
    assert re.search(r'<a href="\?variant=wall_of_ice"[^>]*>Wall of Ice</a>', text)
    assert mastered.name in client.get(url, {"variant": "wall_of_ice"}).content.decode()
    assert mastered.name not in client.get(url, {"variant": "sahara"}).content.decode()


def test_a_player_at_the_admin_login_is_told_it_is_for_game_masters(client, users):
    player = users[0]
    player.set_password("right-password")
    player.save()

    page = client.post(
        reverse("admin:login"), {"username": player.username, "password": "right-password"}, follow=True
    )

    text = page.content.decode()
    assert "This console is for game masters only" in text and "correct username and password" not in text
    wrong = client.post(reverse("admin:login"), {"username": player.username, "password": "wrong"})
    assert "correct username and password" in wrong.content.decode()  # a wrong password says so


def test_the_revert_page_of_a_game_with_nothing_earlier_says_so(client, gm, mastered):
    client.force_login(gm)

    text = client.get(reverse("admin:games_game_revert", args=[mastered.id])).content.decode()

    assert f"{mastered.name} has no earlier phase to go back to." in text and "<select" not in text
