"""Order kinds as a registry: a kind of order is one object, registered once, that the reader, the options,
the notation, the map and the phase pipeline all find by its order class.

The toy kind below ("A PAR digs in": an army holds) is defined in this file and nowhere
else; registering it is all it takes for it to be read, checked, offered, written back, recorded in the
phase's results, drawn from that record and handed on to the adjudication. A real new kind is the same
class in a module of ``dipserver/engine/kinds/`` (with its order value), the line that loads it
(``kinds/standard.py``, or the variant's or rule module's module), and its tests: three files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

import pytest

from dipserver.engine.adjudicate import adjudicate
from dipserver.engine.board import Board
from dipserver.engine.ferryorders import FerryOrder
from dipserver.engine.kinds.conversion import ConversionOrder
from dipserver.engine.kinds.offering import Offering
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.registry import (
    Drawing,
    Kind,
    drawing_of,
    kind_of,
    kinds,
    record_kinds,
    register,
    unregister,
)
from dipserver.engine.kinds.words import unit_at
from dipserver.engine.lateorders import AdjustmentOrder, RetreatOrder
from dipserver.engine.modules.orders import ModuleOrder
from dipserver.engine.options import legal_options
from dipserver.engine.orders import Hold, MovementOrder, Order, OrderError, Outcome, StandardOrder
from dipserver.engine.parse import format_order, parse_order
from dipserver.engine.position import Position
from dipserver.engine.records import order_record
from dipserver.engine.turn import hand_on, play_phase
from dipserver.engine.types import PhaseType, Unit, UnitType
from dipserver.engine.variant import Variant
from dipserver.render import render_svg

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class DigIn:
    unit: str


class DigInKind(Kind):
    name = "dig_in"
    order_class = DigIn
    rank = 30  # tried after the rule modules' and the conversions' notations
    offered_in = (PhaseType.MOVEMENT,)
    position = 9  # after a unit's convoys

    def read_text(self, reading: Reading, text: str) -> DigIn | None:
        m = re.fullmatch(r"(?:[AF] )?([A-Z]{3}) DIGS IN", text.strip().upper())
        if m is None:
            return None
        unit = reading.position.units.get(m.group(1))
        if unit is None or unit.power != reading.power:
            raise OrderError(f"There is no unit of yours in {reading.name(m.group(1))}")
        if unit.type is not UnitType.ARMY:
            raise OrderError("Only an army digs in")
        return DigIn(unit.location)

    def offer(self, offering: Offering, unit: Unit) -> list[DigIn]:
        return [DigIn(unit.location)] if unit.type is UnitType.ARMY else []

    def text(self, order: DigIn, position: Position) -> str:
        return f"{unit_at(position, order.unit)} digs in"

    # Its record is the default one (``Kind.record``): the unit, where it stands, going nowhere.

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        return Drawing("ring", record["from"])  # drawn as a hold is

    def for_adjudication(self, order: DigIn) -> Hold:
        return Hold(order.unit)


@pytest.fixture
def dig_in() -> Iterator[DigInKind]:
    kind = register(DigInKind())
    try:
        yield kind
    finally:
        unregister(kind)


def test_a_registered_kind_is_read_in_its_own_notation(
    dig_in: DigInKind, standard: Variant, board: Board
) -> None:
    assert parse_order("A PAR digs in", board, standard.start, "FRANCE") == DigIn("PAR")


def test_a_registered_kind_refuses_with_its_own_reason(
    dig_in: DigInKind, standard: Variant, board: Board
) -> None:
    with pytest.raises(OrderError, match="Only an army digs in"):
        parse_order("F BRE digs in", board, standard.start, "FRANCE")
    with pytest.raises(OrderError, match="There is no unit of yours in Munich"):
        parse_order("A MUN digs in", board, standard.start, "FRANCE")


def test_a_registered_kind_is_offered_after_the_standard_options(
    dig_in: DigInKind, standard: Variant, board: Board
) -> None:
    options = legal_options(board, standard.start, "FRANCE").units["PAR"]
    assert options[-1].order == DigIn("PAR")
    assert options[-1].to_data() == {"text": "A PAR digs in", "kind": "dig_in", "unit": "PAR"}


def test_a_registered_kind_is_written_back_as_the_reader_reads_it(
    dig_in: DigInKind, standard: Variant, board: Board
) -> None:
    text = format_order(DigIn("PAR"), standard.start)
    assert text == "A PAR digs in"
    assert parse_order(text, board, standard.start, "FRANCE") == DigIn("PAR")


def test_a_registered_kind_is_recorded_as_it_says(dig_in: DigInKind, standard: Variant) -> None:
    record = order_record("FRANCE", DigIn("PAR"), standard.start, outcome=Outcome.SUCCESS)
    assert record == {
        "power": "FRANCE",
        "order": "A PAR digs in",
        "outcome": "success",
        "reason": "",
        "dislodged": False,
        "kind": "dig_in",
        "unit": {"type": "A", "location": "PAR"},
        "from": "PAR",
        "to": None,
        "via": None,
    }
    assert "dig_in" in record_kinds()


def test_a_registered_kind_is_drawn_from_its_record_as_it_says(dig_in: DigInKind, standard: Variant) -> None:
    start = standard.start
    record = order_record("FRANCE", DigIn("PAR"), start, outcome=Outcome.SUCCESS)
    assert drawing_of(record) == Drawing("ring", "PAR")
    held = order_record("FRANCE", Hold("PAR"), start, outcome=Outcome.SUCCESS)
    picture = render_svg(standard, standard.map_state, start, results=[record])
    assert picture == render_svg(standard, standard.map_state, start, results=[held])
    assert picture != render_svg(standard, standard.map_state, start, results=[])


def test_a_registered_kind_is_adjudicated_as_the_order_it_hands_on(
    dig_in: DigInKind, standard: Variant, board: Board
) -> None:
    plain, _ = hand_on({"FRANCE": [DigIn("PAR")]})
    assert plain == {"FRANCE": [Hold("PAR")]}
    [result] = adjudicate(board, standard.start, plain).results
    assert (result.order, result.outcome) == (Hold("PAR"), Outcome.SUCCESS)


def test_the_order_a_kind_hands_on_is_reported_as_the_order_given(
    dig_in: DigInKind, standard: Variant
) -> None:
    # The hold DigIn hands on decides its outcome; the result keeps the order as given, and its kind.
    turn = play_phase(standard, standard.map_state, standard.start, {"FRANCE": ["A PAR digs in"]})
    assert [(r["text"], r["kind"], r["outcome"]) for r in turn.results] == [
        ("A PAR digs in", "dig_in", "success")
    ]


class RationedDigInKind(DigInKind):
    """Digging in as above, but one army a phase: a rule on a power's orders as a set."""

    def check_together(self, reading: Reading, orders: Sequence[Any]) -> dict[int, str]:
        dug = [i for i, order in enumerate(orders) if isinstance(order, DigIn)]
        return dict.fromkeys(dug[1:], "Only one army digs in each phase")


