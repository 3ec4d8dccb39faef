"""Loading variants: the standard data, inheritance, and a clear error for every kind of broken file."""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from dipserver.engine.board import board_for
from dipserver.engine.types import Phase, Terrain, Unit, UnitType
from dipserver.engine.validate import validate
from dipserver.engine.variant import VARIANTS_DIR, Variant, VariantError, load_variant


def test_standard_metadata(standard: Variant) -> None:
    assert standard.slug == "standard"
    assert standard.name == "Standard"
    assert standard.base is None
    assert standard.victory_centres == 18
    assert standard.build_rule == "home"
    assert list(standard.powers) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert standard.powers["FRANCE"].adjective == "French"
    assert all(re.fullmatch(r"#[0-9a-f]{6}", p.colour) for p in standard.powers.values())
    assert re.fullmatch(r"[0-9a-f]{64}", standard.version)


def test_standard_start_position(standard: Variant) -> None:
    start = standard.start
    assert start.phase == Phase.parse("S1901M")
    assert len(start.units) == 22
    assert start.units["STP"] == Unit("RUSSIA", UnitType.FLEET, "STP/SC")
    assert start.units["LVP"] == Unit("ENGLAND", UnitType.ARMY, "LVP")
    assert start.centres_of("RUSSIA") == ["MOS", "SEV", "STP", "WAR"]
    assert len(start.owners) == 22
    assert dict(start.owners) == dict(standard.map_state.homes)


def test_geometry_is_symmetric_and_coasts_are_named(standard: Variant) -> None:
    assert len(standard.provinces) == 75
    assert all(a in standard.borders[b] for a, ns in standard.borders.items() for b in ns)
    assert standard.coast_waters["SPA"] == {"NC": {"MAO"}, "SC": {"LYO", "MAO", "WES"}}
    assert standard.fleet_exceptions == {frozenset({"GAS", "SPA/SC"})}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("St Petersburg", "STP"),
        ("saint petersburg", "STP"),
        ("St. Petersburg", "STP"),
        ("Gulf of Lyon", "LYO"),
        ("gulf of lions", "LYO"),
        ("GOL", "LYO"),
        ("NRG", "NWG"),
        ("gob", "BOT"),
        ("ECH", "ENG"),
        ("NTS", "NTH"),
        ("EMS", "EAS"),
        ("WMS", "WES"),
        ("MAT", "MAO"),
        ("mid-atlantic ocean", "MAO"),
        ("NAT", "NAO"),
        ("lon", "LON"),
        ("Heligoland Bight", "HEL"),
    ],
)
def test_names_and_aliases(standard: Variant, text: str, code: str) -> None:
    assert standard.lookup(text) == code


def test_unknown_name(standard: Variant) -> None:
    assert standard.lookup("Atlantis") is None


def test_load_is_cached(standard: Variant) -> None:
    assert load_variant("standard") is standard


def test_variant_is_small_in_memory(variant_copy: Callable[..., Path]) -> None:
    # Measured on a fresh load (not the cached one) with its opening board: well under 5 MB.
    root = variant_copy().parent
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    variant = load_variant("standard", root)
    board = board_for(variant, variant.map_state)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert board.provinces and used < 5_000_000


@pytest.mark.parametrize(
    "slug", sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.toml").is_file())
)
def test_every_variant_in_the_repository_loads_and_is_sound(slug: str) -> None:
    variant = load_variant(slug)
    assert validate(variant, position=variant.start) == []


def test_every_toml_file_counts_towards_the_version(
    variant_copy: Callable[..., Path], standard: Variant
) -> None:
    folder = variant_copy()
    (folder / "timeline.toml").write_text("# an empty timeline\n")
    assert load_variant("standard", folder.parent).version != standard.version


def test_version_changes_with_the_files(variant_copy: Callable[..., Path], standard: Variant) -> None:
    folder = variant_copy(edit={"variant.toml": lambda t: t.replace("Classic Diplomacy", "Plain Diplomacy")})
    copied = load_variant("standard", folder.parent)
    assert copied.version != standard.version
    assert load_variant("standard", folder.parent).version == copied.version


# --- inheritance ------------------------------------------------------------------------------------


def _derived(root: Path, map_toml: str, extra_meta: str = "") -> None:
    folder = root / "alpine"
    folder.mkdir()
    (folder / "variant.toml").write_text(f'base = "standard"\nname = "Alpine"\n{extra_meta}')
    (folder / "map.toml").write_text(map_toml)


SWITZERLAND = """
[provinces.SWI]
name = "Switzerland"
aliases = ["Swiss"]
terrain = "impassable"
borders = ["BUR", "MAR", "MUN", "PIE", "TYR"]

[provinces.BUR]
add_borders = ["SWI"]
[provinces.MAR]
add_borders = ["SWI"]
[provinces.MUN]
add_borders = ["SWI"]
[provinces.PIE]
add_borders = ["SWI"]
[provinces.TYR]
add_borders = ["SWI"]
"""


def test_a_variant_extends_its_base(variant_copy: Callable[..., Path]) -> None:
    root = variant_copy().parent
    _derived(root, SWITZERLAND, '[rules]\nbuilds = "owned"\n')
    alpine = load_variant("alpine", root)
    assert alpine.base == "standard"
    assert alpine.name == "Alpine"
    assert len(alpine.provinces) == 76
    assert alpine.map_state.terrain["SWI"] is Terrain.IMPASSABLE
    assert "SWI" in alpine.borders["MUN"]
    assert alpine.lookup("swiss") == "SWI"
    assert alpine.build_rule == "owned"
    assert alpine.victory_centres == 18
    assert len(alpine.start.units) == 22  # start.toml inherited
    board = board_for(alpine, alpine.map_state)
    assert "SWI" not in board.army_moves("MUN")  # impassable: never entered


