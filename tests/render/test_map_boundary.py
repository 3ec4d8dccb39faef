"""The renderer is pure Python like the engine: an API view, a Celery task or a script may call it."""

from __future__ import annotations

import ast
from pathlib import Path

import dipserver.render

FORBIDDEN = ("django", "celery", "rest_framework", "dipserver.config", "dipserver.core", "dipserver.games")


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_renderer_imports_no_server_code() -> None:
    package = Path(dipserver.render.__file__).parent
    offending = {
        (path.name, name)
        for path in package.glob("*.py")
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN or name.startswith(FORBIDDEN)
    }
    assert not offending
    assert len(list(package.glob("*.py"))) >= 4  # the glob really looked at the package
