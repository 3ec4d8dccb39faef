"""Sandbox privacy: a sandbox is its owner's; a share link shows it read-only; a sandbox of a live game
shows nothing its owner could not see in the game, and writes nothing to it."""

from __future__ import annotations

import pytest

from dipserver.games.models import Order
from tests.api.conftest import client_for, user_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/v1/sandboxes"


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def stranger():
    return UserFactory(username="stranger")


def _open(user, **body):
    answer = client_for(user).post(BASE, body or {"variant": "standard"}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_another_user_cannot_open_an_unshared_sandbox(owner, stranger):
    box = _open(owner)
    them = client_for(stranger)
    for url in (f"{BASE}/{box['id']}", f"{BASE}/{box['id']}/steps/0", f"{BASE}/{box['id']}/steps/0/map.svg"):
        assert them.get(url).status_code == 404
    assert them.post(f"{BASE}/{box['id']}/copy").status_code == 404


def test_the_anonymous_cannot_open_an_unshared_sandbox(owner):
    box = _open(owner)
    assert client_for().get(f"{BASE}/{box['id']}").status_code == 404


def test_a_share_token_opens_it_read_only(owner, stranger):
    box = _open(owner)
    shared = client_for(owner).patch(f"{BASE}/{box['id']}", {"shared": True}, format="json").json()
    token = shared["share_url"].rstrip("/").rsplit("/", 1)[1]
    them = client_for(stranger)
    seen = them.get(f"{BASE}/{box['id']}?token={token}")
    assert seen.status_code == 200 and not seen.json()["yours"] and seen.json()["share_url"] is None
    assert client_for().get(f"{BASE}/{box['id']}/steps/0", HTTP_X_SHARE_TOKEN=token).status_code == 200
    assert them.post(f"{BASE}/{box['id']}/steps/0/play?token={token}").status_code == 403
    put = them.put(
        f"{BASE}/{box['id']}/steps/0/powers/FRANCE/orders?token={token}", {"orders": []}, format="json"
    )
    assert put.status_code == 403
    assert them.delete(f"{BASE}/{box['id']}?token={token}").status_code == 403


def test_a_wrong_token_opens_nothing(owner, stranger):
    box = _open(owner)
    client_for(owner).patch(f"{BASE}/{box['id']}", {"shared": True}, format="json")
    assert client_for(stranger).get(f"{BASE}/{box['id']}?token=guess").status_code == 404


def test_unsharing_withdraws_the_link(owner, stranger):
    box = _open(owner)
    token = (
        client_for(owner)
        .patch(f"{BASE}/{box['id']}", {"shared": True}, format="json")
        .json()["share_url"]
        .rstrip("/")
        .rsplit("/", 1)[1]
    )
    client_for(owner).patch(f"{BASE}/{box['id']}", {"shared": False}, format="json")
    assert client_for(stranger).get(f"{BASE}/{box['id']}?token={token}").status_code == 404


def test_a_shared_sandbox_can_be_copied_by_whoever_has_the_link(owner, stranger):
    box = _open(owner)
    token = (
        client_for(owner)
        .patch(f"{BASE}/{box['id']}", {"shared": True}, format="json")
        .json()["share_url"]
        .rstrip("/")
        .rsplit("/", 1)[1]
    )
    copy = client_for(stranger).post(f"{BASE}/{box['id']}/copy?token={token}")
    assert copy.status_code == 201 and copy.json()["yours"]


def test_a_sandbox_of_a_live_game_shows_no_hidden_orders(game):
    france, germany = user_of(game, "FRANCE"), user_of(game, "GERMANY")
    client_for(france).put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A PAR - BUR"]}, format="json"
    )
    client_for(germany).put(
        f"/api/v1/games/{game.id}/orders", {"phase": "S1901M", "orders": ["A MUN - BUR"]}, format="json"
    )
    box = _open(france, game=game.id)
    step = client_for(france).get(f"{BASE}/{box['id']}/steps/0").json()
    assert step["orders"] == {"FRANCE": ["A PAR - BUR"]}
    assert box["origin"] == {"game": game.id, "phase": 0, "name": "S1901M", "game_name": game.name}
    spectator = UserFactory(username="spectator")
    watched = _open(spectator, game=game.id)
    assert client_for(spectator).get(f"{BASE}/{watched['id']}/steps/0").json()["orders"] == {}


def test_a_sandbox_of_a_live_game_never_shows_its_secret_or_writes_to_it(game):
    france = user_of(game, "FRANCE")
    box = _open(france, game=game.id)
    api = client_for(france)
    api.put(f"{BASE}/{box['id']}/steps/0/powers/ITALY/orders", {"orders": ["A VEN - TRI"]}, format="json")
    api.post(f"{BASE}/{box['id']}/steps/0/play")
    assert game.secret not in str(api.get(f"{BASE}/{box['id']}").json())
    assert not Order.objects.filter(phase__game=game).exists()
    assert game.phases.count() == 1


def test_a_sandbox_of_a_game_not_yet_started_is_refused(owner, master):
    from tests.factories import GameFactory

    forming = GameFactory(masters=[master], name="Forming")
    answer = client_for(owner).post(BASE, {"game": forming.id}, format="json")
    assert answer.status_code == 409
