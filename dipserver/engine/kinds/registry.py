"""The order kinds, found by order class or by name: the one place that knows every kind of order.

A kind (``Kind``) is everything the engine knows about one kind of order apart from resolving it: how the
reader turns what a player wrote into the order and checks it (``read``, or ``read_text`` for a notation
of its own), how the adjudicator checks it against the units (``legal``), what the options offer
(``offer``), how it is written back (``text``), what its result record says (``record``) and how the map
draws that record (``drawing``), and what a successful order does to the state the phase leaves behind
beyond what the adjudicator resolves (``apply``: ``kinds/effects.py``). Each kind lives in a
module of its own and registers itself when that module is loaded: the standard kinds in this package, the
conversions in ``kinds/conversion.py``, the rule modules' orders in ``modules/kinds.py``.

The kinds few games give (the variants' conversions, the rule modules' orders) and those of the phases
after a season's moves (retreats, disbands, builds, waives) are loaded when first needed, here and only
here: ``kinds/standard.py`` names their modules (``later``), and the registry imports them the first time
it is asked for a kind it does not have (by order class, name, verb or record), for every kind (``kinds``,
``record_kinds``), for the options of a group other than a unit's own (``offered``), or for the notations
past the first readers' (``text_readers``). Such kinds are given beside a unit's own order, or are a unit's
own options only in the phases their modules were named for (``later``'s ``phases``: asking for a unit's
options in such a phase loads them), and read a notation of their own after those first readers (the rule
modules' orders refused in a game without them). A process that meets none of their orders never loads
them: most of a one-request command's start-up is defining values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dipserver.engine.kinds.recording import Described, held_at
from dipserver.engine.types import PhaseType, Unit

if TYPE_CHECKING:
    from dipserver.engine.board import Board
    from dipserver.engine.definition import Variant
    from dipserver.engine.kinds.effects import Effect, Effects
    from dipserver.engine.kinds.offering import Offering
    from dipserver.engine.kinds.reading import Intent, Reading
    from dipserver.engine.kinds.standing import Standing
    from dipserver.engine.position import Position

# The adjudicator's check of one order on its own: (None, a move's settled target) when legal, else
# (the reason, ""). Plain callables, kept in a dict by order class: the movement phase's hot loop.
Legal = Callable[["Standing", str, "Unit", Any], tuple["str | None", str]]


@dataclass(frozen=True, slots=True)
class Drawing:
    """How the map draws a result record, in locations (``render/orders.py`` turns them into points).

    ``shape``: ``arrow`` (from ``start`` to ``end``: a move or retreat), ``hold_line`` (a line from
    ``start`` to the unit at ``via``, ringed: a support to hold), ``line`` (from ``start`` to the middle of
    the move of the unit at ``via``, or of its way to ``end``: a support to move, a convoy), ``ring`` (at
    ``start``: a hold), ``cross`` (at ``start``: a disband), ``unit`` (``unit`` drawn new at ``start``: a
    build), ``mark`` (``words`` written at the unit at ``start``: a conversion) or ``none``. ``label`` is
    the order's name in the picture's classes; ``dislodged`` says ``start`` is a dislodged unit's place.
    ``line`` and ``hold_line`` are a unit's help to another: drawn first, crossed at ``start`` if they
    failed."""

    shape: str
    start: str = ""
    end: str = ""
    via: str = ""
    label: str = ""
    dislodged: bool = False
    unit: Unit | None = None
    words: str = ""

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, every field always there, ``None`` for one that is empty (a built unit as
        ``{power, type, location}``), so that a page draws an order by its ``shape`` and knows no kind (the
        options and orders the API serves)."""
        unit = self.unit
        drawn = (
            None
            if unit is None
            else {"power": unit.power, "type": unit.type.value, "location": unit.location}
        )
        return {
            "shape": self.shape,
            "start": self.start or None,
            "end": self.end or None,
            "via": self.via or None,
            "label": self.label or None,
            "dislodged": self.dislodged,
            "unit": drawn,
            "words": self.words or None,
        }


NOTHING = Drawing("none")


