"""The engine's public face: what other packages import, ``from dipserver.engine import X``.

The server, the API, the pages and the renderer use only the names below; an import contract
(``[tool.importlinter]`` in pyproject.toml) forbids them ``dipserver.engine.<module>``. The engine's own
modules, its command line (``dipserver.adjudicator``) and the tests may still import its modules.

Every process that imports one engine module runs this file first, and the command line imports only the
few modules a request needs: a one-request run starts in well under 60 ms of CPU, where loading every
module named here (the generated boards' graph library, the timelines, the options) costs several times
that. So importing the package imports none of them. The imports below are the face as readers, IDEs and
mypy see it; at run time ``__getattr__``, the one lazy place, runs the import that names an attribute the
first time it is asked for. A face name is never a module's name: importing that module would rebind the
package attribute to the module (hence ``adjudicate_phase``). ``__all__`` lists the names, for mypy (a
renamed import is exported only through it), ``import *`` and ``dir``; tests/foundation/test_engine_face.py
holds it and the imports to each other and to the modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dipserver.engine.adjudicate import PhaseResult as PhaseResult
    from dipserver.engine.adjudicate import adjudicate as adjudicate_phase
    from dipserver.engine.board import Board as Board
    from dipserver.engine.board import board_for as board_for
    from dipserver.engine.checks import CheckReport as CheckReport
    from dipserver.engine.checks import Finding as Finding
    from dipserver.engine.checks import check_variant as check_variant
    from dipserver.engine.chronicle import conditions_data as conditions_data
    from dipserver.engine.conversions import check_conversion as check_conversion
    from dipserver.engine.conversions import conversion_text as conversion_text
    from dipserver.engine.conversions import parse_conversion as parse_conversion
    from dipserver.engine.conversions import winter_converters as winter_converters
    from dipserver.engine.definition import Power as Power
    from dipserver.engine.definition import ProvinceInfo as ProvinceInfo
    from dipserver.engine.definition import Variant as Variant
    from dipserver.engine.dislodged import Dislodged as Dislodged
    from dipserver.engine.ending import Outcome as GameOutcome
    from dipserver.engine.ending import Result as GameResult
    from dipserver.engine.hooks import HOOK_WORDS as HOOK_WORDS
    from dipserver.engine.hooks import Hook as Hook
    from dipserver.engine.hooks import event_text as event_text
    from dipserver.engine.hooks import hooks_between as hooks_between
    from dipserver.engine.icelords import MapGenerationError as MapGenerationError
    from dipserver.engine.kinds.catalogue import OPTION_KINDS as OPTION_KINDS
    from dipserver.engine.kinds.catalogue import RECORD_KINDS as RECORD_KINDS
    from dipserver.engine.kinds.conversion import ConversionOrder as ConversionOrder
    from dipserver.engine.kinds.conversion import ConvertToArmy as ConvertToArmy
    from dipserver.engine.kinds.conversion import ConvertToFleet as ConvertToFleet
    from dipserver.engine.kinds.conversion import StayFleet as StayFleet
    from dipserver.engine.lateorders import Build as Build
    from dipserver.engine.lateorders import Disband as Disband
    from dipserver.engine.lateorders import Retreat as Retreat
    from dipserver.engine.lateorders import Waive as Waive
    from dipserver.engine.mapstate import MapState as MapState
    from dipserver.engine.modules import Modules as Modules
    from dipserver.engine.modules import modules_for as modules_for
    from dipserver.engine.modules import split_options as split_options
    from dipserver.engine.modules.phase import InPlay as InPlay
    from dipserver.engine.modules.phase import ModuleState as ModuleState
    from dipserver.engine.modules.phase import Opened as Opened
    from dipserver.engine.modules.supply import SupplyReport as SupplyReport
    from dipserver.engine.options import Option as Option
    from dipserver.engine.options import PowerOptions as PowerOptions
    from dipserver.engine.options import legal_options as legal_options
    from dipserver.engine.options import phase_options as phase_options
    from dipserver.engine.orders import Convoy as Convoy
    from dipserver.engine.orders import Hold as Hold
    from dipserver.engine.orders import Move as Move
    from dipserver.engine.orders import Order as Order
    from dipserver.engine.orders import OrderError as OrderError
    from dipserver.engine.orders import OrderResult as OrderResult
    from dipserver.engine.orders import Outcome as Outcome
    from dipserver.engine.orders import SupportHold as SupportHold
    from dipserver.engine.orders import SupportMove as SupportMove
    from dipserver.engine.parse import ParsedLine as ParsedLine
    from dipserver.engine.parse import format_order as format_order
    from dipserver.engine.parse import parse_order as parse_order
    from dipserver.engine.parse import parse_orders as parse_orders
    from dipserver.engine.position import Position as Position
    from dipserver.engine.randomness import commitment as commitment
    from dipserver.engine.randomness import draw as draw
    from dipserver.engine.randomness import new_secret as new_secret
    from dipserver.engine.randomness import verify as verify
    from dipserver.engine.records import FIELDS as RECORD_FIELDS
    from dipserver.engine.records import PLAIN_FIELDS as PLAIN_RECORD_FIELDS
    from dipserver.engine.records import Drawing as Drawing
    from dipserver.engine.records import drawing as record_drawing
    from dipserver.engine.records import order_drawing as order_drawing
    from dipserver.engine.records import order_record as order_record
    from dipserver.engine.records import result_record as result_record
    from dipserver.engine.records import unread_record as unread_record
    from dipserver.engine.scenarios import SCENARIOS_FILE as SCENARIOS_FILE
    from dipserver.engine.scenarios import Scenario as Scenario
    from dipserver.engine.scenarios import ScenarioError as ScenarioError
    from dipserver.engine.scenarios import ScenarioResult as ScenarioResult
    from dipserver.engine.scenarios import load_scenarios as load_scenarios
    from dipserver.engine.scenarios import read_scenarios as read_scenarios
    from dipserver.engine.scenarios import run_scenarios as run_scenarios
    from dipserver.engine.sources import VariantSource as VariantSource
    from dipserver.engine.sources import generated_sources as generated_sources
    from dipserver.engine.sources import variant_slugs as variant_slugs
    from dipserver.engine.sources import variant_source as variant_source
    from dipserver.engine.timeline import apply_hook as apply_hook
    from dipserver.engine.timeline import schedule as schedule
    from dipserver.engine.timeline import walk as walk
    from dipserver.engine.timelinecache import load_timeline as load_timeline
    from dipserver.engine.timelinedata import Timeline as Timeline
    from dipserver.engine.timelinedata import TimelineError as TimelineError
    from dipserver.engine.timelinerows import TERRAIN_OF as TERRAIN_OF
    from dipserver.engine.timelinerows import Change as Change
    from dipserver.engine.timelinerows import Scheduled as Scheduled
    from dipserver.engine.turn import ReadLine as ReadLine
    from dipserver.engine.turn import Turn as Turn
    from dipserver.engine.turn import open_modules as open_modules
    from dipserver.engine.turn import play_phase as play_phase
    from dipserver.engine.turn import read_orders as read_orders
    from dipserver.engine.types import Phase as Phase
    from dipserver.engine.types import PhaseType as PhaseType
    from dipserver.engine.types import Season as Season
    from dipserver.engine.types import Terrain as Terrain
    from dipserver.engine.types import Unit as Unit
    from dipserver.engine.types import UnitType as UnitType
    from dipserver.engine.types import coast_of as coast_of
    from dipserver.engine.types import province_of as province_of
    from dipserver.engine.variant import VARIANTS_DIR as VARIANTS_DIR
    from dipserver.engine.variant import VariantError as VariantError
    from dipserver.engine.variant import load_variant as load_variant
    from dipserver.engine.variant import load_variant_from_sources as load_variant_from_sources
    from dipserver.engine.variant import variant_sources as variant_sources
    from dipserver.engine.victory import VictoryError as VictoryError
    from dipserver.engine.victory import game_outcome as game_outcome
    from dipserver.engine.victory import judge as judge
    from dipserver.engine.victory import powers_in_play as powers_in_play

__all__ = [
    "HOOK_WORDS",
    "OPTION_KINDS",
    "PLAIN_RECORD_FIELDS",
    "RECORD_FIELDS",
    "RECORD_KINDS",
    "SCENARIOS_FILE",
    "TERRAIN_OF",
    "VARIANTS_DIR",
    "Board",
    "Build",
    "Change",
    "CheckReport",
    "ConversionOrder",
    "ConvertToArmy",
    "ConvertToFleet",
    "Convoy",
    "Disband",
    "Dislodged",
    "Drawing",
    "Finding",
    "GameOutcome",
    "GameResult",
    "Hold",
    "Hook",
    "InPlay",
    "MapGenerationError",
    "MapState",
    "ModuleState",
    "Modules",
    "Move",
    "Opened",
    "Option",
    "Order",
    "OrderError",
    "OrderResult",
    "Outcome",
    "ParsedLine",
    "Phase",
    "PhaseResult",
    "PhaseType",
    "Position",
    "Power",
    "PowerOptions",
    "ProvinceInfo",
    "ReadLine",
    "Retreat",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "Scheduled",
    "Season",
    "StayFleet",
    "SupplyReport",
    "SupportHold",
    "SupportMove",
    "Terrain",
    "Timeline",
    "TimelineError",
    "Turn",
    "Unit",
    "UnitType",
    "Variant",
    "VariantError",
    "VariantSource",
    "VictoryError",
    "Waive",
    "adjudicate_phase",
    "apply_hook",
    "board_for",
    "check_conversion",
    "check_variant",
    "coast_of",
    "commitment",
    "conditions_data",
    "conversion_text",
    "draw",
    "event_text",
    "format_order",
    "game_outcome",
    "generated_sources",
    "hooks_between",
    "judge",
    "legal_options",
    "load_scenarios",
    "load_timeline",
    "load_variant",
    "load_variant_from_sources",
    "modules_for",
    "new_secret",
    "open_modules",
    "order_drawing",
    "order_record",
    "parse_conversion",
    "parse_order",
    "parse_orders",
    "phase_options",
    "play_phase",
    "powers_in_play",
    "province_of",
    "read_orders",
    "read_scenarios",
    "record_drawing",
    "result_record",
    "run_scenarios",
    "schedule",
    "split_options",
    "unread_record",
    "variant_slugs",
    "variant_source",
    "variant_sources",
    "verify",
    "walk",
    "winter_converters",
]


def __getattr__(name: str) -> object:
    """The face name ``name``: its module imported and the object read, once (then a plain attribute).

    Any other name is refused before this file is parsed: ``from dipserver.engine import timeline``
    asks here first, and an engine module's import must not pay for reading the face."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, own = _imports()[name]
    import importlib

    value = getattr(importlib.import_module(module), own)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _imports() -> dict[str, tuple[str, str]]:
    """Face name -> (module, its name there), read from the import statements above (this file's source,
    parsed once: there is no second list to keep in step)."""
    global _IMPORTS
    if _IMPORTS is None:
        import ast

        with open(__file__, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        [block] = [node for node in tree.body if isinstance(node, ast.If)]
        _IMPORTS = {
            alias.asname or alias.name: (str(node.module), alias.name)
            for node in block.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
    return _IMPORTS


_IMPORTS: dict[str, tuple[str, str]] | None = None
