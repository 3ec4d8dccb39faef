"""The import finder ``native.guard`` puts first when a compiled module's source has changed since its
build: it finds those modules from their ``.py`` files, where the path finder would prefer the extension.

A finder is anything with ``find_spec`` (``sys.meta_path``'s protocol). It does not subclass
``importlib.abc.MetaPathFinder``, which adds nothing to it: importing ``importlib.abc`` loads
``importlib.resources`` and more, which a start-up from the sources otherwise never needs."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Callable, Sequence
from types import ModuleType


class FromSource:
    def __init__(self, names: set[str], source_of: Callable[[str], str]) -> None:
        self.names, self.source_of = names, source_of

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = self.source_of(fullname)
        package = [source.rsplit("/", 1)[0]] if source.endswith("/__init__.py") else None
        return importlib.util.spec_from_file_location(fullname, source, submodule_search_locations=package)
