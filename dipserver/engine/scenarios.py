"""A variant's own tests: scenario cases, each a position, the orders of one phase and what must follow (the
units, the map, the end of the game), played by the engine's one pipeline (``turn.play_phase``).

They live beside the variant in ``variants/<slug>/tests/scenarios.toml`` (a folder of their own: they are
not among the ``*.toml`` files a game's version hashes, since they decide nothing about how a game plays),
the studio keeps them as a draft's ``tests`` table and its package holds the same file. Format
(``variants/README.md``, "Tests")::

    [[scenarios]]
    name = "A fleet stranded by the drying sea becomes an army"
    phase = "F1905M"                     # the phase played (default: the variant's start phase)
    until = "W1905A"                     # optional: play on, without orders, until this phase comes
    options = { errata = false }         # optional: the game's options (``mode`` is "exact" unless given)
    units = { RUSSIA = ["F BOT"] }       # the position: every unit of the board
    owners = { RUSSIA = ["STP"] }        # optional: centre owners (default: the start's, on today's centres)
    orders = { RUSSIA = ["F BOT H"] }    # the phase's orders, as a player types them

    [scenarios.expect]                   # every key optional; each one given is checked
    phase = "W1905A"                     # the phase that comes next
    units = { RUSSIA = ["A BOT"] }       # the units of each power listed ([] = none left)
    dislodged = ["A MUN"]                # the units dislodged, waiting to retreat
    owners = { RUSSIA = ["STP"] }        # the centres of each power listed
    terrain = { BOT = "land" }           # provinces' terrain afterwards
    centres = { BOT = false }            # whether each province is a supply centre afterwards
    winner = "RUSSIA"                    # the game is won by this power ("" : nobody has won)
    draw = ["RUSSIA", "TURKEY"]          # the game ends in a draw shared by these powers

The map of the phase is the one the timeline has made by then with units standing still (as ``check``
walks it). Plain data in, plain data out: no Django.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dipserver.engine.board import MapState, board_for
from dipserver.engine.definition import Variant
from dipserver.engine.ending import Result
from dipserver.engine.mapstate import FrozenMap
from dipserver.engine.position import Position
from dipserver.engine.timeline import apply_hook, hooks_between
from dipserver.engine.turn import Turn, play_phase
from dipserver.engine.types import Phase, Unit, UnitType

SCENARIOS_FILE = "tests/scenarios.toml"  # inside the variant's folder
EXPECT_KEYS = frozenset({"phase", "units", "dislodged", "owners", "terrain", "centres", "winner", "draw"})
CASE_KEYS = frozenset({"name", "phase", "until", "options", "units", "owners", "orders", "expect"})
MAX_SCENARIOS = 100
MAX_PHASES = 20  # a case plays on through at most this many phases ("until")
_UNIT = re.compile(r"([AF])\s+([A-Z0-9]+(?:/[A-Z]{2})?)")


class ScenarioError(ValueError):
    """A scenario file in a shape the runner cannot read; the message names the case."""


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    phase: str | None
    units: Mapping[str, tuple[str, ...]]
    orders: Mapping[str, tuple[str, ...]]
    expect: Mapping[str, Any]
    owners: Mapping[str, tuple[str, ...]] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    until: str | None = None


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """One case run: ``passed``, else each way it failed, in words."""

    name: str
    passed: bool
    failures: tuple[str, ...] = ()

    def as_data(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "failures": list(self.failures)}


# --- reading ------------------------------------------------------------------------------------------


def read_scenarios(data: Mapping[str, Any], where: str = SCENARIOS_FILE) -> tuple[Scenario, ...]:
    """The cases of a scenario file's table (``{"scenarios": [...]}``); ``ScenarioError`` names the first
    thing in a shape it cannot read."""
    unknown = sorted(set(data) - {"scenarios"})
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {unknown}: the file holds [[scenarios]]")
    cases = data.get("scenarios", [])
    if not isinstance(cases, list) or not all(isinstance(case, dict) for case in cases):
        raise ScenarioError(f"{where}: [[scenarios]] is a list of tables")
    if len(cases) > MAX_SCENARIOS:
        raise ScenarioError(f"{where}: at most {MAX_SCENARIOS} scenarios")
    return tuple(_case(case, f"{where}: scenario {number}") for number, case in enumerate(cases, start=1))


def load_scenarios(folder: Path) -> tuple[Scenario, ...]:
    """A variant folder's cases (none when it has no scenario file)."""
    path = folder / SCENARIOS_FILE
    if not path.is_file():
        return ()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    return read_scenarios(data, str(path))