def test_a_kind_checks_a_powers_orders_as_a_set(standard: Variant) -> None:
    kind = register(RationedDigInKind())
    try:
        orders = {"FRANCE": ["A PAR digs in", "A MAR digs in"]}
        turn = play_phase(standard, standard.map_state, standard.start, orders)
        results = {r["text"]: (r["outcome"], r["reason"]) for r in turn.results if r["power"] == "FRANCE"}
    finally:
        unregister(kind)
    assert results["A PAR digs in"] == ("success", "")
    assert results["A MAR digs in"][1] == "Only one army digs in each phase"


def test_an_unregistered_kind_is_no_order(standard: Variant, board: Board) -> None:
    with pytest.raises(OrderError):
        parse_order("A PAR digs in", board, standard.start, "FRANCE")
    with pytest.raises(TypeError, match="not an order"):
        format_order(DigIn("PAR"), standard.start)  # type: ignore[arg-type]


def test_every_order_value_has_one_kind() -> None:
    # ``Order`` is the movement phase's values and the later phases' (types for annotations only).
    assert Order == "MovementOrder | RetreatOrder | AdjustmentOrder"
    assert MovementOrder == "StandardOrder | FerryOrder"
    movement = [*get_args(StandardOrder), *get_args(FerryOrder)]
    later = [*get_args(RetreatOrder), *get_args(AdjustmentOrder)]
    classes = [*movement, *later, *get_args(ConversionOrder), *get_args(ModuleOrder)]
    # By class, as ``kind_of`` looks an order up: a compiled value's ``__new__`` runs its ``__init__``, so
    # a bare instance (``cls.__new__(cls)``) cannot be made without the fields.
    assert {kinds()[cls].order_class for cls in classes} == set(classes)
    assert kind_of(Hold("PAR")) is kinds()[Hold]
    assert len({kind.name for kind in kinds().values()}) == len(kinds())


