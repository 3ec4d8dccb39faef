"""The tests run from the repository alone: no test, fixture or helper under ``tests/`` reads a path outside
the checkout, so a fresh clone with nothing beside it passes ``./dip test``. What a test needs lives in the
repository (``tests/data/``).

Every Python file under ``tests/`` is read as source, and each of these is a stray path:
- a path built from ``__file__`` (or a name bound to one) that climbs above the repository's root, by
  ``.parent``, ``.parents[n]``, ``os.path.dirname``, ``..`` or ``os.pardir``;
- a relative path with ``..`` that leaves the directory it starts from (the tests run from the root);
- a string naming the checkout's own folder or the folder that holds it (e.g. ``/work/shared``), or home;
- a directory taken from the environment (``os.environ["DATC_DIR"]``): the data would live where the
  machine says, not in the repository.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PATH_TYPES = frozenset({"Path", "PurePath", "PosixPath"})
_KEEP_DEPTH = frozenset({"resolve", "absolute", "expanduser", "abspath", "realpath", "normpath"})
_OPENERS = frozenset({"open", "chdir", "listdir", "scandir"})

Depth = int | None  # folders below the repository's root; negative above it; None: not a path we can follow


def _segments(depth: int, text: str) -> int:
    """Walk a relative path's segments from ``depth``; once above the root it stays above (negative)."""
    for part in text.replace("\\", "/").split("/"):
        if depth < 0:
            return depth
        depth += -1 if part == ".." else 0 if part in ("", ".") else 1
    return depth


class _PathReader:
    """How deep below the repository's root each path expression of one module points."""

    def __init__(self, tree: ast.Module, file_depth: int, checkout: Path) -> None:
        self.file_depth = file_depth
        self.checkout = checkout
        self.names: dict[str, int] = {}
        assignments = [node for node in ast.walk(tree) if isinstance(node, ast.Assign | ast.AnnAssign)]
        for _ in range(4):  # a name bound to a name bound to a path...: settle in a few passes
            for node in assignments:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                depth = self.depth(node.value) if node.value is not None else None
                for target in targets:
                    if isinstance(target, ast.Name) and depth is not None:
                        self.names[target.id] = depth

    def depth(self, node: ast.expr) -> Depth:
        match node:
            case ast.Name(id="__file__"):
                return self.file_depth
            case ast.Name(id=name):
                return self.names.get(name)
            case ast.Attribute(value=ast.Name(id="os"), attr="pardir"):
                return _segments(0, "..")
            case ast.Constant(value=str(text)):
                return self._string(text)
            case ast.Attribute(value=inner, attr="parent"):
                return self._up(self.depth(inner), 1)
            case ast.Subscript(
                value=ast.Attribute(value=inner, attr="parents"), slice=ast.Constant(value=int(n))
            ):
                return self._up(self.depth(inner), n + 1)
            case ast.BinOp(left=left, op=ast.Div(), right=right):
                return self._join(self.depth(left), [right])
            case ast.Call(func=func, args=args):
                return self._call(func, args)
        return None

    def _string(self, text: str) -> Depth:
        if text.startswith("/"):
            inside = Path(text).is_relative_to(self.checkout)
            return _segments(0, str(Path(text).relative_to(self.checkout))) if inside else None
        return _segments(0, text)  # relative: the tests run from the repository's root

    def _up(self, depth: Depth, steps: int) -> Depth:
        return None if depth is None else depth if depth < 0 else depth - steps

    def _join(self, depth: Depth, parts: list[ast.expr]) -> Depth:
        for part in parts:
            if depth is None or depth < 0:
                return depth
            match part:
                case ast.Constant(value=str(text)) if not text.startswith("/"):
                    depth = _segments(depth, text)
                case ast.Attribute(value=ast.Name(id="os"), attr="pardir"):
                    depth -= 1
                case _:
                    return None
        return depth

    def _call(self, func: ast.expr, args: list[ast.expr]) -> Depth:
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if not args:
            return self.depth(func.value) if isinstance(func, ast.Attribute) and name in _KEEP_DEPTH else None
        if name in _PATH_TYPES or name == "join":
            return self._join(self.depth(args[0]), args[1:])
        if name == "dirname":
            return self._up(self.depth(args[0]), 1)
        if name in _KEEP_DEPTH | _OPENERS:
            return self.depth(args[0])
        return None


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [
        tree,
        *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)),
    ]
    return {
        id(node.body[0].value)
        for node in nodes
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }


def _is_environ(node: ast.expr) -> bool:
    match node:
        case ast.Attribute(value=ast.Name(id="os"), attr="environ") | ast.Name(id="environ"):
            return True
    return False


def _environment_directory(node: ast.AST) -> str | None:
    """The variable's name when ``node`` reads a directory from the environment (``..._DIR``)."""
    match node:
        case ast.Subscript(value=environ, slice=ast.Constant(value=str(key)), ctx=ast.Load()) if _is_environ(
            environ
        ):
            pass
        case ast.Call(
            func=ast.Attribute(value=environ, attr="get" | "setdefault"),
            args=[ast.Constant(value=str(key)), *_],
        ) if _is_environ(environ):
            pass
        case ast.Call(
            func=ast.Attribute(value=ast.Name(id="os"), attr="getenv"),
            args=[ast.Constant(value=str(key)), *_],
        ):
            pass
        case _:
            return None
    return key if key.endswith("_DIR") else None


def stray_paths(source: str, path: Path, root: Path) -> list[str]:
    """Each place in ``source`` (the file at ``path`` in the checkout at ``root``) that points outside the
    repository, as ``line: what``."""
    tree = ast.parse(source)
    reader = _PathReader(tree, len(path.relative_to(root).parts), root)
    docstrings = _docstrings(tree)
    found = [
        (node.lineno, f"{ast.unparse(node)} is outside the repository")
        for node in _where_they_leave(_escapes(tree, reader))
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if _names_a_place(node.value, root):
                found.append((node.lineno, f"{node.value!r} names a place on this machine"))
        elif variable := _environment_directory(node):
            found.append((getattr(node, "lineno", 0), f"reads a directory from the environment ({variable})"))
    return [f"{line}: {what}" for line, what in sorted(set(found))]


def _escapes(tree: ast.Module, reader: _PathReader) -> list[ast.expr]:
    """The path expressions that point above the root (a bare string counts only where it is used as a
    path: a URL or a hostile input with ``..`` in a test is not a path the test reads)."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.expr)
        and not isinstance(node, ast.Constant)
        and (depth := reader.depth(node)) is not None
        and depth < 0
    ]


def _where_they_leave(escapes: list[ast.expr]) -> list[ast.expr]:
    """Only where a path first leaves the repository, not every expression built on it afterwards."""
    inner = {id(node) for node in escapes}
    return [node for node in escapes if not any(id(n) in inner for n in ast.walk(node) if n is not node)]


def _names_a_place(text: str, root: Path) -> bool:
    """A string naming the checkout, the folder that holds it, or a home directory."""
    if text.startswith("~/") or text == "~":
        return True
    holder = root.parent
    return holder != Path("/") and (text == str(holder) or str(holder) + "/" in text)


def sources_under(root: Path) -> Iterator[Path]:
    """Every Python file under ``root/tests`` but this one, whose examples of stray paths are strays."""
    return (path for path in sorted((root / "tests").rglob("*.py")) if path.name != Path(__file__).name)


def strays_under(root: Path) -> dict[str, list[str]]:
    """The stray paths of every Python file under ``root/tests``, by file (files with none left out)."""
    strays = {}
    for path in sources_under(root):
        if found := stray_paths(path.read_text(encoding="utf-8"), path, root):
            strays[str(path.relative_to(root))] = found
    return strays


def test_no_test_reads_a_path_outside_the_repository() -> None:
    assert strays_under(ROOT) == {}


def test_the_check_reads_every_test_file_and_conftest() -> None:
    read = {str(p.relative_to(ROOT)) for p in sources_under(ROOT)}
    assert {"tests/conftest.py", "tests/engine/datc/datc_driver.py", "tests/foundation/conftest.py"} <= read
    assert len(read) > 200


def test_the_check_finds_the_datc_directory_beside_the_checkout(tmp_path: Path) -> None:
    """The set-up this check replaced: ``tests/conftest.py`` pointed ``DATC_DIR`` at ``../shared/datc``."""
    (tmp_path / "tests" / "engine").mkdir(parents=True)
    (tmp_path / "tests" / "engine" / "test_fine.py").write_text(
        'ROOT = Path(__file__).resolve().parents[2]\nDATA = ROOT / "tests" / "data" / "cases.json"\n'
    )
    (tmp_path / "tests" / "conftest.py").write_text(
        "import os\nfrom pathlib import Path\n"
        'os.environ.setdefault("DATC_DIR", str(Path(__file__).resolve().parents[2] / "shared" / "datc"))\n'
    )
    assert strays_under(tmp_path) == {
        "tests/conftest.py": [
            "3: Path(__file__).resolve().parents[2] is outside the repository",
            "3: reads a directory from the environment (DATC_DIR)",
        ]
    }


STRAYS = {
    "parents above the root": "DATA = Path(__file__).resolve().parents[3] / 'datc'",
    "parent of a root": "ROOT = Path(__file__).resolve().parents[2]\nSHARED = ROOT.parent / 'shared'",
    "parent chain": "UP = Path(__file__).parent.parent.parent.parent",
    "name bound to a name": "HERE = Path(__file__).parent\nROOT = HERE.parents[1]\nOUT = ROOT.parent",
    "dotdot joined": "ROOT = Path(__file__).parents[2]\nDATA = ROOT / '..' / 'shared'",
    "dotdot in one string": "DATA = Path(__file__).parent / '../../../shared/datc'",
    "dotdot from the working folder": "DATA = Path('../shared/datc/cases.json')",
    "os.path": "DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), os.pardir)",
    "open": "TEXT = open('../shared/seeds/README.md').read()",
    "home": "DATA = Path('~/datc').expanduser()",
    "environment": "DATA = Path(os.environ['DATC_DIR']) / 'cases.json'",
    "environment with get": "DATA = Path(os.environ.get('SEEDS_DIR', 'x'))",
    "environment with getenv": "DATA = os.getenv('DATA_DIR')",
}


@pytest.mark.parametrize("source", STRAYS.values(), ids=STRAYS.keys())
def test_the_check_finds_a_stray_path(source: str, tmp_path: Path) -> None:
    assert stray_paths(source, tmp_path / "tests" / "engine" / "test_x.py", tmp_path)


@pytest.mark.parametrize("where", ["shared/datc/cases.json", "main/tests/data/x.json", "shared"])
def test_the_check_finds_a_path_on_this_machine(where: str, tmp_path: Path) -> None:
    root = tmp_path / "main"
    assert stray_paths(f"DATA = {str(tmp_path / where)!r}\n", root / "tests" / "test_x.py", root)


FINE = {
    "the root": "ROOT = Path(__file__).resolve().parents[2]\nDATA = ROOT / 'tests' / 'data' / 'x.json'",
    "a sibling": "DATA = Path(__file__).parent / '../timeline/seed_tables.py'",
    "os.path at the root": "ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))",
    "a docstring": '"""Copied from ``../shared/seeds`` once; ``/work/shared`` is not read."""',
    "a url": "client.get('/api/v1/games/../phases/')\nURL = 'GET .../options'",
    "system files": "STAT = Path('/proc/1/stat')\nBROWSER = os.environ.get('CHROMIUM', '/usr/bin/chromium')",
    "setting a directory": "monkeypatch.setenv('DIPSERVER_VAR_DIR', str(tmp_path))\nenv = {'X_DIR': 'y'}",
}


@pytest.mark.parametrize("source", FINE.values(), ids=FINE.keys())
def test_the_check_lets_paths_inside_the_repository_be(source: str, tmp_path: Path) -> None:
    assert stray_paths(source, tmp_path / "tests" / "engine" / "test_x.py", tmp_path) == []


def test_the_checkout_is_not_at_the_file_system_root() -> None:
    """The place-on-this-machine check needs a folder above the checkout to recognise."""
    assert ROOT.parent != Path(os.sep)