def _case(case: dict[str, Any], where: str) -> Scenario:
    name = case.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{where}: every scenario has a name")
    where = f"{where} ({name})"
    unknown = sorted(set(case) - CASE_KEYS)
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {unknown}")
    expect = case.get("expect", {})
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        raise ScenarioError(f"{where}: expect is a table of {', '.join(sorted(EXPECT_KEYS))}")
    options = case.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError(f"{where}: options is a table of the game's options")
    for key in ("phase", "until"):
        if case.get(key) is not None and not isinstance(case[key], str):
            raise ScenarioError(f"{where}: {key} is a phase such as 'S1901M'")
    owners = case.get("owners")
    return Scenario(
        name=name.strip(),
        phase=case.get("phase"),
        units=_lists(case.get("units", {}), where, "units"),
        orders=_lists(case.get("orders", {}), where, "orders"),
        expect=expect,
        owners=None if owners is None else _lists(owners, where, "owners"),
        options=options,
        until=case.get("until"),
    )


def _lists(value: Any, where: str, key: str) -> dict[str, tuple[str, ...]]:
    """A table of power -> list of strings."""
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: {key} is a table of power = [texts]")
    out = {}
    for power, texts in value.items():
        if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
            raise ScenarioError(f"{where}: {key}.{power} is a list of texts")
        out[str(power)] = tuple(texts)
    return out


# --- running ------------------------------------------------------------------------------------------


def run_scenarios(variant: Variant, scenarios: Sequence[Scenario]) -> tuple[ScenarioResult, ...]:
    return tuple(run_scenario(variant, scenario) for scenario in scenarios)


def run_scenario(variant: Variant, scenario: Scenario) -> ScenarioResult:
    """Play one case and compare what follows with what it expects; a case that cannot be set up (a unit
    on a sea, an unknown power, options the variant lacks) fails with the reason."""
    try:
        options = {"mode": "exact", **scenario.options}
        phase = Phase.parse(scenario.phase) if scenario.phase else variant.start.phase
        until = Phase.parse(scenario.until) if scenario.until else None
        map_state = map_at(variant, options, phase)
        position = position_of(variant, map_state, scenario, phase)
        turn = play_phase(variant, map_state, position, dict(scenario.orders), options=options)
        for _ in range(MAX_PHASES):
            if until is None or turn.outcome or turn.next_phase.sort_key() >= until.sort_key():
                break
            turn = play_phase(
                variant, turn.map_state, turn.position, {}, options=options, stay_flags=turn.stay_flags
            )
    except ValueError as exc:  # ScenarioError, VariantError, TimelineError, a bad phase name
        return ScenarioResult(scenario.name, False, (f"cannot be played: {exc}",))
    failures = tuple(expectation_failures(variant, turn, scenario.expect))
    return ScenarioResult(scenario.name, not failures, failures)


def map_at(variant: Variant, options: Mapping[str, Any], phase: Phase) -> MapState:
    """The map of ``phase``: the timeline's changes before it, applied to the start with units standing
    still (as ``check`` walks it)."""
    start = variant.start
    if phase.sort_key() < start.phase.sort_key():
        raise ScenarioError(f"{phase} comes before the variant's start, {start.phase}")
    map_state, position = variant.map_state, start
    for year, hook in hooks_between(start.phase, phase):
        result = apply_hook(variant, options, map_state, position, hook, year)
        map_state, position = result.map_state, result.position
    return map_state