def test_a_class_is_registered_once(dig_in: DigInKind) -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(DigInKind())


def test_a_kind_of_record_is_given_by_one_kind_alone() -> None:
    @dataclass(frozen=True, slots=True)
    class Entrench:
        unit: str

    class EntrenchKind(Kind):
        name = "entrench"
        order_class = Entrench
        records = ("hold",)  # the hold's already

    with pytest.raises(ValueError, match="records of kind 'hold' are given by 'hold' already"):
        register(EntrenchKind())
    assert Entrench not in kinds()


def test_a_game_without_rule_modules_refuses_their_orders_without_loading_them() -> None:
    """The reader says why there are no depots in a process that never loaded the modules (a bare command
    line), word for word as the modules' own kinds would, and loads them no more than before."""
    script = (
        "import sys\n"
        "from dipserver.engine.parse import OrderError, parse_order\n"
        "from dipserver.engine.variant import load_variant\n"
        "from dipserver.engine.board import board_for\n"
        "v = load_variant('standard')\n"
        "try:\n"
        "    parse_order('establish depot PAR', board_for(v, v.map_state), v.start, 'FRANCE')\n"
        "except OrderError as e:\n"
        "    print(e.reason)\n"
        "print(any(m.startswith('dipserver.engine.modules') for m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.splitlines() == ["this game plays without supply lines: there are no depots", "False"]


def test_the_later_phases_kinds_load_with_the_first_question_about_their_phase(tmp_path: Path) -> None:
    """A process that asks about movement phases only never loads the retreat and adjustment phases' orders
    and kinds; the first unit options of a retreat phase load that phase's kinds (its units' own options)
    and nothing else the registry loads later; and a kind loaded later that is a unit's own option in a
    phase its module was not named for is refused."""
    (tmp_path / "toy_later_kind.py").write_text(
        "from dataclasses import dataclass\n"
        "from dipserver.engine.kinds.registry import Kind, register\n"
        "from dipserver.engine.types import PhaseType\n"
        "@dataclass(frozen=True)\n"
        "class Dig:\n"
        "    unit: str\n"
        "class DigKind(Kind):\n"
        "    name = 'dig'\n"
        "    order_class = Dig\n"
        "    offered_in = (PhaseType.MOVEMENT,)\n"
        "register(DigKind())\n"
    )
    script = (
        "import sys\n"
        "from dipserver.engine.kinds import registry, standard\n"
        "from dipserver.engine.types import PhaseType\n"
        "later = ['dipserver.engine.lateorders', 'dipserver.engine.kinds.retreat',\n"
        "         'dipserver.engine.kinds.build', 'dipserver.engine.kinds.conversion']\n"
        "registry.offered(PhaseType.MOVEMENT)\n"
        "print([name for name in later if name in sys.modules])\n"
        "print([kind.name for kind in registry.offered(PhaseType.RETREATS)])\n"
        "print([name for name in later if name in sys.modules])\n"
        "registry.later('toy_later_kind', phases=(PhaseType.RETREATS,))\n"
        "try:\n"
        "    registry.kinds()\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}", "DIPSERVER_ORDER_KINDS": ""}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT, env=env
    )
    assert done.stdout.splitlines() == [
        "[]",
        "['retreat', 'disband']",
        "['dipserver.engine.lateorders', 'dipserver.engine.kinds.retreat']",
        "order kind 'dig' is one of a unit's own options in a phase it was not named for: it cannot be "
        "loaded later",
    ]
