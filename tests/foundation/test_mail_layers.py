"""The mail, webhook and inbox modules import one another one way only, imports inside functions and
under ``TYPE_CHECKING`` counted: in ``dipserver/mail`` the outbox queues the tasks, the tasks call the
delivery, the delivery reads the models, never back. import-linter's layers contract in
``pyproject.toml`` says the same for the mail modules in ``./dip test``."""

from __future__ import annotations

import tomllib

import pytest

from tests.foundation.test_engine_cycles import ROOT, cycles, import_graph, module_name

MAIL_LAYERS = ["outbox", "tasks", "delivery", "html", "pictures", "unsubscribe", "models"]


def sources(package: str) -> dict[str, str]:
    files = sorted(ROOT.joinpath(*package.split(".")).rglob("*.py"))
    return {module_name(p): p.read_text(encoding="utf-8") for p in files if "migrations" not in p.parts}


@pytest.mark.parametrize("package", ["dipserver.mail", "dipserver.webhooks", "dipserver.notices"])
def test_the_modules_of_the_package_have_no_import_cycles(package: str) -> None:
    graph = import_graph(sources(package))
    assert graph.number_of_edges() > 3  # the scan found the package's imports
    assert cycles(graph) == []


def test_the_mail_modules_import_only_downwards() -> None:
    graph = import_graph(sources("dipserver.mail"))
    rank = {f"dipserver.mail.{name}": i for i, name in enumerate(MAIL_LAYERS)}
    upwards = [(a, b) for a, b in graph.edges if a in rank and b in rank and rank[a] > rank[b]]
    assert upwards == []
    assert ("dipserver.mail.outbox", "dipserver.mail.tasks") in graph.edges


def test_import_linter_holds_the_same_layers() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    [mail] = [c for c in contracts if c["type"] == "layers" and c.get("containers") == ["dipserver.mail"]]
    assert mail["layers"] == MAIL_LAYERS
