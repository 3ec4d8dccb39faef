"""The game masters' "Extend" in their own time zone, and "Process now" that asks first and names who is
still to order or to say they are ready."""

from __future__ import annotations

import base64
import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.games.models import Phase, Power
from dipserver.games.services.orders import orders_submit
from tests.server.conftest import START, seat, started_game

DEADLINE = dt.datetime(2030, 1, 1, 18, 0, tzinfo=dt.UTC)


@pytest.fixture
def gm(db):
    user = get_user_model().objects.create_user("gm", password="pw", is_staff=True, time_zone="Europe/Paris")
    user.groups.add(Group.objects.get_or_create(name=GAME_MASTERS_GROUP)[0])
    return user


@pytest.fixture
def mastered(users, gm):
    game = started_game(users)
    game.masters.add(gm)
    Phase.objects.filter(id=game.current_phase_id).update(deadline=DEADLINE)
    game.refresh_from_db()
    return game


def _deadline(game) -> dt.datetime:
    return Phase.objects.get(id=game.current_phase_id).deadline


def test_the_extend_page_shows_the_current_deadline_in_the_masters_zone_and_in_utc(client, gm, mastered):
    client.force_login(gm)

    text = client.get(reverse("admin:games_game_extend", args=[mastered.id])).content.decode()

    current = re.search(r'<p class="current-deadline">([^<]*)</p>', text).group(1)
    assert "2030-01-01 19:00 Europe/Paris" in current and "2030-01-01 18:00 UTC" in current
    assert "read in your time zone, Europe/Paris" in text  # the help text says how a bare time is read


def test_a_time_without_a_zone_is_read_in_the_masters_zone(client, gm, mastered):
    client.force_login(gm)
    url = reverse("admin:games_game_extend", args=[mastered.id])

    response = client.post(url, {"deadline": "2030-06-01 18:00"})

    assert response.status_code == 302
    assert _deadline(mastered) == dt.datetime(2030, 6, 1, 16, 0, tzinfo=dt.UTC)  # Paris is UTC+2 in June


def test_a_zone_written_in_the_deadline_wins_over_the_masters(client, gm, mastered):
    client.force_login(gm)
    url = reverse("admin:games_game_extend", args=[mastered.id])

    assert client.post(url, {"deadline": "2030-06-01 18:00Z"}).status_code == 302
    assert _deadline(mastered) == dt.datetime(2030, 6, 1, 18, 0, tzinfo=dt.UTC)
    assert client.post(url, {"deadline": "2030-06-02T18:00-05:00"}).status_code == 302
    assert _deadline(mastered) == dt.datetime(2030, 6, 2, 23, 0, tzinfo=dt.UTC)


def test_a_bare_time_already_past_in_the_masters_zone_is_still_refused(client, gm, mastered):
    client.force_login(gm)
    url = reverse("admin:games_game_extend", args=[mastered.id])

    page = client.post(url, {"deadline": "2001-01-01 10:00"})

    assert page.status_code == 200 and "has already passed" in page.content.decode()
    assert _deadline(mastered) == DEADLINE


def test_process_now_asks_first_and_names_who_has_not_ordered_and_who_is_not_ready(
    client, gm, mastered, django_capture_on_commit_callbacks
):
    orders_submit(game_id=mastered.id, user=seat(mastered, "ENGLAND").user, text="F LON H", now=START)
    Power.objects.filter(game=mastered, name__in=["ENGLAND", "FRANCE"]).update(ready=True)
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")
    chosen = {"action": "process_now", "_selected_action": [mastered.id]}

    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(url, chosen)

    assert page.status_code == 200
    text = page.content.decode()
    not_ordered = re.search(r'<li class="not-ordered">Not ordered: ([^<]*)</li>', text).group(1)
    assert not_ordered.split(", ") == ["AUSTRIA", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    not_ready = re.search(r'<li class="not-ready">Not ready: ([^<]*)</li>', text).group(1)
    assert not_ready.split(", ") == ["AUSTRIA", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert 'name="post" value="yes"' in text
    mastered.refresh_from_db()
    assert mastered.current_phase.name == "S1901M" and mastered.current_phase.deadline == DEADLINE

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**chosen, "post": "yes"})

    assert response.status_code == 302
    mastered.refresh_from_db()
    assert mastered.current_phase.name == "F1901M"


def _pictures(text: str) -> list[str]:
    found = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)">', text)
    return [(alt, base64.b64decode(data).decode()) for data, alt in found]


def test_the_dry_run_shows_the_adjudicated_orders_and_the_resulting_map_as_pictures(client, gm, mastered):
    orders_submit(game_id=mastered.id, user=seat(mastered, "FRANCE").user, text="A PAR - BUR", now=START)
    orders_submit(game_id=mastered.id, user=seat(mastered, "GERMANY").user, text="A MUN - BUR", now=START)
    orders_submit(game_id=mastered.id, user=seat(mastered, "ITALY").user, text="A VEN - PIE", now=START)
    client.force_login(gm)

    page = client.post(
        reverse("admin:games_game_changelist"), {"action": "dry_run", "_selected_action": [mastered.id]}
    )

    assert page.status_code == 200
    (now_alt, now_svg), (after_alt, after_svg) = _pictures(page.content.decode())
    assert now_alt.startswith("S1901M") and after_alt.startswith("F1901M")
    assert now_svg.startswith("<svg") and after_svg.startswith("<svg")
    assert now_svg.count('class="order move failed"') == 2  # the bounce in BUR, drawn as the history map will
    assert 'class="order move"' in now_svg  # Venice to Piedmont succeeds
    assert '<g id="orders"></g>' in after_svg  # the next phase has no orders yet
    assert 'data-location="PIE"' in after_svg and 'data-location="VEN"' not in after_svg  # Italy moved
    assert Phase.objects.filter(game=mastered).count() == 1  # nothing saved


def test_process_now_s_yes_processes_only_the_phase_it_asked_about(
    client, gm, mastered, django_capture_on_commit_callbacks
):
    client.force_login(gm)
    url = reverse("admin:games_game_changelist")
    chosen = {"action": "process_now", "_selected_action": [mastered.id]}
    page = client.post(url, chosen).content.decode()
    assert f'name="phase_{mastered.id}" value="S1901M"' in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {**chosen, "post": "yes", f"phase_{mastered.id}": "S1901M"})
    mastered.refresh_from_db()
    assert mastered.current_phase.name == "F1901M"

    # The same page's Yes, sent again once the game has moved on: nothing more is processed.
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {**chosen, "post": "yes", f"phase_{mastered.id}": "S1901M"}, follow=True)
    mastered.refresh_from_db()
    assert mastered.current_phase.name == "F1901M"
    assert "is in F1901M now, not S1901M: nothing was processed" in answer.content.decode()