class Kind:
    """One kind of order. A kind module subclasses it, sets the class attributes and overrides what applies.

    ``reads`` are the (phase, verb) pairs of the reader's grammar this kind takes (``grammar.py``); a kind
    with a notation of its own sets ``rank`` and overrides ``read_text`` instead (tried in rank order when
    the grammar cannot read a line). ``offered_in`` lists the phases whose unit options it offers, in
    ``position`` order among the kinds of that phase. ``records`` are the kinds its result records carry
    (by default its name alone; ``record`` says which one an order's is)."""

    name: str = ""  # the options' and the API's name: "hold", "support_move", "convert_to_army"
    order_class: type = object
    reads: tuple[tuple[PhaseType, str], ...] = ()
    rank: int | None = None  # its place among the kinds with a notation of their own
    offered_in: tuple[PhaseType, ...] = ()
    # Where the options list it: "units" (a unit's own order), "conversions" (the variant's: asked for only
    # in a variant whose timeline enables some, ``timelinecache.variant_orders``).
    group: str = "units"
    position: int = 0  # its place among a unit's options of its group
    beside: bool = False  # given beside the unit's own order (module orders): names no unit to order once
    records: tuple[str, ...] = ()

    def read(self, reading: Reading, intent: Intent) -> Any:
        """The order ``intent`` asks for, checked, or ``OrderError`` with the reason."""
        raise NotImplementedError(self.name)

    def read_text(self, reading: Reading, text: str) -> Any | None:
        """The order ``text`` gives in this kind's own notation, checked; ``None`` if it is not one."""
        return None

    def legal(self, standing: Standing, here: str, unit: Unit, order: Any) -> tuple[str | None, str]:
        """The adjudicator's check in a movement phase (see ``Legal``)."""
        return f"{type(order).__name__} orders are not given in a movement phase", ""

    def offers_in(self, variant: Variant) -> bool:
        """Whether this kind offers anything at all in ``variant``'s games (a conversion only where the
        variant's timeline enables it): asked once a phase, not for every unit."""
        return True

    def offer(self, offering: Offering, unit: Unit) -> Sequence[Any]:
        """The orders of this kind ``unit`` may give now, in their canonical order: orders, or the options
        (order and text) the kind keeps on the board (``Offering.keep``): all of one or the other."""
        return []

    def text(self, order: Any, position: Position) -> str:
        """The short notation, which the reader reads back."""
        return str(order)

    def record(self, order: Any, position: Position, board: Board | None) -> Described:
        """What ``order``'s result record says it was (``records.py``): by default an order of the unit at
        ``order.unit`` that stays where it is. ``board`` (the phase's) is ``None`` where it is unknown."""
        return self.name, held_at(position, order.unit), order.unit, None, None

    def drawing(self, record: Mapping[str, Any]) -> Drawing:
        """How the map draws a result ``record`` of this kind, from the record alone (it may be stored)."""
        return NOTHING

    def for_adjudication(self, order: Any) -> Any | None:
        """The order the phase pipeline hands on to the adjudication for this one (``turn.hand_on``):
        itself, another that stands in for it (a converting army holds) or ``None`` (``apply`` alone
        gives its effect). The result of the order handed on is recorded as this order's, unless
        ``apply`` reports one of its own."""
        return order

    def destination(self, order: Any) -> str | None:
        """The province ``order`` takes its unit to, if it moves it (a move, a retreat)."""
        return None

    def attacks(self, order: Any) -> str | None:
        """The province ``order`` attacks, if it is a move into one (a move, an army landing)."""
        return None

    def apply(self, effects: Effects, power: str, order: Any) -> Effect | None:
        """Apply ``order`` (``power``'s) to the state the phase leaves behind, once the adjudicator has
        resolved the orders handed to it (``kinds/effects.py``). Returns how it went for an order whose
        result is this step's (one not handed on, or handed on only as a stand-in), else ``None``: the
        adjudicator's result stands, as for every standard order (the adjudicator moved the units)."""
        return None

    def unit_key(self, order: Any) -> str | None:
        """The province of the unit the order commands (one order per unit); ``None`` for none."""
        return None if self.beside else str(order.unit).partition("/")[0]

    def batch_problem(self, reading: Reading, order: Any, earlier: list[Any]) -> str | None:
        """Why this order is one too many beside the ``earlier`` ones of its kind given on other lines."""
        return None

    def check_together(self, reading: Reading, orders: Sequence[Any]) -> dict[int, str]:
        """Why some of this kind's ``orders`` are refused when they are checked as a set, by their indexes
        in ``orders`` (every order the power gave, each read on its own, in the order of its lines): for
        a rule that needs all of them at once (Deluge's builds outside the home centres). By default
        there is nothing more to check."""
        return {}


