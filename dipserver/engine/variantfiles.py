"""A variant's files (``variants/<slug>/*.toml``, format in ``variants/README.md``): read, merged along the
base chain and checked as a whole into a ``Variant`` record.

Anything wrong in them raises ``VariantError`` with a message naming the file, the province and the
problem, so a variant author can fix it without reading this code. ``variant.py`` loads a variant through
``_Loader`` (imported only when a variant is built, not read from the disk cache) and keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, overload

from dipserver.engine.board import board_for
from dipserver.engine.definition import Power, ProvinceInfo, Variant, VariantError, normalise_name, toml_files
from dipserver.engine.mapstate import FrozenMap, MapState
from dipserver.engine.position import Position
from dipserver.engine.types import Phase, PhaseType, Terrain, Unit, UnitType, coast_of, province_of

# hashlib and tomllib are imported where a variant is built: a variant read from the disk cache needs
# neither of them.

COAST_CODES = frozenset({"NC", "SC", "EC", "WC"})
BUILD_RULES = frozenset({"home", "owned", "beside"})
# What an impassable former sea is to the fleets beside it (E21): "shore" (icebergs: ships are blocked but
# the coastline stays, fleets pass along it) or "closed" (desert: the coast is gone).
IMPASSABLE_SEAS = frozenset({"shore", "closed"})
# How a place that became impassable is drawn: all as "ice", all as "desert", or by what it was ("medium":
# a sea as ice, land as desert). Places impassable from the start are drawn plain "closed" whatever this says.
CLOSED_LOOKS = frozenset({"medium", "ice", "desert"})

_PROVINCE_KEYS = frozenset({"name", "aliases", "terrain", "sc", "home", "borders", "add_borders", "coasts"})
# Patterns, not compiled ones: only a variant being built uses them (``re`` compiles them on first use).
_CODE_PATTERN = r"^[A-Z][A-Z0-9]{1,3}$"
_COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"


# --- reading ----------------------------------------------------------------------------------------


@overload
def _read_toml(path: Path, required: Literal[True] = True) -> dict[str, Any]: ...


@overload
def _read_toml(path: Path, required: bool) -> dict[str, Any] | None: ...


def _read_toml(path: Path, required: bool = True) -> dict[str, Any] | None:
    import tomllib

    if not path.is_file():
        if required:
            raise VariantError(f"{path}: file is missing")
        return None
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML: {exc}") from exc


def _want(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise VariantError(f"{where}: missing key '{key}'")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise VariantError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


def _str_list(value: Any, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise VariantError(f"{where}: '{key}' must be a list of strings")
    return value


class _Loader:
    """Merges a variant with its base chain, then validates the result as a whole."""

    def __init__(self, root: Path) -> None:
        import hashlib

        self.root = root
        self.hash = hashlib.sha256()
        self.sources: list[tuple[str, bytes]] = []  # every file hashed, in order: the disk cache's key

    def build(self, slug: str) -> Variant:
        meta, provinces, exceptions, start, start_file, chain = self._merged(slug, seen=())
        map_file = str(self.root / slug / "map.toml")
        powers = self._powers(meta["powers"], meta["_file"])
        self._check_provinces(provinces, powers)
        borders = {code: frozenset(p["borders"]) for code, p in provinces.items()}
        coast_waters = {code: p["coasts"] for code, p in provinces.items() if p["coasts"]}
        map_state = MapState(
            terrain={code: Terrain(p["terrain"]) for code, p in provinces.items()},
            coasts=coast_waters,
            supply_centres=frozenset(code for code, p in provinces.items() if p["sc"]),
            homes={code: p["home"] for code, p in provinces.items() if p["home"]},
        )
        fleet_exceptions = self._fleet_exceptions(exceptions, provinces, map_file)
        start_phase = self._phase(meta)
        variant = Variant(
            slug=slug,
            name=meta["name"],
            description=meta.get("description", ""),
            version=self.hash.hexdigest(),
            base=chain[1] if len(chain) > 1 else None,
            powers=FrozenMap(powers),
            provinces=FrozenMap(
                {c: ProvinceInfo(c, p["name"], tuple(p["aliases"])) for c, p in provinces.items()}
            ),
            borders=FrozenMap(borders),
            coast_waters=map_state.coasts,
            fleet_exceptions=fleet_exceptions,
            map_state=map_state,
            start=Position(phase=start_phase, units={}, owners={}),
            victory_centres=meta["victory_centres"],
            build_rule=meta["build_rule"],
            names=FrozenMap(self._names(provinces, map_file)),
            impassable_seas=meta["impassable_seas"],
            closed_look=meta["closed_look"],
        )
        position = self._start_position(start, start_file, variant, start_phase)
        object.__setattr__(variant, "start", position)
        return variant

    # -- merging the base chain ----------------------------------------------------------------------

    def _merged(self, slug: str, seen: tuple[str, ...]) -> tuple[Any, ...]:
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", slug):
            raise VariantError(f"variant {slug!r}: a slug is lower-case letters, digits, '-' and '_'")
        if slug in seen:
            raise VariantError(f"variant {slug!r}: 'base' chain loops ({' -> '.join((*seen, slug))})")
        folder = self.root / slug
        try:
            found = folder.is_dir()
        except OSError:  # a name the file system refuses outright (longer than it allows): no such folder
            found = False
        if not found:
            raise VariantError(f"{folder}: no such variant folder")
        meta_path, map_path, start_path = folder / "variant.toml", folder / "map.toml", folder / "start.toml"
        meta = _read_toml(meta_path)
        base = meta.get("base")
        if base is not None and not isinstance(base, str):
            raise VariantError(f"{meta_path}: 'base' must be a variant slug")
        if base is None:
            parent_meta: dict[str, Any] = {}
            provinces: dict[str, dict[str, Any]] = {}
            exceptions: list[Any] = []
            start, start_file, chain = None, str(start_path), (slug,)
        else:
            parent_meta, provinces, exceptions, start, start_file, parent_chain = self._merged(
                base, (*seen, slug)
            )
            chain = (slug, *parent_chain)
        map_data = _read_toml(map_path, required=base is None)
        start_data = _read_toml(start_path, required=base is None)
        # Every TOML file counts towards the version (timeline.toml too): they all decide how games play.
        for name, data in toml_files(folder):
            self.hash.update(f"{slug}/{name}\n".encode())
            self.hash.update(data)
            self.sources.append((f"{slug}/{name}", data))
        merged_meta = self._meta(meta, parent_meta, str(meta_path))
        if map_data is not None:
            self._merge_map(map_data, provinces, exceptions, str(map_path))
        if start_data is not None:
            start, start_file = start_data, str(start_path)
        return merged_meta, provinces, exceptions, start, start_file, chain

    @staticmethod
    def _meta(meta: dict[str, Any], parent: dict[str, Any], where: str) -> dict[str, Any]:
        """variant.toml over its base's: name and description are always the variant's own."""
        merged = {"build_rule": "home", "impassable_seas": "shore", "closed_look": "medium", **parent}
        merged["name"] = _want(meta, "name", str, where)
        merged["description"] = meta.get("description", "")
        if "start_phase" in meta:
            merged["start_phase"], merged["_start_phase_file"] = meta["start_phase"], where
        if "powers" in meta:
            merged["powers"], merged["_file"] = meta["powers"], where
        if "victory" in meta:
            victory = _want(meta, "victory", dict, where)
            merged["victory_centres"] = _want(victory, "centres", int, f"{where} [victory]")
        if "rules" in meta:
            rules = _want(meta, "rules", dict, where)
            if "builds" in rules:
                if rules["builds"] not in BUILD_RULES:
                    raise VariantError(f"{where} [rules]: 'builds' must be one of {sorted(BUILD_RULES)}")
                merged["build_rule"] = rules["builds"]
            if "impassable_seas" in rules:
                if rules["impassable_seas"] not in IMPASSABLE_SEAS:
                    raise VariantError(
                        f"{where} [rules]: 'impassable_seas' must be one of {sorted(IMPASSABLE_SEAS)}"
                    )
                merged["impassable_seas"] = rules["impassable_seas"]
        if "drawing" in meta:
            drawing = _want(meta, "drawing", dict, where)
            if drawing.get("closed", "medium") not in CLOSED_LOOKS:
                raise VariantError(f"{where} [drawing]: 'closed' must be one of {sorted(CLOSED_LOOKS)}")
            merged["closed_look"] = drawing.get("closed", merged["closed_look"])
        for key, label in (
            ("start_phase", "start_phase"),
            ("powers", "[powers]"),
            ("victory_centres", "[victory]"),
        ):
            if key not in merged:
                raise VariantError(f"{where}: missing {label}")
        return merged

    def _merge_map(
        self, data: dict[str, Any], provinces: dict[str, dict[str, Any]], exceptions: list[Any], where: str
    ) -> None:
        unknown = set(data) - {"provinces", "fleet_exceptions"}
        if unknown:
            raise VariantError(f"{where}: unknown top-level key(s) {sorted(unknown)}")
        table = _want(data, "provinces", dict, where) if not provinces else data.get("provinces", {})
        for code, spec in table.items():
            at = f"{where}: province {code}"
            if not re.match(_CODE_PATTERN, code):
                raise VariantError(f"{at}: a province code is 2-4 upper-case letters or digits")
            if not isinstance(spec, dict):
                raise VariantError(f"{at}: must be a table")
            bad = set(spec) - _PROVINCE_KEYS
            if bad:
                raise VariantError(f"{at}: unknown key(s) {sorted(bad)}")
            if code in provinces:
                self._override(provinces[code], spec, at)
            else:
                provinces[code] = self._new_province(spec, at)
        if "fleet_exceptions" in data:
            pairs = data["fleet_exceptions"]
            if not isinstance(pairs, list):
                raise VariantError(f"{where}: 'fleet_exceptions' must be a list of location pairs")
            exceptions.extend(pairs)

    def _new_province(self, spec: dict[str, Any], at: str) -> dict[str, Any]:
        if "add_borders" in spec:
            raise VariantError(f"{at}: 'add_borders' only extends a province of the base variant")
        province = {
            "name": _want(spec, "name", str, at),
            "aliases": _str_list(spec.get("aliases", []), at, "aliases"),
            "terrain": _want(spec, "terrain", str, at),
            "sc": spec.get("sc", False),
            "home": spec.get("home"),
            "borders": _str_list(_want(spec, "borders", list, at), at, "borders"),
            "coasts": self._coasts(spec.get("coasts", {}), at),
            "_at": at,
        }
        self._check_fields(province, at)
        return province

    def _override(self, province: dict[str, Any], spec: dict[str, Any], at: str) -> None:
        for key in ("name", "terrain", "sc", "home"):
            if key in spec:
                province[key] = spec[key]
        if "aliases" in spec:
            province["aliases"] = _str_list(spec["aliases"], at, "aliases")
        if "borders" in spec:
            province["borders"] = _str_list(spec["borders"], at, "borders")
        if "add_borders" in spec:
            province["borders"] = [*province["borders"], *_str_list(spec["add_borders"], at, "add_borders")]
        if "coasts" in spec:
            province["coasts"] = self._coasts(spec["coasts"], at)
        province["_at"] = at
        self._check_fields(province, at)

    @staticmethod
    def _coasts(spec: Any, at: str) -> dict[str, frozenset[str]]:
        if not isinstance(spec, dict):
            raise VariantError(f"{at}: 'coasts' must be a table of coast = [water provinces]")
        coasts = {}
        for coast, waters in spec.items():
            if coast not in COAST_CODES:
                raise VariantError(f"{at}: coast {coast!r} is not one of {sorted(COAST_CODES)}")
            coasts[coast] = frozenset(_str_list(waters, at, f"coasts.{coast}"))
        if len(coasts) == 1:
            raise VariantError(f"{at}: a province with named coasts needs at least two of them")
        return coasts

    @staticmethod
    def _check_fields(province: dict[str, Any], at: str) -> None:
        if province["terrain"] not in {t.value for t in Terrain}:
            raise VariantError(
                f"{at}: terrain {province['terrain']!r} is not one of land, sea, impassable, absent"
            )
        if not isinstance(province["sc"], bool):
            raise VariantError(f"{at}: 'sc' must be true or false")
        if province["home"] is not None and not isinstance(province["home"], str):
            raise VariantError(f"{at}: 'home' must be a power name")

    # -- whole-map validation ------------------------------------------------------------------------

    @staticmethod
    def _powers(spec: Any, where: str) -> dict[str, Power]:
        if not isinstance(spec, dict) or not spec:
            raise VariantError(f"{where}: [powers] must list at least one power")
        powers = {}
        for name, info in spec.items():
            at = f"{where}: power {name}"
            if name != name.upper() or not name.isidentifier():
                raise VariantError(f"{at}: power names are upper-case words such as ENGLAND")
            if not isinstance(info, dict):
                raise VariantError(f"{at}: must be a table")
            colour = _want(info, "colour", str, at)
            if not re.match(_COLOUR_PATTERN, colour):
                raise VariantError(f"{at}: colour {colour!r} is not of the form #rrggbb")
            powers[name] = Power(_want(info, "name", str, at), _want(info, "adjective", str, at), colour)
        return powers

    @staticmethod
    def _check_provinces(provinces: dict[str, dict[str, Any]], powers: Mapping[str, Power]) -> None:
        for code, p in provinces.items():  # unknown names first: they explain any asymmetry they cause
            for other in p["borders"]:
                if other not in provinces:
                    raise VariantError(f"{p['_at']}: border {other!r} is not a province")
                if other == code:
                    raise VariantError(f"{p['_at']}: a province cannot border itself")
        for code, p in provinces.items():
            at = p["_at"]
            for other in p["borders"]:
                if code not in provinces[other]["borders"]:
                    raise VariantError(
                        f"{at}: borders {other} but {other} does not list {code} "
                        f"(borders must be listed on both sides)"
                    )
            if p["home"] is not None:
                if p["home"] not in powers:
                    raise VariantError(f"{at}: home power {p['home']!r} is not a power of this variant")
                if not p["sc"]:
                    raise VariantError(f"{at}: a home centre must have sc = true")
            if p["coasts"] and p["terrain"] == Terrain.SEA:
                raise VariantError(f"{at}: a sea cannot have named coasts")
            for coast, waters in p["coasts"].items():
                for water in sorted(waters):
                    if water not in p["borders"]:
                        raise VariantError(
                            f"{at}: coast {coast} touches {water}, which {code} does not border"
                        )
                if not any(provinces[w]["terrain"] == Terrain.SEA for w in waters):
                    raise VariantError(f"{at}: coast {coast} touches no water (list its sea provinces)")

    @staticmethod
    def _fleet_exceptions(
        pairs: list[Any], provinces: dict[str, dict[str, Any]], where: str
    ) -> frozenset[frozenset[str]]:
        result = set()
        for pair in pairs:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise VariantError(f'{where}: fleet_exceptions entries are pairs like ["GAS", "SPA/SC"]')
            for loc in pair:
                prov, coast = province_of(loc), coast_of(loc)
                if prov not in provinces:
                    raise VariantError(f"{where}: fleet_exceptions: {prov!r} is not a province")
                if coast is not None and coast not in provinces[prov]["coasts"]:
                    raise VariantError(f"{where}: fleet_exceptions: {prov} has no coast {coast}")
            result.add(frozenset(pair))
        return frozenset(result)

    @staticmethod
    def _names(provinces: dict[str, dict[str, Any]], where: str) -> dict[str, str]:
        names: dict[str, str] = {}
        for code, p in sorted(provinces.items()):
            for name in (code, p["name"], *p["aliases"]):
                key = normalise_name(name)
                if names.get(key, code) != code:
                    raise VariantError(
                        f"{where}: province {code}: name {name!r} is already used by {names[key]}"
                    )
                names[key] = code
        return names

    @staticmethod
    def _phase(meta: dict[str, Any]) -> Phase:
        where = meta["_start_phase_file"]
        try:
            phase = Phase.parse(_want(meta, "start_phase", str, where))
        except ValueError as exc:
            raise VariantError(f"{where}: start_phase: {exc}") from exc
        if phase.type is not PhaseType.MOVEMENT:
            raise VariantError(f"{where}: start_phase must be a movement phase such as S1901M")
        return phase

    @staticmethod
    def _start_position(start: Any, where: str, variant: Variant, phase: Phase) -> Position:
        board = board_for(variant, variant.map_state)
        units: dict[str, Unit] = {}
        for power, specs in _want(start, "units", dict, where).items():
            if power not in variant.powers:
                raise VariantError(f"{where}: [units] {power!r} is not a power of this variant")
            for spec in _str_list(specs, where, f"units.{power}"):
                m = re.fullmatch(r"([AF])\s+([A-Z0-9]+(?:/[A-Z]{2})?)", spec.strip())
                if not m:
                    raise VariantError(f"{where}: unit {spec!r} of {power} is not like 'A PAR' or 'F STP/SC'")
                unit = Unit(power, UnitType(m.group(1)), m.group(2))
                if unit.province not in variant.provinces:
                    raise VariantError(
                        f"{where}: unit {spec!r} of {power}: {unit.province} is not a province"
                    )
                if not board.can_occupy(unit.type, unit.location):
                    raise VariantError(f"{where}: unit {spec!r} of {power} cannot stand on that location")
                if unit.province in units:
                    raise VariantError(f"{where}: two units start in {unit.province}")
                units[unit.province] = unit
        owners: dict[str, str] = {}
        spec_owners = start.get("owners")
        if spec_owners is None:
            owners = dict(variant.map_state.homes)
        else:
            for power, centres in spec_owners.items():
                if power not in variant.powers:
                    raise VariantError(f"{where}: [owners] {power!r} is not a power of this variant")
                for centre in _str_list(centres, where, f"owners.{power}"):
                    if centre not in variant.map_state.supply_centres:
                        raise VariantError(
                            f"{where}: [owners] {power} owns {centre}, which is not a supply centre"
                        )
                    if centre in owners:
                        raise VariantError(f"{where}: [owners] {centre} is owned twice")
                    owners[centre] = power
        return Position(phase=phase, units=FrozenMap(units), owners=FrozenMap(owners))
