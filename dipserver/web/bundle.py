"""The pages' scripts as the browser gets them: the bundle that ``scripts/build_scripts.mjs`` makes with
esbuild (minified, content-hashed names, static/dist/), or the plain ES modules of static/js/.

The build writes ``static/dist/manifest.json``: for each page script (``js/game.js``) its bundled file and
the chunks that file imports, and a digest of every source it read. The bundle is used only while that
digest is the sources' own: after an edit, a checkout or without a build at all (no node), the pages load
the plain modules, which behave the same, only in more requests. ``./dip`` rebuilds when
:func:`up_to_date` says so. Plain Python (no Django), so ``./dip`` asks it before anything is set up.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = Path("static", "dist", "manifest.json")
DIST_PREFIX = "dist/"  # the bundle's files, as names under static/

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PageScript:
    """What a page loads for one of its scripts: ``file`` and the ``imports`` to preload beside it, as
    names under static/ (``{% static %}`` turns them into addresses)."""

    file: str
    imports: tuple[str, ...] = ()


def digest(paths: list[str], root: Path = ROOT) -> str:
    """The sources' digest, the build's way: each path (from the root) and its bytes, in path order."""
    hash_ = hashlib.sha256()
    for path in sorted(paths):
        hash_.update(f"{path}\0".encode())
        hash_.update((root / path).read_bytes())
        hash_.update(b"\0")
    return hash_.hexdigest()


def built(root: Path = ROOT) -> dict[str, PageScript] | None:
    """The bundle's page scripts by name (``js/game.js``), or None without a current build: none made,
    or a source changed since (a source gone counts as changed)."""
    try:
        manifest = json.loads((root / MANIFEST).read_text())
        current = manifest["digest"] == digest(manifest["sources"], root)
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("%s cannot be read (%s): the pages load their plain modules", MANIFEST, exc)
        return None
    if not current:
        return None
    entries = manifest["entries"].items()
    return {name: PageScript(entry["file"], tuple(entry["imports"])) for name, entry in entries}


def up_to_date(root: Path = ROOT) -> bool:
    """Whether the bundle is there and made from the sources as they are (``./dip`` builds otherwise)."""
    return built(root) is not None


def page_script(name: str, scripts: dict[str, PageScript] | None) -> PageScript:
    """What the page loads for its script ``name``: the bundled file with its chunks, else the module."""
    if scripts is None:
        return PageScript(name)
    if name not in scripts:
        # A page script the build does not list (scripts/build_scripts.mjs, ENTRIES) still works unbundled.
        log.warning("%s is not among the bundled page scripts: the page loads it as a plain module", name)
        return PageScript(name)
    return scripts[name]
