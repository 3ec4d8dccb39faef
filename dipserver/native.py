"""The engine's hot modules compiled to C with mypyc: the same source, run faster (one path, no copy).

``native.build`` (``./dip`` runs it) compiles :data:`MODULES` in place, beside their
sources, and writes a stamp (``dipserver/native.stamp``: each source's size and modification time). A
compiled module is used only while its source is the one it was compiled from: at start-up,
``dipserver/__init__.py`` calls :func:`guard`, and if any module's source changed since (an edit, a
checkout) every one is imported from its source instead, as is every one with ``DIPSERVER_NATIVE=0``.
Without a compiler or with a failed build nothing changes but the speed: the sources are the program.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(**_attrs: object) -> Any:
        """mypyc's class settings, for a compiled module to name from here: mypyc reads the decorator in
        the source (as ``mypy_extensions.mypyc_attr``) and never calls it; from the source it does nothing.
        Importing mypy_extensions itself would add to every one-request process's start-up."""
        return lambda cls: cls


# Plain ``os.path`` here: this runs at every start-up (``dipserver/__init__.py``), and pathlib and
# importlib.util cost a one-request command milliseconds it does not otherwise pay.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = os.path.join(ROOT, "dipserver", "native.stamp")  # "<module> <size> <mtime_ns>" lines, the Python
GROUP = "dipserver_native"  # the shared library of the compiled modules: ROOT/dipserver_native__mypyc*.so
_PYTHON = "python " + sys.version.replace("\n", " ")  # the stamp's last line: the interpreter built for

# What a batch and a phase spend their time in: reading requests and order texts, the movement phase,
# the resolver, the answer, and the values they pass (orders, types, board, position). Compiled, a class
# has no __dict__ or __slots__ and no Python subclass, and a frozen dataclass unpickles only through its
# constructor (docs/engine.md, "Compiled modules").
MODULES = (
    "dipserver.engine.resolver",
    "dipserver.engine.resolver.cycles",
    "dipserver.engine.resolver.decisions",
    "dipserver.engine.resolver.resolution",
    "dipserver.engine.resolver.strengths",
    "dipserver.engine.resolver.table",
    "dipserver.engine.resolver.route",
    "dipserver.engine.movement",
    "dipserver.engine.sanitised",
    "dipserver.engine.convoys",
    "dipserver.engine.readings",
    "dipserver.engine.lexicon",  # the words of every order text the memo has not met
    "dipserver.engine.grammar",  # and those words read into what the player asked for
    "dipserver.engine.parse",  # each power's lines, most answered from the memo
    "dipserver.engine.orderlines",  # and every power's, read for the pipeline
    "dipserver.engine.ordersheet",
    "dipserver.engine.adjudicate",
    "dipserver.engine.adjustments",
    "dipserver.engine.buildsites",
    "dipserver.engine.retreats",
    "dipserver.engine.kinds.hold",
    "dipserver.engine.kinds.move",
    "dipserver.engine.kinds.support",
    "dipserver.engine.kinds.convoy",
    "dipserver.engine.kinds.standing",
    "dipserver.engine.kinds.offering",  # the legal options: each unit's moves, read by every support offered
    "dipserver.engine.kinds.words",  # the notation of every option offered (``unit_at``)
    "dipserver.engine.options",
    "dipserver.adjudicator.answers",
    "dipserver.adjudicator.request",
    "dipserver.engine.types",
    "dipserver.engine.orders",
    "dipserver.engine.lateorders",
    "dipserver.engine.ferryorders",  # the Abstraction A/F orders
    "dipserver.engine.board",
    "dipserver.engine.position",
    "dipserver.engine.dislodged",
)


def source_of(name: str) -> str:
    """The source file of a module of :data:`MODULES` (a package's ``__init__.py``)."""
    path = os.path.join(ROOT, *name.split("."))
    return os.path.join(path, "__init__.py") if os.path.isdir(path) else path + ".py"


def _signature(name: str) -> str:
    found = os.stat(source_of(name))
    return f"{name} {found.st_size} {found.st_mtime_ns}"


def _stamp_lines() -> list[str] | None:
    try:
        with open(STAMP, encoding="utf-8") as stamp:
            return stamp.read().splitlines()
    except OSError:
        return None


def stale_modules(environ: Any = None) -> set[str]:
    """The modules of :data:`MODULES` to import from their sources: all of them with
    ``DIPSERVER_NATIVE=0``, without a stamp, or when any source changed since the build; else none."""
    if (os.environ if environ is None else environ).get("DIPSERVER_NATIVE") == "0":
        return set(MODULES)
    lines = _stamp_lines()
    if lines is None:
        return set(MODULES)
    built = set(lines)
    # All or none: compiled modules of one build call into each other's C (a class compiled in one is
    # taken as that class by the others), so one changed source sends every module to its source.
    if all(_signature(name) in built for name in MODULES):
        return set()
    return set(MODULES)


def guard() -> None:
    """Import every stale compiled module from its source (see the module's docstring); a checkout never
    built pays one ``stat``."""
    if not os.path.exists(STAMP) and not any(
        entry.startswith(GROUP + "__mypyc") for entry in os.listdir(ROOT)
    ):
        return  # never built here: every module is its source already
    stale = stale_modules()
    if stale:
        from dipserver._from_source import FromSource

        sys.meta_path.insert(0, FromSource(stale, source_of))


def build() -> int:
    """Compile :data:`MODULES` in place (mypyc, then the C compiler) and write the stamp; 0 when done."""
    from mypyc.build import mypycify
    from setuptools import setup

    if os.path.exists(STAMP):
        os.remove(STAMP)  # a build that fails half-way leaves every module to its source
    temp = os.path.join("var", "native-build")
    os.chdir(ROOT)
    paths = [os.path.relpath(source_of(name), ROOT) for name in MODULES]
    extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=os.path.join(temp, "c"))
    setup(
        name="dipserver-native",
        ext_modules=extensions,
        script_args=["-q", "build_ext", "--inplace", "--build-temp", os.path.join(temp, "o")],
    )
    lines = [_signature(name) for name in MODULES] + [_PYTHON]
    with open(STAMP, "w", encoding="utf-8") as stamp:
        stamp.write("\n".join(lines) + "\n")
    return 0


def up_to_date() -> bool:
    """Whether the compiled modules match their sources and this interpreter (nothing to build)."""
    lines = _stamp_lines()
    return lines is not None and _PYTHON in lines and not stale_modules({})
