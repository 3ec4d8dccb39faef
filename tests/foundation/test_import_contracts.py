"""The import contracts of ``./dip test`` (``[tool.importlinter]`` in pyproject.toml) break on a bad import.

Each case copies the package, adds one module with one bad import and runs ``lint-imports`` on the copy:
the contract named must break, and the unchanged copy must keep them all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.foundation.test_engine_boundary import ROOT

# Each runs lint-imports over a copy of the package: run by .ci/run's second stage (./dip test runs
# lint-imports itself before pytest).
pytestmark = pytest.mark.slow

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONTRACTS = [
    c["name"]
    for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
]
FACE_ONLY = "Other packages use the engine's public face only"
ENGINE_PURE = "The engine is pure Python"
LAYERS = "The server's layers"


def lint_imports(tmp_path: Path, module: str | None = None, source: str = "") -> str:
    shutil.copytree(ROOT / "dipserver", tmp_path / "dipserver", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    if module is not None:
        (tmp_path / Path(*module.split("."))).with_suffix(".py").write_text(source)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    return result.stdout + result.stderr


def broken(output: str) -> list[str]:
    """The names of the contracts the output reports broken."""
    said = " ".join(output.split())
    return [name for name in CONTRACTS if f"{name} BROKEN" in said]


@pytest.mark.parametrize(
    ("module", "source", "contract"),
    [
        ("dipserver.games.probe", "from dipserver.engine.board import Board\n", FACE_ONLY),
        ("dipserver.render.probe", "from dipserver.engine import icelords\n", FACE_ONLY),
        ("dipserver.api.probe", "def f():\n    import dipserver.engine.parse\n", FACE_ONLY),
        ("dipserver.engine.probe", "from dipserver.games import models\n", ENGINE_PURE),
        ("dipserver.engine.probe", "from dipserver.render import svg\n", ENGINE_PURE),
        ("dipserver.games.probe", "from dipserver.api import boards\n", LAYERS),
    ],
    ids=["games-engine-module", "render-engine-module", "api-engine-module-in-a-function", "engine-games",
         "engine-render", "games-api"],
)  # fmt: skip
def test_a_bad_import_breaks_its_contract(tmp_path: Path, module: str, source: str, contract: str) -> None:
    output = lint_imports(tmp_path, module, source)
    assert any(name.startswith(contract) for name in broken(output)), output


def test_the_tree_as_it_is_keeps_every_contract(tmp_path: Path) -> None:
    output = lint_imports(tmp_path)
    said = " ".join(output.split())
    assert [name for name in CONTRACTS if f"{name} KEPT" in said] == CONTRACTS, output