K = TypeVar("K", bound=Kind)

_BY_CLASS: dict[type, Kind] = {}
_BY_NAME: dict[str, Kind] = {}
_GRAMMAR: dict[tuple[PhaseType, str], Kind] = {}
_BY_RECORD: dict[str, Kind] = {}  # a record's kind -> the kind that gives such records
_OFFERED: dict[tuple[PhaseType, str], list[Kind]] = {}  # ``offered``'s answers, emptied by (un)register
_TEXT_READERS: list[TextReader] = []
_TOGETHER: list[Kind] = []  # the kinds with a ``check_together`` of their own, in registration order
# The adjudicator's checks by order class: read by movement's loop as one dict lookup per order.
MOVEMENT_CHECKS: dict[type, Legal] = {}
# How many times the kinds and readers changed: the reader's memo (``readings.py``) keeps the answers of
# one set of them only.
_CHANGES = [0]
# The modules of kinds to load when first needed (``later``), until they are, with the phases whose unit
# options their kinds give (``later``'s ``phases``).
_LATER: dict[str, tuple[PhaseType, ...]] = {}
# The readers of notations of their own up to this rank are tried before the kinds loaded later are loaded
# (``text_readers``); theirs come after.
_FIRST_RANK = 10


def later(*modules: str, phases: tuple[PhaseType, ...] = ()) -> None:
    """Name the modules of kinds to load only when the registry first needs them (the module's docstring);
    each registers its kinds when loaded, as any kind's module does. ``phases``: the phases whose unit
    options their kinds give (the retreat and adjustment phases' kinds), loaded with the first question
    about such a phase (``offered``, ``reader_for``)."""
    for name in modules:
        _LATER.setdefault(name, phases)


def _load_later(phase: PhaseType | None = None) -> bool:
    """Load the modules named by ``later`` that are not loaded yet, those of ``phase`` only if one is
    given; whether there were any."""
    names = [name for name, phases in _LATER.items() if phase is None or phase in phases]
    if not names:
        return False
    import importlib

    declared, before = dict(_LATER), set(_BY_NAME)
    # Named until loaded: another thread asking meanwhile imports them too, and so waits for them.
    for name in names:
        importlib.import_module(name)
    for name in names:
        _LATER.pop(name, None)
    for name in _BY_NAME.keys() - before:
        kind = _BY_NAME[name]
        phases = declared.get(type(kind).__module__, ())
        if kind.group == "units" and not set(kind.offered_in) <= set(phases):
            raise ValueError(
                f"order kind {name!r} is one of a unit's own options in a phase it was not named for: "
                "it cannot be loaded later"
            )
        if kind.rank is not None and kind.rank <= _FIRST_RANK:
            raise ValueError(
                f"order kind {name!r} reads before rank {_FIRST_RANK + 1}: it cannot be loaded later"
            )
    return True


def changes() -> int:
    """A number that changes whenever a kind or a reader is registered or taken out."""
    return _CHANGES[0]


def register(kind: K) -> K:
    """Add ``kind`` to the tables (once per order class); returns it, so a module can keep it by name."""
    if kind.order_class in _BY_CLASS or kind.name in _BY_NAME:
        raise ValueError(f"order kind {kind.name!r} ({kind.order_class.__name__}) is registered already")
    kind.records = kind.records or (kind.name,)
    if taken := [r for r in kind.records if r in _BY_RECORD]:
        raise ValueError(f"records of kind {taken[0]!r} are given by {_BY_RECORD[taken[0]].name!r} already")
    _BY_CLASS[kind.order_class] = kind
    _OFFERED.clear()
    _BY_NAME[kind.name] = kind
    _BY_RECORD.update(dict.fromkeys(kind.records, kind))
    for key in kind.reads:
        if key in _GRAMMAR:
            raise ValueError(f"{key[1]!r} in {key[0].value} is read by {_GRAMMAR[key].name!r} already")
        _GRAMMAR[key] = kind
    if kind.rank is not None:
        _TEXT_READERS.append(kind)
        _TEXT_READERS.sort(key=lambda k: k.rank or 0)
    if type(kind).legal is not Kind.legal:
        MOVEMENT_CHECKS[kind.order_class] = kind.legal
    if type(kind).check_together is not Kind.check_together:
        _TOGETHER.append(kind)
    _CHANGES[0] += 1
    return kind


