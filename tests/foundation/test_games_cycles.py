"""The game server's modules import one another without cycles, at every level of ``dipserver.games``:
services, tasks and notifications included, imports inside functions too (a cycle hidden in a function
is a cycle all the same). Tasks depend on services; services hand work to the workers by name through
``games.jobs``, which the tasks fill when the app is ready.

import-linter's ``acyclic_siblings`` contract for ``dipserver.games`` (``pyproject.toml``) says the same
once ``./dip test`` reads that file; this test holds it now, by reading the sources, and names the
siblings a cycle runs through.
"""

from __future__ import annotations

import tomllib

import networkx as nx

from tests.foundation.test_engine_cycles import ROOT, cycles, import_graph, module_name

PACKAGE = "dipserver.games"


def games_sources() -> dict[str, str]:
    files = sorted(ROOT.joinpath(*PACKAGE.split(".")).rglob("*.py"))
    return {module_name(path): path.read_text(encoding="utf-8") for path in files}


def sibling_graphs(graph: nx.DiGraph) -> dict[str, nx.DiGraph]:
    """For each package, the graph of its children: one child depends on another when a module inside
    the first imports a module inside the second (as ``acyclic_siblings`` counts them)."""
    packages = {m.rpartition(".")[0] for m in graph} | {
        m for m in graph if any(n.startswith(f"{m}.") for n in graph)
    }
    siblings: dict[str, nx.DiGraph] = {}
    for package in sorted(p for p in packages if p == PACKAGE or p.startswith(f"{PACKAGE}.")):
        child_of = {
            m: f"{package}.{m[len(package) + 1 :].split('.')[0]}"
            for m in graph
            if m.startswith(f"{package}.")
        }
        children = nx.DiGraph()
        children.add_nodes_from(set(child_of.values()))
        for importer, imported in graph.edges:
            if importer in child_of and imported in child_of and child_of[importer] != child_of[imported]:
                children.add_edge(child_of[importer], child_of[imported])
        siblings[package] = children
    return siblings


def test_the_game_server_has_no_import_cycles_between_siblings() -> None:
    sources = games_sources()
    assert f"{PACKAGE}.services.phases" in sources and f"{PACKAGE}.tasks" in sources  # the scan found it
    graphs = sibling_graphs(import_graph(sources))
    assert graphs[PACKAGE].has_edge(f"{PACKAGE}.tasks", f"{PACKAGE}.services")  # and its imports
    found = {package: c for package, children in graphs.items() if (c := cycles(children))}
    assert found == {}


def test_the_sibling_check_sees_a_cycle_through_a_function_level_import() -> None:
    files = {
        f"{PACKAGE}.tasks": f"from {PACKAGE}.services.phases import phase_process\n",
        f"{PACKAGE}.services": "",
        f"{PACKAGE}.services.phases": f"from {PACKAGE} import notifications\n",
        f"{PACKAGE}.notifications": f"def later():\n    from {PACKAGE}.tasks import notification_send\n",
    }
    graphs = sibling_graphs(import_graph(files))
    assert cycles(graphs[PACKAGE]) == [
        [f"{PACKAGE}.notifications", f"{PACKAGE}.services", f"{PACKAGE}.tasks"]
    ]


def test_the_sibling_check_looks_inside_subpackages_too() -> None:
    files = {
        f"{PACKAGE}.services": "",
        f"{PACKAGE}.services.orders": f"def f():\n    from {PACKAGE}.services.phases import x\n",
        f"{PACKAGE}.services.phases": f"from {PACKAGE}.services.orders import y\n",
    }
    graphs = sibling_graphs(import_graph(files))
    assert cycles(graphs[f"{PACKAGE}.services"]) == [
        [f"{PACKAGE}.services.orders", f"{PACKAGE}.services.phases"]
    ]


def test_import_linter_has_the_same_contract() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    [games] = [c for c in contracts if c["type"] == "acyclic_siblings" and c["ancestors"] == [PACKAGE]]
    assert "ignore_imports" not in games
