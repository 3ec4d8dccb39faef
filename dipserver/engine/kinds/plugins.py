"""Order kinds from outside the engine's own modules: the modules named in ``DIPSERVER_ORDER_KINDS``.

A kind is one module (``docs/engine.md``, "Order kinds"): its order value, its ``Kind`` and the line that
registers it. The engine's own kinds are loaded by ``standard``, ``conversion`` and the rule modules; a
kind of a game master's, a bot author's or a test's is loaded by naming its module, comma-separated, in the
environment variable ``DIPSERVER_ORDER_KINDS`` (importable from ``sys.path``). Every process loads them the
same way when it loads the standard kinds — the command line, the server, its workers and the bot — so a
kind reads, checks, offers, applies and draws itself alike everywhere.
"""

from __future__ import annotations

import importlib
import os

VARIABLE = "DIPSERVER_ORDER_KINDS"


class KindModuleError(ImportError):
    """A module named in ``DIPSERVER_ORDER_KINDS`` could not be loaded."""


def load(names: str | None = None) -> tuple[str, ...]:
    """Import the kind modules ``names`` lists (by default ``DIPSERVER_ORDER_KINDS``), each registering its
    kinds; returns their names. A module already loaded is not loaded again."""
    listed = os.environ.get(VARIABLE, "") if names is None else names
    modules = tuple(name.strip() for name in listed.split(",") if name.strip())
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise KindModuleError(f"{VARIABLE}: cannot load the order kinds of {name!r}: {exc}") from exc
    return modules