def test_a_derived_variant_can_open_a_province(variant_copy: Callable[..., Path]) -> None:
    root = variant_copy().parent
    _derived(root, SWITZERLAND.replace('"impassable"', '"land"'))
    board = board_for(load_variant("alpine", root), load_variant("alpine", root).map_state)
    assert board.army_moves("SWI") == {"BUR", "MAR", "MUN", "PIE", "TYR"}
    assert "SWI" in board.army_moves("MUN")
    assert not board.is_coastal("SWI")


# --- broken files -----------------------------------------------------------------------------------


def _broken(variant_copy: Callable[..., Path], file: str, change: Callable[[str], str]) -> str:
    folder = variant_copy(edit={file: change})
    with pytest.raises(VariantError) as err:
        load_variant("standard", folder.parent)
    return str(err.value)


def test_missing_key(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "map.toml", lambda t: t.replace('name = "Kiel"\n', "", 1))
    assert "map.toml" in message and "province KIE" in message and "missing key 'name'" in message


def test_unknown_province_in_borders(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy,
        "map.toml",
        lambda t: t.replace('borders = ["BAL", "BER", "DEN"', 'borders = ["BAL", "BRL", "DEN"'),
    )
    assert "province KIE" in message and "'BRL' is not a province" in message


def test_asymmetric_border(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy,
        "map.toml",
        lambda t: t.replace(
            'borders = ["BER", "BOH", "BUR", "KIE"', 'borders = ["BER", "BOH", "BUR", "KIE", "PAR"'
        ),
    )
    assert "province MUN" in message and "borders PAR but PAR does not list MUN" in message


def test_coast_touching_no_water(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "map.toml", lambda t: t.replace('NC = ["BAR"]', 'NC = ["NWY"]'))
    assert "province STP" in message and "coast NC touches no water" in message


def test_coast_touching_a_province_it_does_not_border(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "map.toml", lambda t: t.replace('NC = ["BAR"]', 'NC = ["NWG"]'))
    assert "province STP" in message and "NWG" in message


def test_bad_toml(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "map.toml", lambda t: t.replace("[provinces.KIE]", "[provinces.KIE"))
    assert "map.toml" in message and "not valid TOML" in message


def test_bad_terrain(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy, "map.toml", lambda t: t.replace('terrain = "sea"', 'terrain = "ocean"', 1)
    )
    assert "province ADR" in message and "'ocean'" in message


def test_unknown_province_key(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "map.toml", lambda t: t.replace("sc = true", "centre = true", 1))
    assert "province ANK" in message and "unknown key(s) ['centre']" in message


def test_home_of_unknown_power(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy, "map.toml", lambda t: t.replace('home = "TURKEY"', 'home = "OTTOMANS"', 1)
    )
    assert "province ANK" in message and "'OTTOMANS' is not a power" in message


def test_start_unit_on_water_for_an_army(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "start.toml", lambda t: t.replace('"A LVP"', '"A IRI"'))
    assert "start.toml" in message and "'A IRI' of ENGLAND cannot stand" in message


def test_start_fleet_needs_its_coast(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "start.toml", lambda t: t.replace('"F STP/SC"', '"F STP"'))
    assert "'F STP' of RUSSIA cannot stand" in message


def test_owner_of_a_non_centre(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy, "start.toml", lambda t: t.replace('["BUD", "TRI", "VIE"]', '["BUD", "TYR"]')
    )
    assert "AUSTRIA owns TYR, which is not a supply centre" in message


def test_missing_file(variant_copy: Callable[..., Path]) -> None:
    folder = variant_copy()
    (folder / "start.toml").unlink()
    with pytest.raises(VariantError, match=r"start\.toml: file is missing"):
        load_variant("standard", folder.parent)


def test_bad_start_phase(variant_copy: Callable[..., Path]) -> None:
    message = _broken(variant_copy, "variant.toml", lambda t: t.replace("S1901M", "W1901M"))
    assert "variant.toml" in message and "start_phase" in message


def test_unknown_variant(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="no such variant folder"):
        load_variant("nowhere", tmp_path)


def test_a_slug_too_long_for_the_file_system_is_an_unknown_variant(tmp_path: Path) -> None:
    """A request's "variant" is any string: one longer than a file name may be is no variant (no OSError)."""
    for root in (tmp_path, None):  # a copy, and the repository's variants (through the disk cache)
        with pytest.raises(VariantError, match="no such variant folder"):
            load_variant("x" * 5000, root)


def test_base_chain_loop(tmp_path: Path) -> None:
    for slug, base in (("one", "two"), ("two", "one")):
        (tmp_path / slug).mkdir()
        (tmp_path / slug / "variant.toml").write_text(f'base = "{base}"\nname = "{slug}"\n')
    with pytest.raises(VariantError, match="chain loops"):
        load_variant("one", tmp_path)


def test_duplicate_alias(variant_copy: Callable[..., Path]) -> None:
    message = _broken(
        variant_copy, "map.toml", lambda t: t.replace('aliases = ["Adriatic", "ADS"]', 'aliases = ["ION"]')
    )
    assert "name 'ION'" in message
