"""The engine's public face: what other packages import, ``from dipserver.engine import X``.

The server, the API, the pages and the renderer use only the names of ``__all__``; an import contract
(``[tool.importlinter]`` in pyproject.toml) forbids them ``dipserver.engine.<module>``. The engine's own
modules, its command line (``dipserver.adjudicator``) and the tests may still import its modules.

Nothing is imported until it is first asked for (PEP 562): ``_MODULES`` names the module of each name, so
importing the engine costs the command line's start-up nothing. The types are in ``__init__.pyi`` (a stub
costs nothing at run time; tests/foundation/test_engine_face.py keeps it and this table the same). No
face name is a module's name: importing that module would rebind the package attribute to the module.
"""

import importlib

# Module (under dipserver.engine) -> the names it gives the face; "face=own" where the face renames one.
_MODULES = {
    "adjudicate": "PhaseResult adjudicate_phase=adjudicate",
    "board": "Board board_for",
    "chronicle": "HOOK_WORDS event_text",
    "conversions": "check_conversion conversion_text parse_conversion winter_converters",
    "definition": "Power ProvinceInfo Variant",
    "icelords": "MapGenerationError",
    "mapstate": "MapState",
    "modules": "ModuleState Modules modules_for split_options",
    "modules.orders": "InPlay",
    "modules.phase": "Opened",
    "modules.supply": "SupplyReport",
    "options": "OPTION_KINDS Option PowerOptions legal_options phase_options",
    "orders": "Build ConversionOrder ConvertToArmy ConvertToFleet Convoy Disband Hold Move Order OrderError"
    " OrderResult Outcome Retreat StayFleet SupportHold SupportMove Waive",
    "parse": "ParsedLine format_order parse_order parse_orders",
    "position": "Dislodged Position",
    "randomness": "commitment draw new_secret verify",
    "records": "PLAIN_RECORD_FIELDS=PLAIN_FIELDS RECORD_FIELDS=FIELDS RECORD_KINDS=KINDS"
    " Drawing record_drawing=drawing order_record result_record unread_record",
    "sources": "VariantSource generated_sources variant_slugs variant_source",
    "timeline": "TERRAIN_OF Change Hook Scheduled Timeline TimelineError apply_hook hooks_between"
    " load_timeline schedule walk",
    "turn": "ReadLine Turn open_modules play_phase read_orders",
    "types": "Phase PhaseType Season Terrain Unit UnitType coast_of province_of",
    "variant": "VARIANTS_DIR VariantError load_variant load_variant_from_sources variant_sources",
    "victory": "GameOutcome=Outcome GameResult=Result VictoryError game_outcome judge powers_in_play",
}


def _table() -> dict[str, tuple[str, str]]:
    """Face name -> (module, its name there); built when first asked for, so importing costs nothing."""
    global _FACE
    if _FACE is None:
        _FACE = {
            face: (f"{__name__}.{module}", own or face)
            for module, names in _MODULES.items()
            for face, _, own in (name.partition("=") for name in names.split())
        }
    return _FACE


_FACE: dict[str, tuple[str, str]] | None = None


def __getattr__(name: str) -> object:
    if name == "__all__":
        value: object = sorted(_table())
    else:
        try:
            module, own = _table()[name]
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module), own)
    globals()[name] = value  # asked once: later look-ups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_table()})
