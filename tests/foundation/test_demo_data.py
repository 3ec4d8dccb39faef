"""`seed_demo`: the logins printed by `./dip serve` exist and work, however often it runs."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from dipserver.accounts.roles import GAME_MASTERS_GROUP
from dipserver.core import demo
from dipserver.core.demo import GAME_MASTER, PLAYERS, register_demo_games_seeder

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def no_seeders(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(demo, "_seeders", [])
    yield


def test_creates_a_game_master_who_can_use_the_admin(client: Client, no_seeders: None) -> None:
    seed()
    gm = get_user_model().objects.get(username=GAME_MASTER.username)
    assert gm.is_staff and gm.is_superuser
    assert gm.groups.filter(name=GAME_MASTERS_GROUP).exists()
    assert client.login(username=GAME_MASTER.username, password=GAME_MASTER.password)
    assert client.get("/admin/").status_code == 200


def test_creates_players_who_can_sign_in_but_not_administer(client: Client, no_seeders: None) -> None:
    seed()
    for login in PLAYERS:
        assert client.login(username=login.username, password=login.password), login
        admin = client.get("/admin/")
        assert admin.status_code == 302
        assert admin["Location"].startswith("/admin/login/")


def test_is_idempotent_and_repairs_changed_passwords(no_seeders: None) -> None:
    seed()
    users = get_user_model().objects
    alice = users.get(username="alice")
    alice.set_password("forgotten")
    alice.save()
    seed()
    assert users.count() == 1 + len(PLAYERS)
    assert users.get(username="alice").check_password("alice-password")


def test_prints_the_logins(no_seeders: None) -> None:
    out = seed()
    assert "Game master login (admin): gm / gm-password" in out
    for login in PLAYERS:
        assert f"Player login: {login.username} / {login.password}" in out
    assert "Demo games: none yet (no app has registered a demo-games seeder)" in out


def test_runs_registered_demo_game_seeders_with_the_demo_logins(no_seeders: None) -> None:
    calls = []

    @register_demo_games_seeder
    def seed_games(*, game_master: object, players: list[object]) -> list[str]:
        calls.append((game_master, players))
        return ["standard: 'Demo standard' (7 players)"]

    register_demo_games_seeder(seed_games)  # registering twice must not run it twice
    out = seed()
    assert len(calls) == 1
    game_master, players = calls[0]
    assert game_master.username == "gm"
    assert [p.username for p in players] == [login.username for login in PLAYERS]
    assert "Demo game: standard: 'Demo standard' (7 players)" in out
