"""A game plays by the variant version it pinned, even after the variant's files change."""

from __future__ import annotations

import shutil

import pytest

from dipserver.engine import variant as variant_module
from dipserver.engine import variantcache
from dipserver.engine.variant import load_variant, load_variant_from_sources, variant_sources
from dipserver.games import variants as game_variants
from dipserver.games.models import Game, Phase, VariantArchive
from dipserver.games.services.games import game_create
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import phase_process
from dipserver.games.services.transfer import game_export, game_import, game_replay
from tests.server.conftest import seat, started_game
from tests.server.test_processing import LATE, SOON


@pytest.fixture
def variants_dir(tmp_path, monkeypatch):
    """A copy of ``variants/`` the test may edit, used by the engine and the games app alike."""
    root = tmp_path / "variants"
    shutil.copytree(variant_module.VARIANTS_DIR, root)
    monkeypatch.setattr(variantcache, "VARIANTS_ROOT", str(root))  # the loader's, the sources' and timelines'
    yield root
    variantcache._load_cached.cache_clear()
    game_variants._archived.cache_clear()


def cut_paris_from_burgundy(root) -> None:
    """Edit the standard map (Wall of Ice's base): Paris and Burgundy no longer border each other."""
    path = root / "standard" / "map.toml"
    text = path.read_text()
    text = text.replace(
        'borders = ["BEL", "GAS", "MAR", "MUN", "PAR", "PIC", "RUH"]',
        'borders = ["BEL", "GAS", "MAR", "MUN", "PIC", "RUH"]',
    )
    text = text.replace('borders = ["BRE", "BUR", "GAS", "PIC"]', 'borders = ["BRE", "GAS", "PIC"]')
    path.write_text(text)
    variantcache._load_cached.cache_clear()  # as a restarted server would read them


def test_archived_sources_rebuild_the_same_version():
    files = variant_sources("wall_of_ice")
    assert set(files) == {
        "standard/map.toml",
        "standard/start.toml",
        "standard/variant.toml",
        "wall_of_ice/timeline.toml",
        "wall_of_ice/variant.toml",
    }
    assert load_variant_from_sources("wall_of_ice", files).version == load_variant("wall_of_ice").version


def test_a_game_archives_its_variant_once_for_every_game_on_that_version(users):
    first = game_create(name="One", variant="wall_of_ice")
    second = game_create(name="Two", variant="wall_of_ice")
    assert first.variant_version == second.variant_version == load_variant("wall_of_ice").version
    archive = VariantArchive.objects.get()
    assert (archive.version, archive.slug) == (first.variant_version, "wall_of_ice")
    assert archive.files == variant_sources("wall_of_ice")


def test_a_started_game_keeps_its_rules_after_the_files_change(users, variants_dir):
    game = started_game(users, variant="wall_of_ice")
    cut_paris_from_burgundy(variants_dir)
    assert load_variant("wall_of_ice").version != game.variant_version

    france = seat(game, "FRANCE").user
    submitted = orders_submit(game_id=game.id, user=france, text="A PAR - BUR", now=SOON)
    assert submitted.accepted == ["A PAR - BUR"] and not submitted.rejected
    phase_process(phase_id=game.current_phase_id, now=LATE)

    after = Phase.objects.get(game=game, index=1)
    assert {"power": "FRANCE", "type": "A", "location": "BUR"} in after.snapshot["units"]
    assert after.variant_version == game.variant_version
    assert game_replay(game_id=game.id) == []


def test_a_game_created_after_the_change_plays_the_new_files(users, variants_dir):
    cut_paris_from_burgundy(variants_dir)
    game = started_game(users, variant="wall_of_ice")
    submitted = orders_submit(game_id=game.id, user=seat(game, "FRANCE").user, text="A PAR - BUR", now=SOON)
    assert submitted.accepted == [] and len(submitted.rejected) == 1
    assert VariantArchive.objects.count() == 1  # only the edited version: no game uses the original


def test_an_export_carries_the_pinned_files_to_a_server_without_them(users, variants_dir):
    game = started_game(users, variant="wall_of_ice")
    data = game_export(game_id=game.id)
    assert data["variant_files"] == variant_sources("wall_of_ice")
    cut_paris_from_burgundy(variants_dir)
    VariantArchive.objects.all().delete()
    game_variants._archived.cache_clear()

    copy = game_import(data=data)
    assert VariantArchive.objects.get().version == copy.variant_version == game.variant_version
    orders_submit(game_id=copy.id, user=seat(copy, "FRANCE").user, text="A PAR - BUR", now=SOON)
    phase_process(phase_id=copy.current_phase_id, now=LATE)
    copy = Game.objects.get(id=copy.id)
    assert {"power": "FRANCE", "type": "A", "location": "BUR"} in copy.current_phase.snapshot["units"]


def test_a_game_whose_variant_folder_is_gone_plays_from_its_archive(users, variants_dir):
    game = started_game(users, variant="wall_of_ice")
    shutil.rmtree(variants_dir / "wall_of_ice")
    variantcache._load_cached.cache_clear()
    game_variants._archived.cache_clear()
    assert game_variants.game_variant(game).version == game.variant_version
