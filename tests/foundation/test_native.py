"""The engine's compiled modules (``dipserver/native.py``) run only while they match their sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dipserver import native

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import dipserver.engine.movement as m, dipserver.adjudicator.request as r; print(m.__file__, r.__file__)"
)


def _loaded_from(env: dict[str, str]) -> list[str]:
    """The files two of the compiled modules are imported from, in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def _stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    stamp = tmp_path / "native.stamp"
    stamp.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(native, "STAMP", str(stamp))


def _built_lines() -> list[str]:
    return [native._signature(name) for name in native.MODULES] + [native._PYTHON]


def test_a_stamp_matching_every_source_leaves_every_module_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stamp(tmp_path, monkeypatch, _built_lines())
    assert native.stale_modules({}) == set()
    assert native.up_to_date()


def test_one_changed_source_sends_every_module_to_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _built_lines()
    name, size, mtime = lines[0].split()
    lines[0] = f"{name} {size} {int(mtime) + 1}"  # the source was saved again since the build
    _stamp(tmp_path, monkeypatch, lines)
    assert native.stale_modules({}) == set(native.MODULES)
    assert not native.up_to_date()


def test_without_a_stamp_every_module_is_its_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "STAMP", str(tmp_path / "absent.stamp"))
    assert native.stale_modules({}) == set(native.MODULES)
    assert not native.up_to_date()


def test_a_build_for_another_python_is_not_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stamp(tmp_path, monkeypatch, [*_built_lines()[:-1], "python 3.11.0 (another build)"])
    assert not native.up_to_date()


def test_dipserver_native_0_imports_every_module_from_its_source() -> None:
    assert native.stale_modules({"DIPSERVER_NATIVE": "0"}) == set(native.MODULES)
    assert all(path.endswith(".py") for path in _loaded_from({"DIPSERVER_NATIVE": "0"}))


def test_the_compiled_modules_are_used_where_they_were_built() -> None:
    """CI builds them (./dip, with a C compiler): there a checkout must run the compiled engine."""
    if not os.environ.get("CI") and not native.up_to_date():
        pytest.skip("the engine's modules are not compiled in this checkout (./dip builds them)")
    assert native.up_to_date(), "./dip did not compile the engine's modules: see var/native-build.log"
    assert all(path.endswith(".so") for path in _loaded_from({"DIPSERVER_NATIVE": ""}))


@pytest.mark.parametrize("module", native.MODULES)
def test_each_compiled_module_is_the_first_a_process_may_import(module: str) -> None:
    """A compiled class may name its fields' classes as it is defined (an enum's, another compiled
    class's): each module must import at run time what its classes name, not for type checking only, or
    it fails in a process that imports it before those (the tests' processes have them already)."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
