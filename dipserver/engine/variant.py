"""Loading a variant from ``variants/<slug>/`` (TOML data, format in ``variants/README.md``).

A variant is read once, validated, and cached. Reading and checking its files is ``variantfiles.py``'s:
anything wrong in them raises ``VariantError`` with a message naming the file, the province and the
problem, so a variant author can fix it without reading this code.

The repository's variants are also kept built on disk (``var/cache/variants/``, see "The disk cache" in
``variantcache.py``, which loads and keeps them): a one-request ``adjudicate`` process would otherwise
spend more time reading and checking the variant than adjudicating. Such a process imports that module, not
this one, and so never ``pathlib``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from dipserver.engine import variantcache
from dipserver.engine.definition import Power as Power
from dipserver.engine.definition import ProvinceInfo as ProvinceInfo
from dipserver.engine.definition import Variant as Variant
from dipserver.engine.definition import VariantError as VariantError
from dipserver.engine.definition import normalise_name as normalise_name
from dipserver.engine.variantcache import load_variant as load_variant

VARIANTS_DIR = Path(variantcache.VARIANTS_ROOT)  # the repository's variants/


def variant_sources(slug: str, root: Path | None = None) -> dict[str, str]:
    """Every TOML file of ``slug`` and of its base chain, as ``{"<slug>/<file>.toml": text}``: what
    ``load_variant_from_sources`` needs to rebuild exactly this version (the same ``version`` hash)."""
    from dipserver.engine.variantfiles import _read_toml

    root = Path(root or variantcache.VARIANTS_ROOT).resolve()
    files: dict[str, str] = {}
    seen: tuple[str, ...] = ()
    current: str | None = slug
    while current is not None:
        if current in seen or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", current):
            raise VariantError(f"variant {slug!r}: cannot follow the base chain at {current!r}")
        seen = (*seen, current)
        folder = root / current
        if not (folder / "variant.toml").is_file():
            raise VariantError(f"{folder}: no such variant folder")
        for path in sorted(folder.glob("*.toml")):
            files[f"{current}/{path.name}"] = path.read_text(encoding="utf-8")
        base = _read_toml(folder / "variant.toml")
        current = base.get("base") if base else None
        if current is not None and not isinstance(current, str):
            raise VariantError(f"{folder / 'variant.toml'}: 'base' must be a variant slug")
    return files


def load_variant_from_sources(slug: str, files: Mapping[str, str]) -> Variant:
    """The variant ``slug`` built from stored file texts (``variant_sources``), not from ``variants/``: a
    game keeps playing the version it pinned after the files change. The texts are written once to a
    content-addressed folder under the temporary directory, so the timeline is read from there too."""
    for name in files:
        folder, _, file = name.partition("/")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", folder) or not re.fullmatch(r"[a-z0-9_-]+\.toml", file):
            raise VariantError(f"archived variant {slug!r}: bad file name {name!r}")
    import hashlib
    import shutil
    import tempfile

    digest = hashlib.sha256(
        "\0".join(f"{name}\0{text}" for name, text in sorted(files.items())).encode()
    ).hexdigest()
    root = Path(tempfile.gettempdir()) / "dipserver-variants" / digest
    if not root.is_dir():
        root.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{digest[:12]}-", dir=root.parent))
        for name, text in files.items():
            (staging / name).parent.mkdir(exist_ok=True)
            (staging / name).write_text(text, encoding="utf-8")
        try:
            staging.rename(root)  # atomic: another process never sees half the files
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)  # another process wrote the same folder first
    return load_variant(slug, root)
