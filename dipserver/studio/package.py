"""A studio variant as files: its tables written as the TOML files of ``variants/<slug>/``, and a package
(one zip: ``<slug>/variant.toml``, ``map.toml``, ``start.toml``, ``timeline.toml``, ``geometry.json``,
``drawing.svg``, ``tests/scenarios.toml``) to export or import, the same folder a variant shipped with the
code has. A draft's ``tests`` table is its own tests (``engine/scenarios.py``): in the package, never among
the files the loader reads or a version's hash counts.

TOML is written with ``tomli_w`` and read with the standard ``tomllib``; the engine's loader then reads the
files exactly as it reads ``variants/``.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
import zipfile
from dataclasses import dataclass
from typing import Any

import tomli_w

from dipserver.engine import SCENARIOS_FILE, VariantError, variant_sources
from dipserver.studio.errors import StudioError

FILES = ("variant", "map", "start", "timeline")  # the tables of a draft, each one TOML file
TESTS = "tests"  # the draft's own tests, a table beside the files: ``{"scenarios": [...]}``
SLUG_PATTERN = r"[a-z0-9][a-z0-9_-]{0,39}"
MAX_PACKAGE_BYTES = 1_500_000  # the zip as uploaded (base64 in a JSON body, under the API's body limit)
MAX_UNPACKED_BYTES = 8_000_000  # every file read from it together
GEOMETRY_FILE, DRAWING_FILE = "geometry.json", "drawing.svg"


@dataclass(frozen=True, slots=True)
class Package:
    """What a package holds: the draft's tables, its drawing as geometry.json and as SVG."""

    slug: str
    data: dict[str, Any]
    geometry: dict[str, Any] | None
    svg: str


def toml_texts(slug: str, data: dict[str, Any]) -> dict[str, str]:
    """The draft's own files, ``{"<slug>/<name>.toml": text}``; ``invalid_data`` names a table that is not
    a TOML table (e.g. a ``null`` somewhere)."""
    unknown = sorted(set(data) - {*FILES, TESTS})
    if unknown:
        raise StudioError(
            f"Unknown part(s) {unknown}: a draft has {', '.join(FILES)} and {TESTS}", code="invalid_data"
        )
    texts = {}
    for name in FILES:
        table = data.get(name)
        if table is None:
            continue
        if not isinstance(table, dict):
            raise StudioError(f"{name}.toml must be a table", code="invalid_data")
        try:
            texts[f"{slug}/{name}.toml"] = tomli_w.dumps(table)
        except (TypeError, ValueError) as exc:  # None, or a type TOML has not
            raise StudioError(f"{name}.toml cannot be written as TOML: {exc}", code="invalid_data") from None
    return texts


def variant_files(slug: str, data: dict[str, Any]) -> dict[str, str]:
    """Every file the engine needs to load the draft: its own, and its base chain's from ``variants/``."""
    files = toml_texts(slug, data)
    base = data.get("variant", {}).get("base")
    if base is not None:
        if not isinstance(base, str) or base == slug:
            raise StudioError(f"base must name an installed variant, not {base!r}", code="invalid_data")
        try:
            files.update(variant_sources(base))
        except VariantError as exc:
            raise StudioError(
                f"base {base!r} is not an installed variant ({exc})", code="invalid_data"
            ) from None
    return files


def tables_of(slug: str, files: dict[str, str]) -> dict[str, Any]:
    """A variant's own tables read back from its files (the base chain's files are left out)."""
    data: dict[str, Any] = {}
    for name in FILES:
        text = files.get(f"{slug}/{name}.toml")
        if text is not None:
            data[name] = tomllib.loads(text)
    return data


def package_bytes(package: Package) -> bytes:
    """The package as one zip, its files in a folder named after the slug."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in sorted(toml_texts(package.slug, package.data).items()):
            archive.writestr(name, text)
        if package.geometry is not None:
            archive.writestr(f"{package.slug}/{GEOMETRY_FILE}", json.dumps(package.geometry, sort_keys=True))
        if package.svg:
            archive.writestr(f"{package.slug}/{DRAWING_FILE}", package.svg)
        tests = package.data.get(TESTS)
        if isinstance(tests, dict) and tests.get("scenarios"):
            archive.writestr(f"{package.slug}/{SCENARIOS_FILE}", tomli_w.dumps(tests))
    return out.getvalue()


def package_read(raw: bytes) -> Package:
    """A package uploaded: one folder ``<slug>/`` of the known files only, bounded in size; every file is
    read in memory (nothing is written to disk, so no name can escape a folder)."""
    if len(raw) > MAX_PACKAGE_BYTES:
        raise StudioError(f"A package is at most {MAX_PACKAGE_BYTES} bytes", code="too_large")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, ValueError) as exc:
        raise StudioError(f"Not a zip package: {exc}", code="invalid_package") from None
    folders = {info.filename.partition("/")[0] for info in members}
    if len(folders) != 1 or not re.fullmatch(SLUG_PATTERN, slug := folders.pop()):
        raise StudioError("A package holds one folder named after the variant's slug", code="invalid_package")
    allowed = {f"{slug}/{name}.toml" for name in FILES} | {
        f"{slug}/{GEOMETRY_FILE}",
        f"{slug}/{DRAWING_FILE}",
        f"{slug}/{SCENARIOS_FILE}",
    }
    stray = sorted(info.filename for info in members if info.filename not in allowed)
    if stray:
        raise StudioError(f"Unknown file(s) in the package: {', '.join(stray)}", code="invalid_package")
    if sum(info.file_size for info in members) > MAX_UNPACKED_BYTES:
        raise StudioError(f"A package unpacks to at most {MAX_UNPACKED_BYTES} bytes", code="too_large")
    texts = {info.filename.partition("/")[2]: _member(archive, info) for info in members}
    if "variant.toml" not in texts:
        raise StudioError(f"The package has no {slug}/variant.toml", code="invalid_package")
    data = {}
    for name, file in (*((name, f"{name}.toml") for name in FILES), (TESTS, SCENARIOS_FILE)):
        if file in texts:
            try:
                data[name] = tomllib.loads(texts[file])
            except tomllib.TOMLDecodeError as exc:
                raise StudioError(f"{slug}/{file}: not valid TOML: {exc}", code="invalid_package") from None
    geometry = None
    if GEOMETRY_FILE in texts:
        try:
            geometry = json.loads(texts[GEOMETRY_FILE])
        except ValueError as exc:
            raise StudioError(f"{slug}/{GEOMETRY_FILE}: not JSON: {exc}", code="invalid_package") from None
    return Package(slug, data, geometry, texts.get(DRAWING_FILE, ""))


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> str:
    with archive.open(info) as member:
        raw = member.read(MAX_UNPACKED_BYTES + 1)  # the header's size may lie: never read past the bound
    if len(raw) > MAX_UNPACKED_BYTES:
        raise StudioError(f"{info.filename} unpacks to more than the bound", code="too_large")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StudioError(f"{info.filename} is not UTF-8 text", code="invalid_package") from None
