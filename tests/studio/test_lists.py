"""Published studio variants are offered where games are made and found: the create form (with their
own options and timeline), the lobby's variant filter, and the API's game creation."""

from __future__ import annotations

import pytest

from dipserver.games.models import Game
from dipserver.studio import services
from tests.factories import AdminFactory, GameFactory, UserFactory
from tests.studio.conftest import small_draft

FORM = {
    "name": "Small war",
    "press": "full",
    "movement_minutes": 1440,
    "retreat_minutes": 720,
    "adjustment_minutes": 720,
    "deadline_zone": "UTC",
}


@pytest.fixture
def version(gm):
    draft = small_draft(gm)
    draft.data["timeline"] = {
        "events": [
            {"year": 1902, "hook": "after_spring_retreats", "change": "impassable", "provinces": ["ESS"]}
        ]
    }
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def test_the_create_form_offers_a_published_studio_variant(client, version, player):
    client.force_login(player)
    page = client.get("/games/new/").content.decode()
    assert f'<option value="studio:{version.id}">Small (studio, version 1)</option>' in page
    assert f'data-variant="studio:{version.id}"' in page and "ESS becomes impassable" in page


def test_the_create_form_makes_a_game_of_it(client, version, player):
    client.force_login(player)
    answer = client.post("/games/new/", {**FORM, "variant": f"studio:{version.id}"})
    game = Game.objects.get(name="Small war")
    assert answer["Location"] == f"/games/{game.id}/"
    assert game.studio_version == version and game.variant == "small"


def test_the_create_form_offers_only_the_newest_version(client, gm, version, player):
    draft = version.draft
    draft.data["variant"]["victory"]["centres"] = 5
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    second = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    client.force_login(player)
    page = client.get("/games/new/").content.decode()
    assert f'value="studio:{second.id}"' in page and f'value="studio:{version.id}"' not in page


def test_an_unpublished_version_is_not_offered(client, version, player):
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=version.id)
    client.force_login(player)
    assert f'value="studio:{version.id}"' not in client.get("/games/new/").content.decode()


def test_the_lobby_filters_games_by_studio_variant(client, version):
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    GameFactory(name="Small game", variant="", studio_version=version.id, players=players)
    GameFactory(name="Standard game")
    page = client.get("/games/?variant=small").content.decode()
    assert '<option value="small" selected>Small</option>' in page
    assert "Small game" in page and "Standard game" not in page