def position_of(variant: Variant, map_state: MapState, scenario: Scenario, phase: Phase) -> Position:
    """The case's units and owners on the map of ``phase``, checked as a start position is."""
    board = board_for(variant, map_state)
    units: dict[str, Unit] = {}
    for power, specs in scenario.units.items():
        _power_known(variant, power)
        for spec in specs:
            match = _UNIT.fullmatch(spec.strip().upper())
            if not match:
                raise ScenarioError(f"unit {spec!r} of {power} is not like 'A PAR' or 'F STP/SC'")
            unit = Unit(power, UnitType(match.group(1)), match.group(2))
            if unit.province not in variant.provinces:
                raise ScenarioError(f"unit {spec!r} of {power}: {unit.province} is not a province")
            if not board.can_occupy(unit.type, unit.location):
                raise ScenarioError(f"unit {spec!r} of {power} cannot stand there in {phase}")
            if unit.province in units:
                raise ScenarioError(f"two units stand in {unit.province}")
            units[unit.province] = unit
    centres = map_state.supply_centres
    if scenario.owners is None:
        owners = {c: p for c, p in variant.start.owners.items() if c in centres}
    else:
        owners = {}
        for power, owned in scenario.owners.items():
            _power_known(variant, power)
            for centre in owned:
                if centre not in centres:
                    raise ScenarioError(f"{power} owns {centre}, which is not a supply centre in {phase}")
                owners[centre] = power
    return Position(phase=phase, units=FrozenMap(units), owners=FrozenMap(owners))


def _power_known(variant: Variant, power: str) -> None:
    if power not in variant.powers:
        raise ScenarioError(f"{power!r} is not a power of this variant")


def expectation_failures(variant: Variant, turn: Turn, expect: Mapping[str, Any]) -> list[str]:
    """Each expectation the turn does not meet, in words."""
    after, map_state = turn.position, turn.map_state
    failures = []
    if "phase" in expect and str(expect["phase"]).upper() != str(after.phase):
        failures.append(f"the next phase is {after.phase}, not {expect['phase']}")
    for power, specs in _table(expect.get("units")).items():
        have = sorted(str(u) for u in after.units_of(power))
        want = sorted(" ".join(str(s).upper().split()) for s in specs)
        if have != want:
            failures.append(f"{power}'s units are {_listed(have)}, not {_listed(want)}")
    if "dislodged" in expect:
        have = sorted(str(d.unit) for d in after.dislodged.values())
        want = sorted(" ".join(str(s).upper().split()) for s in expect["dislodged"])
        if have != want:
            failures.append(f"the units dislodged are {_listed(have)}, not {_listed(want)}")
    for power, centres in _table(expect.get("owners")).items():
        have = after.centres_of(power)
        if have != sorted(centres):
            failures.append(f"{power} owns {_listed(have)}, not {_listed(sorted(centres))}")
    for code, terrain in _table(expect.get("terrain")).items():
        now = map_state.terrain.get(code)
        if now is None or now.value != terrain:
            failures.append(f"{code} is {now.value if now else 'not a province'}, not {terrain}")
    for code, wanted in _table(expect.get("centres")).items():
        if (code in map_state.supply_centres) != bool(wanted):
            failures.append(f"{code} {'is not' if wanted else 'is still'} a supply centre")
    failures += _outcome_failures(turn, expect)
    return failures


def _outcome_failures(turn: Turn, expect: Mapping[str, Any]) -> list[str]:
    outcome = turn.outcome
    said = "the game goes on" if outcome is None else f"{outcome.result.value}: {outcome.reason}"
    failures = []
    if "winner" in expect:
        winner = str(expect["winner"])
        won = outcome is not None and outcome.result is Result.WIN
        if winner and not (won and outcome is not None and outcome.powers == (winner,)):
            failures.append(f"{winner} has not won ({said})")
        if not winner and won:
            failures.append(f"nobody should have won ({said})")
    if "draw" in expect:
        shared = sorted(str(p) for p in expect["draw"])
        if outcome is None or outcome.result is not Result.DRAW or sorted(outcome.powers) != shared:
            failures.append(f"no draw of {_listed(shared)} ({said})")
    return failures


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _listed(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"
