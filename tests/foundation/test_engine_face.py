"""The engine's public face (dipserver/engine/__init__.py): its import statements are the face, each name
resolves to the object its module defines, ``__all__`` names the same, and importing it loads no engine
module."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys

import pytest

import dipserver.engine as engine
from tests.foundation.test_engine_boundary import ENGINE, ROOT

FACE_FILE = ENGINE / "__init__.py"
# The names an import of an engine module sets on the package: its modules and subpackages.
MODULE_NAMES = {p.stem for p in ENGINE.glob("*.py")} | {
    p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()
}


def _face_imports() -> dict[str, tuple[str, str]]:
    """Face name -> (module, its name there), from the import statements of the face's source, read here
    apart from the face's own reading of them."""
    tree = ast.parse(FACE_FILE.read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: (str(node.module), alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and str(node.module).startswith("dipserver.engine.")
        for alias in node.names
    }


FACE = _face_imports()


def test_the_face_imports_names() -> None:
    assert len(FACE) > 50  # the parse above found the face's imports (a guard for the tests below)


@pytest.mark.parametrize("name", sorted(FACE))
def test_a_face_name_is_its_modules_object(name: str) -> None:
    module, own = FACE[name]
    assert getattr(engine, name) is getattr(importlib.import_module(module), own)


def test_all_names_the_imports() -> None:
    # mypy exports a renamed import (``from m import a as b``) only through ``__all__``.
    assert sorted(engine.__all__) == sorted(FACE)
    assert len(set(engine.__all__)) == len(engine.__all__)


def test_dir_names_the_face() -> None:
    assert set(FACE) <= set(dir(engine))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        _ = engine.no_such_thing


def test_no_face_name_is_a_module_name() -> None:
    # Importing dipserver.engine.<name> sets the package attribute <name> to the module.
    assert set(FACE) & MODULE_NAMES == set()


def test_the_face_imports_only_for_the_type_checker() -> None:
    # Any other import of an engine module in the face's source runs at every start-up of the command line.
    tree = ast.parse(FACE_FILE.read_text(encoding="utf-8"))
    at_start = [
        node
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any("dipserver" in (getattr(node, "module", None) or a.name) for a in node.names)
    ]
    assert at_start == []


def test_importing_the_face_loads_no_engine_module() -> None:
    probe = (
        "import json, sys\nimport dipserver.engine\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('dipserver.engine.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_star_import_gives_the_face() -> None:
    namespace: dict[str, object] = {}
    exec("from dipserver.engine import *", namespace)
    assert {name for name in namespace if not name.startswith("__")} == set(FACE)
