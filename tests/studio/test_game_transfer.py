"""A studio game's export carries the version it plays (``Game.studio_version``): its files, drawing,
tests and author. The import pins the same version where the server has it, makes it (frozen, unpublished)
where it has not, and refuses, changing nothing, where that slug and number are other files here or the
slug another author's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dipserver.games.errors import GameError
from dipserver.games.models import Game, VariantArchive
from dipserver.games.services.transfer import game_export, game_import, game_replay
from dipserver.games.variants import geometry_of
from dipserver.studio import services
from dipserver.studio.models import VariantVersion
from tests.factories import GameFactory, GameMasterFactory
from tests.studio.test_scenarios import HOLDS, with_cases


@pytest.fixture
def first(gm):
    draft = with_cases(gm, HOLDS)
    return services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)


def exported(game: Game) -> dict[str, Any]:
    return json.loads(json.dumps(game_export(game_id=game.id)))


def emptied() -> None:
    """This server as another one: no game, no archive, no studio version (the accounts stay)."""
    Game.objects.all().delete()
    VariantArchive.objects.all().delete()
    VariantVersion.objects.all().delete()


def test_the_export_carries_the_studio_version_the_game_plays(game, first):
    carried = exported(game)["studio_version"]
    assert (carried["slug"], carried["number"], carried["version"]) == ("small", 1, first.version)
    assert (carried["author"], carried["tests"]) == ("author", {"scenarios": [HOLDS]})
    assert carried["files"] == first.files and carried["geometry"] == first.geometry


def test_a_game_of_an_installed_variant_carries_none(db):
    assert exported(GameFactory(name="Standard"))["studio_version"] is None


def test_imported_where_the_version_is_the_game_plays_that_version(game, first):
    copy = game_import(data=exported(game))
    assert copy.studio_version_id == first.id and VariantVersion.objects.count() == 1


def test_imported_on_a_server_without_it_the_version_is_made_frozen_and_unpublished(game, first):
    data = exported(game)
    emptied()
    copy = game_import(data=data)
    made = copy.studio_version
    assert (made.slug, made.number, made.version, made.author.username) == (
        "small",
        1,
        first.version,
        "author",
    )
    assert (made.files, made.geometry, made.svg, made.tests) == (
        first.files,
        first.geometry,
        first.svg,
        first.tests,
    )
    assert made.published is False and made.published_at == first.published_at
    assert geometry_of(copy) == first.geometry
    assert game_replay(game_id=copy.id) == []


def test_the_round_trip_keeps_the_studio_version(game):
    data = exported(game)
    emptied()
    again = exported(game_import(data=data))
    changed = {"published", "unpublished_at"}  # made here unpublished: offered to no new game
    assert {k: v for k, v in again["studio_version"].items() if k not in changed} == {
        k: v for k, v in data["studio_version"].items() if k not in changed
    }


def refused(data: dict[str, Any]) -> GameError:
    games = Game.objects.count()
    with pytest.raises(GameError) as refusal:
        game_import(data=data)
    assert Game.objects.count() == games
    return refusal.value


def test_a_version_of_that_number_with_other_files_here_refuses_the_import(game, first):
    data = exported(game)
    data["studio_version"]["version"] = "f" * 64
    assert "other files" in str(refused(data))


def test_a_slug_another_author_has_here_refuses_the_import(game):
    data = exported(game)
    emptied()
    other = GameMasterFactory(username="other-author")
    draft = with_cases(other)
    services.version_publish(user=other, draft_id=draft.id, revision=draft.revision)
    data["studio_version"]["number"] = 2
    assert "another author" in str(refused(data))


def test_an_author_without_an_account_here_refuses_the_import_and_says_what_to_do(game):
    data = exported(game)
    emptied()
    data["studio_version"]["author"] = "stranger"
    refusal = refused(data)
    assert refusal.code == "not_found" and "make the account 'stranger'" in str(refusal)
    assert not VariantVersion.objects.exists()
