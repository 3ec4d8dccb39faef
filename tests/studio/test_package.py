"""A variant goes out and comes in as one package in the format of variants/<slug>/."""

from __future__ import annotations

import io
import zipfile

import pytest

from dipserver.engine import load_variant
from dipserver.studio import services
from dipserver.studio.errors import StudioError
from dipserver.studio.package import MAX_PACKAGE_BYTES, MAX_UNPACKED_BYTES, package_bytes, package_read
from dipserver.studio.selectors import draft_report
from tests.studio.conftest import VARIANTS, small_draft


def zipped(files: dict[str, bytes | str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return out.getvalue()


def test_a_package_is_the_folder_of_variants(gm):
    draft = small_draft(gm)
    names = zipfile.ZipFile(io.BytesIO(package_bytes(services.package_of_draft(draft)))).namelist()
    assert sorted(names) == [
        "small/drawing.svg",
        "small/geometry.json",
        "small/map.toml",
        "small/start.toml",
        "small/variant.toml",
    ]


def test_an_exported_package_unpacked_is_a_variant_the_loader_reads(gm, tmp_path):
    draft = small_draft(gm)
    zipfile.ZipFile(io.BytesIO(package_bytes(services.package_of_draft(draft)))).extractall(tmp_path)
    assert load_variant("small", tmp_path).name == "Small"


def test_an_exported_package_imports_as_the_same_draft(gm):
    draft = small_draft(gm)
    raw = package_bytes(services.package_of_draft(draft))
    draft.delete()
    again = services.draft_import(user=gm, raw=raw)
    assert again.data == draft.data and again.geometry == draft.geometry and draft_report(again).ok


def test_a_shipped_variants_folder_imports_as_a_draft(gm):
    files = {f"sahara2/{p.name}": p.read_text() for p in (VARIANTS / "sahara").glob("*.toml")}
    draft = services.draft_import(user=gm, raw=zipped(files))
    assert draft.data["variant"]["base"] == "standard" and draft_report(draft).ok


def test_a_package_with_a_stray_file_is_refused():
    with pytest.raises(StudioError) as refused:
        package_read(zipped({"x/variant.toml": "name = 'x'", "x/../../etc/passwd": "root"}))
    assert refused.value.code == "invalid_package"


def test_a_package_of_two_folders_is_refused():
    with pytest.raises(StudioError) as refused:
        package_read(zipped({"x/variant.toml": "", "y/variant.toml": ""}))
    assert refused.value.code == "invalid_package"


def test_a_package_without_variant_toml_is_refused():
    with pytest.raises(StudioError) as refused:
        package_read(zipped({"x/map.toml": ""}))
    assert refused.value.code == "invalid_package"


def test_bad_toml_in_a_package_names_the_file():
    with pytest.raises(StudioError) as refused:
        package_read(zipped({"x/variant.toml": "name = "}))
    assert "x/variant.toml" in str(refused.value)


def test_what_is_not_a_zip_is_refused():
    with pytest.raises(StudioError) as refused:
        package_read(b"not a zip")
    assert refused.value.code == "invalid_package"


def test_a_package_over_the_bound_is_refused():
    with pytest.raises(StudioError) as refused:
        package_read(b"x" * (MAX_PACKAGE_BYTES + 1))
    assert refused.value.code == "too_large"


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    with pytest.raises(StudioError) as refused:
        package_read(zipped({"x/variant.toml": "#" * (MAX_UNPACKED_BYTES + 1)}))
    assert refused.value.code == "too_large"


def test_a_package_with_a_hostile_drawing_is_sanitised(gm):
    raw = zipped(
        {
            "evil/variant.toml": "name = 'Evil'\nbase = 'standard'\n",
            "evil/drawing.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        }
    )
    draft = services.draft_import(user=gm, raw=raw)
    assert "script" not in draft.svg and draft.svg.startswith("<svg")
