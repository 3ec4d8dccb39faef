"""Games pin the studio version they started on: it never changes under them, whatever is published or
unpublished later, and its imported drawing is the game's drawing."""

from __future__ import annotations

import datetime as dt

import pytest

from dipserver.games.errors import GameError
from dipserver.games.models import Power
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.variants import game_variant, geometry_of
from dipserver.studio import services
from tests.factories import AdminFactory, GameFactory, UserFactory
from tests.studio.conftest import small_draft

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def version(gm):
    draft = small_draft(gm)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


@pytest.fixture
def game(version):
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    return GameFactory(
        name="Small game", variant="", studio_version=version.id, players=players, joined_at=START
    )


def test_a_game_pins_the_published_version(game, version):
    assert game.studio_version == version and game.variant == "small"
    assert game.variant_version == version.version and game.status == game.Status.ACTIVE
    assert game_variant(game).version == version.version


def test_a_new_version_does_not_change_a_running_game(gm, game, version):
    draft = version.draft
    draft.data["variant"]["victory"]["centres"] = 5
    draft = services.draft_save(user=gm, draft_id=draft.id, data=draft.data, revision=draft.revision)
    services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    game.refresh_from_db()
    assert game.studio_version == version and game_variant(game).victory_centres == 4


def test_an_unpublished_version_plays_on_in_its_games(game, version):
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=version.id)
    assert game_variant(game).version == version.version


def test_no_new_game_may_pin_an_unpublished_version(version):
    services.version_unpublish(user=AdminFactory(username="admin"), version_id=version.id)
    with pytest.raises(GameError) as refused:
        GameFactory(name="Late", variant="", studio_version=version.id)
    assert refused.value.code == "not_found"


def test_the_imported_drawing_is_the_games_drawing(game, version):
    assert geometry_of(game) == version.geometry


def test_a_studio_game_is_played_by_the_services(game):
    red = Power.objects.select_related("user").get(game=game, name="RED")
    orders_submit(game_id=game.id, user=red.user, text="A ALP - BRE", now=START)
    phase_process(phase_id=game.current_phase_id, now=START + dt.timedelta(days=3))
    game.refresh_from_db()
    assert game.current_phase.name == "F1901M"
    assert {"power": "RED", "type": "A", "location": "BRE"} in game.current_phase.snapshot["units"]
