"""The engine's public face (dipserver/engine/__init__.py): every name it offers resolves, lazily, to the
object its module defines; its stub names the same; and importing it loads no engine module."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys

import pytest

import dipserver.engine as engine
from tests.foundation.test_engine_boundary import ENGINE, ROOT

FACE = engine._table()
# The names an import of an engine module sets on the package: its modules and subpackages.
MODULE_NAMES = {p.stem for p in ENGINE.glob("*.py")} | {
    p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()
}


@pytest.mark.parametrize("name", sorted(FACE))
def test_a_face_name_is_its_modules_object(name: str) -> None:
    module, own = FACE[name]
    assert getattr(engine, name) is getattr(importlib.import_module(module), own)


def test_all_and_dir_name_the_face() -> None:
    assert engine.__all__ == sorted(FACE)
    assert set(FACE) <= set(dir(engine))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        _ = engine.no_such_thing


def test_no_face_name_is_a_module_name() -> None:
    # Importing dipserver.engine.<name> sets the package attribute <name> to the module.
    assert set(FACE) & MODULE_NAMES == set()


def test_the_stub_names_the_same_objects() -> None:
    stub = ast.parse((ENGINE / "__init__.pyi").read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name: (node.module, alias.name)
        for node in stub.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    [listed] = [n.value for n in stub.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"]  # type: ignore[attr-defined]
    assert imported == FACE
    assert sorted(ast.literal_eval(listed)) == sorted(FACE)


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
