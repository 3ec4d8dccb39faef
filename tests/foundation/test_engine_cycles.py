"""The engine's modules import one another without cycles: every import counts, those inside functions
and under ``TYPE_CHECKING`` too (a cycle of type names is a cycle of meaning all the same).

import-linter's ``acyclic_siblings`` contract checks this in ``./dip test`` (``pyproject.toml``); this test
checks it again by reading the sources, and says which modules a cycle runs through.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "dipserver.engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``source`` (the module ``module``) imports anywhere in its text."""
    found: set[str] = set()
    package = module if module in known and _is_package(module) else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([package.rsplit(".", node.level - 1)[0], *([base] if base else [])])
            # `from package import module` imports the module; `from module import name` the module
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            # the deepest known module the name is, or is inside of
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def _is_package(module: str) -> bool:
    return ROOT.joinpath(*module.split("."), "__init__.py").exists()


def import_graph(files: dict[str, str]) -> nx.DiGraph:
    """``{module: source}`` -> the graph of which module imports which (among those modules)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    known = set(files)
    for module, source in files.items():
        graph.add_edges_from((module, other) for other in imported_modules(source, module, known))
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def engine_sources() -> dict[str, str]:
    files = sorted(ROOT.joinpath(*PACKAGE.split(".")).rglob("*.py"))
    # Not the package's own __init__: the public face, whose imports name every module, is above them all
    # and no sibling (as for import-linter's ``acyclic_siblings``).
    return {
        name: path.read_text(encoding="utf-8") for path in files if (name := module_name(path)) != PACKAGE
    }


def test_the_engine_has_no_import_cycles() -> None:
    sources = engine_sources()
    assert len(sources) > 20  # the scan found the engine
    graph = import_graph(sources)
    assert graph.number_of_edges() > 50  # and its imports
    assert cycles(graph) == []


class TestTheScanItself:
    """The scan must see every spelling of an import, or the test above proves nothing."""

    def test_sees_a_cycle_through_a_function_level_and_a_type_checking_import(self) -> None:
        files = {
            "dipserver.engine.a": "def f():\n    from dipserver.engine.b import thing\n",
            "dipserver.engine.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from dipserver.engine.c import Other\n",
            "dipserver.engine.c": "from dipserver.engine import a\n",
            "dipserver.engine.d": "import dipserver.engine.a\n",
        }
        assert cycles(import_graph(files)) == [
            ["dipserver.engine.a", "dipserver.engine.b", "dipserver.engine.c"]
        ]

    def test_reads_relative_imports_and_names_inside_modules(self) -> None:
        files = {
            "dipserver.engine.a": "from .b import thing\n",
            "dipserver.engine.b": "from dipserver.engine.a import name as other\n",
        }
        assert cycles(import_graph(files)) == [["dipserver.engine.a", "dipserver.engine.b"]]

    def test_an_import_one_way_is_no_cycle(self) -> None:
        files = {
            "dipserver.engine.a": "from dipserver.engine.b import x\n",
            "dipserver.engine.b": "import re\n",
        }
        assert cycles(import_graph(files)) == []


def test_import_linter_checks_the_same() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    # One acyclic contract for the engine (the command line's modules have one of their own, below).
    [acyclic] = [c for c in contracts if c["type"] == "acyclic_siblings" and PACKAGE in c["ancestors"]]
    assert acyclic["ancestors"] == [PACKAGE]
    assert "ignore_imports" not in acyclic


def test_import_linter_holds_the_command_line_to_no_import_cycles() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    [acyclic] = [c for c in contracts if c.get("ancestors") == ["dipserver.adjudicator"]]
    assert acyclic["type"] == "acyclic_siblings"
    assert "ignore_imports" not in acyclic
