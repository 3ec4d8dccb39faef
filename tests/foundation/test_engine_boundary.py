"""The engine is pure Python: nothing under dipserver/engine may import Django, Celery, DRF or server code.

Checked twice, independently of import-linter (which also runs in `./dip test`): by reading every
engine source file, and by importing every engine module in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "dipserver" / "engine"
FORBIDDEN = (
    "django",
    "celery",
    "rest_framework",
    "dipserver.config",
    "dipserver.core",
    "dipserver.accounts",
    "dipserver.games",
    "dipserver.api",
)
# Nor the other dipserver packages: the engine is below them all (bar its command line's old name).
ENGINE_FORBIDDEN = (
    *FORBIDDEN,
    "dipserver.web",
    "dipserver.render",
    "dipserver.bot",
    "dipserver.mail",
    "dipserver.notices",
    "dipserver.webhooks",
    "dipserver.studio",
    "dipserver.sandbox",
    "dipserver.players",
)
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def forbidden_imports(source: str, module: str, forbidden: tuple[str, ...] = ENGINE_FORBIDDEN) -> list[str]:
    """Every import in ``source`` (found anywhere, even inside functions) that names a forbidden module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import: resolve against the importing module's package
                package = module.rsplit(".", node.level)[0]
                names = [f"{package}.{node.module}" if node.module else package]
            else:
                names = [node.module or ""]
        else:
            continue
        found += [name for name in names if any(name == f or name.startswith(f + ".") for f in forbidden)]
    return found


def test_the_engine_exists() -> None:
    assert ENGINE_FILES, "dipserver/engine/ has no Python modules"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_source_names_no_forbidden_module(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8"), module_name(path)) == []


def test_every_engine_module_imports_without_loading_a_framework() -> None:
    # __main__ modules run a command line when imported; the source scan above still covers them.
    modules = [module_name(path) for path in ENGINE_FILES if path.stem != "__main__"]
    probe = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(FORBIDDEN[:3])!r}"
        f" or any(m == f or m.startswith(f + '.') for f in {list(ENGINE_FORBIDDEN[3:])!r}))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


class TestTheCheckItself:
    """The scanner must catch every spelling of a forbidden import, or the tests above prove nothing."""

    @pytest.mark.parametrize(
        "source",
        [
            "import django",
            "import django.db.models as m",
            "from django.conf import settings",
            "from celery import shared_task",
            "import rest_framework",
            "from dipserver.games import models",
            "def f():\n    from dipserver.config import celery_app",
            "from ..config import env",
            "from dipserver.render.svg import render_svg",
            "import dipserver.web",
        ],
    )
    def test_flags_forbidden_imports(self, source: str) -> None:
        assert forbidden_imports(source, "dipserver.engine.resolver") != []

    @pytest.mark.parametrize(
        "source",
        [
            "import networkx",
            "from dipserver.engine.types import Phase",
            "from .types import Unit",
            "import djangoish",
        ],
    )
    def test_allows_everything_else(self, source: str) -> None:
        assert forbidden_imports(source, "dipserver.engine.resolver") == []


def test_import_linter_contract_forbids_the_same_modules() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["include_external_packages"] is True
    # (The engine's other contract, that it never imports the command line, is checked further down.)
    contracts = {
        tuple(c["source_modules"]): c
        for c in config["contracts"]
        if c["type"] == "forbidden" and "django" in c["forbidden_modules"]
    }
    contract = contracts[("dipserver.engine",)]
    assert contract["type"] == "forbidden"
    assert set(contract["forbidden_modules"]) == set(ENGINE_FORBIDDEN)


# The engine's one import of its command line: `python -m dipserver.engine`, the command's old name.
ALIAS = ("dipserver.engine.__main__", "->", "dipserver.adjudicator.__main__")


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_never_imports_its_command_line(path: Path) -> None:
    found = forbidden_imports(path.read_text(encoding="utf-8"), module_name(path), ("dipserver.adjudicator",))
    allowed = [ALIAS[2]] if module_name(path) == ALIAS[0] else []
    assert found == allowed


def test_import_linter_keeps_the_command_line_out_of_the_engine() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [contract] = [
        c
        for c in config["contracts"]
        if c["type"] == "forbidden"
        and c["source_modules"] == ["dipserver.engine"]
        and "dipserver.adjudicator" in c["forbidden_modules"]
    ]
    assert contract["type"] == "forbidden"
    assert contract["ignore_imports"] == [" ".join(ALIAS)]


# Other packages that promise to stay free of the server (see their module docstrings).
PURE_PACKAGES = {
    "dipserver.adjudicator": ENGINE_FORBIDDEN,
    "dipserver.render": FORBIDDEN,
    "dipserver.bot": (*FORBIDDEN, "dipserver.engine", "dipserver.render"),
}


@pytest.mark.parametrize("package", sorted(PURE_PACKAGES))
def test_other_pure_packages_keep_their_promise(package: str) -> None:
    folder = ROOT.joinpath(*package.split("."))
    files = sorted(folder.rglob("*.py"))
    assert files, f"{package} has no modules"
    found = {
        str(path.relative_to(ROOT)): bad
        for path in files
        if (
            bad := forbidden_imports(
                path.read_text(encoding="utf-8"), module_name(path), PURE_PACKAGES[package]
            )
        )
    }
    assert found == {}


@pytest.mark.parametrize("package", sorted(PURE_PACKAGES))
def test_import_linter_has_the_same_contract_for(package: str) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    contracts = {tuple(c["source_modules"]): c for c in config["contracts"] if c["type"] == "forbidden"}
    assert set(contracts[(package,)]["forbidden_modules"]) == set(PURE_PACKAGES[package])


def test_every_other_dipserver_package_is_forbidden_to_the_engine() -> None:
    """A new app is below the engine's boundary from its first day, not when someone remembers the list."""
    packages = {f"dipserver.{p.name}" for p in ENGINE.parent.iterdir() if (p / "__init__.py").exists()}
    assert packages - {"dipserver.engine", "dipserver.adjudicator"} <= set(ENGINE_FORBIDDEN)