class TextReader(Protocol):
    """A reader of a notation of its own (every kind with a ``rank`` is one)."""

    rank: int | None

    def read_text(self, reading: Reading, text: str) -> Any | None: ...


def register_reader(reader: TextReader) -> None:
    """Add a reader of a notation that is no one kind's (the rule modules' orders in a game without them)."""
    _TEXT_READERS.append(reader)
    _TEXT_READERS.sort(key=lambda k: k.rank or 0)
    _CHANGES[0] += 1


def unregister(kind: Kind) -> None:
    """Take ``kind`` out again (a test's toy kind)."""
    del _BY_CLASS[kind.order_class], _BY_NAME[kind.name]
    _OFFERED.clear()
    for record in kind.records:
        del _BY_RECORD[record]
    for key in kind.reads:
        del _GRAMMAR[key]
    if kind in _TEXT_READERS:
        _TEXT_READERS.remove(kind)
    MOVEMENT_CHECKS.pop(kind.order_class, None)
    if kind in _TOGETHER:
        _TOGETHER.remove(kind)
    _CHANGES[0] += 1


def kind_of(order: object) -> Kind:
    kind = _BY_CLASS.get(type(order))
    if kind is None and _load_later():
        kind = _BY_CLASS.get(type(order))
    if kind is None:
        raise TypeError(f"not an order: {order!r}")
    return kind


def check_of(order_class: type) -> Legal | None:
    """The adjudicator's check of an order of ``order_class`` (``MOVEMENT_CHECKS``, which the movement phase
    reads first), loading the kinds loaded later if it is none of those loaded yet; ``None`` if it has
    none."""
    if order_class not in _BY_CLASS:
        _load_later()
    return MOVEMENT_CHECKS.get(order_class)


def drawing_of(record: Mapping[str, Any]) -> Drawing:
    """How to draw a result ``record``; nothing for a record of no kind there is (or of none at all)."""
    kind = _BY_RECORD.get(record.get("kind") or "")
    if kind is None and record.get("kind") and _load_later():
        kind = _BY_RECORD.get(record.get("kind") or "")
    return NOTHING if kind is None else kind.drawing(record)


def record_kinds() -> tuple[str, ...]:
    """Every kind a record may have, sorted: the same list whatever loaded first."""
    _load_later()
    return tuple(sorted(_BY_RECORD))


def named(name: str) -> Kind:
    if name not in _BY_NAME:
        _load_later()
    return _BY_NAME[name]


def reader_for(phase: PhaseType, verb: str) -> Kind | None:
    """The kind that reads ``verb`` in a ``phase`` phase, if any does."""
    kind = _GRAMMAR.get((phase, verb))
    # Those of the phase's kinds loaded later first, then every other.
    while kind is None and (_load_later(phase) or _load_later()):
        kind = _GRAMMAR.get((phase, verb))
    return kind


def text_readers() -> Iterator[TextReader]:
    """The readers of notations of their own, in rank order: the first ones (up to ``_FIRST_RANK``), then,
    once the kinds to load later are loaded, the rest with theirs (``_load_later`` holds them to it)."""
    first = [reader for reader in _TEXT_READERS if (reader.rank or 0) <= _FIRST_RANK]
    yield from first
    _load_later()
    yield from _TEXT_READERS[len(first) :]


def offered(phase: PhaseType, group: str = "units") -> list[Kind]:
    """The kinds of ``group`` whose options a unit has in a ``phase`` phase, in the order they are offered.
    Kept until a kind is registered or removed: the options ask for them unit by unit."""
    found = _OFFERED.get((phase, group))
    if found is None:
        # A unit's own options are only those of the kinds named for the phase among those loaded later
        # (``_load_later``); the other groups' may be any.
        _load_later(phase if group == "units" else None)
        found = [k for k in _BY_CLASS.values() if phase in k.offered_in and k.group == group]
        found = _OFFERED[(phase, group)] = sorted(found, key=lambda k: k.position)
    return list(found)


def kinds() -> Mapping[type, Kind]:
    """Every kind, by order class."""
    _load_later()
    return _BY_CLASS


def checking_together() -> tuple[Kind, ...]:
    """The kinds loaded with a ``check_together`` of their own, in registration order: those of the orders
    read so far (reading an order finds its kind through the registry, which loads it if need be)."""
    return tuple(_TOGETHER)
