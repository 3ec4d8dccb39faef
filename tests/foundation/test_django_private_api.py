"""No module under ``dipserver/`` reaches into Django's private API, which an upgrade may change without a
word in its release notes: no import of a private module or name (``django.utils._os``, ``from ... import
_x``), nothing from the query compiler's package (``django.db.models.sql``), none of the compiler's
internals (``klass_info``, ``get_related_populators``), and no private attribute Django defines
(``queryset._prefetch_related_lookups``) unless Django documents it (``Model._meta``, ``Model._state``,
the managers).

The private attributes are found in Django's own source: every ``_name`` it assigns or defines as an
attribute. An attribute that ``dipserver`` defines itself (its own ``self._cache``) is its own business.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import django

from .conftest import ROOT

PACKAGE = ROOT / "dipserver"

# Documented despite the underscore: the Model _meta API, Model._state (adding, db), the managers.
DOCUMENTED = frozenset({"_meta", "_state", "_default_manager", "_base_manager"})
# The compiler's insides, private though their names have no underscore.
INTERNAL_NAMES = frozenset({"klass_info", "get_related_populators", "RelatedPopulator", "annotation_col_map"})
INTERNAL_MODULES = ("django.db.models.sql",)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _attributes_defined(trees: Iterable[ast.AST]) -> set[str]:
    """Private names a body of code defines as attributes: ``x._a = ...``, ``def _a`` / ``_a = ...`` in a
    class."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr):
                names.add(node.attr)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _private(item.name):
                        names.add(item.name)
                    targets = item.targets if isinstance(item, ast.Assign) else []
                    if isinstance(item, ast.AnnAssign):
                        targets = [item.target]
                    names |= {t.id for t in targets if isinstance(t, ast.Name) and _private(t.id)}
    return names


def _parsed(files: Iterable[Path]) -> list[ast.AST]:
    return [ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in files]


@cache
def django_private_attributes() -> frozenset[str]:
    return frozenset(_attributes_defined(_parsed(Path(django.__file__).parent.rglob("*.py"))))


def _module_private(module: str) -> bool:
    return module.startswith(INTERNAL_MODULES) or any(_private(part) for part in module.split("."))


def _attribute_read(node: ast.AST) -> str | None:
    """The attribute ``x.name`` reads, or ``getattr(x, "name")`` (and ``hasattr``, ``setattr``) names."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr", "setattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[1].value
    return None


def _djangos_private(name: str, own: set[str]) -> bool:
    if name in INTERNAL_NAMES:
        return True
    return _private(name) and name not in DOCUMENTED | own and name in django_private_attributes()


def reaches(tree: ast.AST, own: set[str]) -> list[str]:
    """Where ``tree`` reaches into Django's private API (``own``: private attributes defined by us)."""
    found = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            found += [
                f"{where}: import {a.name}"
                for a in node.names
                if a.name.startswith("django.") and _module_private(a.name)
            ]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "django":
            module = node.module or ""
            if _module_private(module):
                found.append(f"{where}: from {module} import ...")
            found += [
                f"{where}: from {module} import {a.name}"
                for a in node.names
                if _private(a.name) or a.name in INTERNAL_NAMES
            ]
        elif (name := _attribute_read(node)) is not None and _djangos_private(name, own):
            found.append(f"{where}: .{name}")
    return found


def test_no_module_reaches_into_djangos_private_api() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    trees = _parsed(files)
    own = _attributes_defined(trees)
    problems = [
        f"{path.relative_to(ROOT)} {problem}"
        for path, tree in zip(files, trees, strict=True)
        for problem in reaches(tree, own)
    ]
    assert problems == []


PLANTED = """
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.utils._os import safe_join
import django.utils._os
from django.db.models.base import _has_contribute_to_class

def rows(queryset, compiler):
    lookups = queryset._prefetch_related_lookups
    info = compiler.klass_info
    cached = getattr(queryset, "_result_cache", None)
    return queryset.model._meta, queryset.query, lookups, info, cached
"""


def test_the_check_catches_a_planted_example() -> None:
    found = reaches(ast.parse(PLANTED), own=set())
    assert [problem.split(": ", 1)[1] for problem in found] == [
        "from django.db.models.query import get_related_populators",
        "from django.db.models.sql.compiler import ...",
        "from django.utils._os import ...",
        "import django.utils._os",
        "from django.db.models.base import _has_contribute_to_class",
        "._prefetch_related_lookups",
        ".klass_info",
        "._result_cache",
    ]


def test_our_own_private_attributes_are_ours() -> None:
    """A private attribute dipserver defines itself is not Django's, though Django has one of that name."""
    tree = ast.parse("class Box:\n    def __init__(self):\n        self._cache = {}\n\nBox()._cache\n")
    assert "_cache" in django_private_attributes()
    assert reaches(tree, own=_attributes_defined([tree])) == []
