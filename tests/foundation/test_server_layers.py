"""The game server sits below its faces: nothing under dipserver/games imports the REST API or the HTML
pages, so services and selectors stay usable from tasks, the admin and the command line alike."""

from __future__ import annotations

from pathlib import Path

from tests.foundation.test_engine_boundary import ROOT, forbidden_imports, module_name

GAMES_FILES = sorted((ROOT / "dipserver" / "games").rglob("*.py"))
FACES = ("dipserver.api", "dipserver.web")


def test_the_game_server_imports_neither_the_api_nor_the_pages() -> None:
    found = {
        module_name(path): hits
        for path in GAMES_FILES
        if (hits := forbidden_imports(path.read_text(), module_name(path), FACES))
    }
    assert found == {}


def test_the_layer_check_sees_an_import_of_the_api() -> None:
    source = "def f():\n    from dipserver.api.boards import geometry_of\n"
    assert forbidden_imports(source, "dipserver.games.example", FACES) != []


def test_the_layer_check_reads_every_games_module() -> None:
    assert Path(ROOT / "dipserver" / "games" / "changes.py") in GAMES_FILES
