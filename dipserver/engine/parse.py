"""Reading orders as players type them: one text (``parse_order``), or a power's lines checked as a set
(``parse_orders``), answered by the one grammar (``grammar.py``, the words by ``lexicon.py``) or from its
memo (``readings.py``).

Two kinds of answer, as the DATC requires:
- an order that cannot be understood, or that is impossible on this map (no such unit, not yours, a
  fleet sailing inland, a destination the unit can never reach) raises ``OrderError`` with a reason a
  player understands;
- an order that is legal but may fail (a move that needs a convoy nobody gives yet, support of a unit
  that is not there) is returned as an ``Order`` and left to the adjudicator.

Accepted notation, any case: ``A LON - NWY VIA``, ``A LON-NWY via convoy``, ``F NTH C A LON - NWY``,
``A MUN S A PAR - BUR``, ``A MUN S BER``, ``A RUM R SER``, ``A RUM D``, ``A PAR B``, ``BUILD F STP/NC``,
``WAIVE``, ``A RUM H``; full names and aliases (``Army Munich supports Paris to Burgundy``), coasts as
``/nc``, ``(nc)``, `` nc`` or ``north coast``; the unit type may be left out. A variant's conversion
orders (``kinds/conversion.py``) and, when the game's rule modules are given, their orders (``establish
depot PAR``, ``place blizzard MUN``: ``modules/kinds.py``) are read too.

The grammar yields an ``Intent`` (a verb and its places); the kind that reads that verb in the phase
(``kinds/registry.py``) turns it into the order and checks it against the board and the position. A line
the grammar cannot read goes to the kinds with a notation of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from dipserver.engine.board import Board
from dipserver.engine.buildsites import build_sites
from dipserver.engine.definition import Variant
from dipserver.engine.grammar import read_text
from dipserver.engine.kinds.reading import BuildRule as BuildRule
from dipserver.engine.kinds.reading import Reading
from dipserver.engine.kinds.reading import adjustment_due as adjustment_due
from dipserver.engine.kinds.registry import changes, checking_together, kind_of

# OrderError lives with the order values, so that the modules that read other kinds of order (conversions,
# rule modules) can raise it without importing this module, which imports them: no import cycle.
from dipserver.engine.orders import OrderError as OrderError
from dipserver.engine.position import Position
from dipserver.engine.readings import MAX_ANSWERS, MAX_ORDER_TEXT, Answer, still_true
from dipserver.engine.readings import ParsedLine as ParsedLine
from dipserver.engine.types import BESIDE, HOME, OWNED, PhaseType

if TYPE_CHECKING:
    # The rule modules' orders come with their module (it registers their kinds): never loaded from here.
    from dipserver.engine.modules.phase import InPlay

# --- build rules: where a power may place new units (variants differ) --------------------------------


def home_centres(board: Board, position: Position, power: str) -> list[str]:
    """Standard rule: the power's vacant home centres that it still owns."""
    return build_sites(board, position.units, position.owners, power, HOME)


def owned_centres(board: Board, position: Position, power: str) -> list[str]:
    """Build-anywhere rule (Wall of Ice, Sahara): any vacant centre the power owns."""
    return build_sites(board, position.units, position.owners, power, OWNED)


def centres_beside_units(board: Board, position: Position, power: str) -> list[str]:
    """Recruiting rule (Ice Lords): a vacant centre the power owns with a unit of its own beside it."""
    return build_sites(board, position.units, position.owners, power, BESIDE)


BUILD_RULES: dict[str, BuildRule] = {HOME: home_centres, OWNED: owned_centres, BESIDE: centres_beside_units}


def build_rule_for(variant: Variant) -> BuildRule:
    return BUILD_RULES[variant.build_rule]


def parse_order(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Any:
    """One order for ``power`` in ``position``'s phase, or ``OrderError`` with a reason for the player.
    The order is of the kind that reads it, any kind registered (a rule module's, a test's), hence ``Any``:
    this module is compiled, and compiled code checks a value against the type it is declared with.

    ``modules`` (``modules.phase.InPlay``: the game's rule modules and their state) lets the parser read
    module orders (``establish depot PAR``, ``place blizzard MUN``) as ``EstablishDepot``/``SnowStorm``;
    without it such an order is refused with the reason. The module orders are checked as ``play`` checks
    them; the Diplomacy orders are not screened here (``modules.phase.order_problem`` does that).

    A text met before on this board is answered from the reader's memo when the units it looked at are
    the same (``readings.py``); a text over ``readings.MAX_ORDER_TEXT`` characters is refused unread."""
    order, why = OrderReader(board, position, power, build_rule, modules).answer(text)[:2]
    if why is not None:
        raise OrderError(why)
    return order


def parse_in_full(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Any:
    """``parse_order`` without the memo: the grammar reads the text now (the memo's answers are its)."""
    reading = Reading(board, position, power.upper(), build_rule or build_rule_for(board.variant), modules)
    return read_text(reading, text)


class OrderReader:
    """One power's texts read in one position: each text's answer (``readings.Answer``) from the memo, or
    from the grammar and then kept (with rule modules in play, the grammar reads every text: their kinds
    read their state)."""

    __slots__ = ("board", "build_rule", "kept", "key", "modules", "position", "power", "units")

    def __init__(
        self,
        board: Board,
        position: Position,
        power: str,
        build_rule: BuildRule | None,
        modules: InPlay | None,
    ) -> None:
        self.board, self.position, self.power = board, position, power.upper()
        self.build_rule = build_rule or build_rule_for(board.variant)
        self.modules = modules
        units = position.units
        self.units = units if isinstance(units, dict) else dict(units)
        # Where this power's answers are kept on the board (none while nothing is kept, nowhere with the
        # rule modules on, or with a build rule not the variant's). The phase's kind is a ``str`` enum: it
        # hashes and compares as its letter (``"M"``), with no string made for it.
        self.key: tuple[str, PhaseType, int] | None = None
        if modules is None and (build_rule is None or build_rule is self.build_rule):
            self.key = (self.power, position.phase.type, changes())
        self.kept: dict[str, Answer] | None = board.readings.get(self.key) if self.key else None

    def reading(self) -> Reading:
        """A reading of one of these texts (it notes what of the position the kinds look at)."""
        return Reading(self.board, self.position, self.power, self.build_rule, self.modules)

    def answer(self, text: str) -> Answer:
        """What the grammar answers for ``text`` (stripped) here: the order or the reason it is refused."""
        kept = self.kept
        if kept is not None:
            found = kept.get(text) if len(text) <= MAX_ORDER_TEXT else None  # longer: refused unread
            if found is not None and still_true(found[2], self.units):
                return found
        return self.read(text)

    def read(self, text: str) -> Answer:
        """The grammar's answer for ``text`` now, kept in the memo where it may be."""
        reading = self.reading()
        try:
            order = read_text(reading, text)
        except OrderError as err:
            answer: Answer = (None, err.reason, tuple(reading.looked), None, None)
        else:
            kind = kind_of(order)
            beside = kind if kind.beside else None
            answer = (order, None, tuple(reading.looked), beside, kind.unit_key(order))
        if self.key is not None and not reading.whole and len(text) <= MAX_ORDER_TEXT:
            kept = self.kept
            if kept is None:
                kept = self.kept = self.board.readings.setdefault(self.key, {})
            if len(kept) < MAX_ANSWERS:
                kept[text] = answer
        return answer


def order_unit(order: Any) -> str | None:
    """The province of the unit an order commands (builds: the province built in); ``None`` for waive and
    the orders given beside the unit's own (depots, Snow Storms)."""
    return kind_of(order).unit_key(order)


def parse_orders(
    lines: Iterable[str] | str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
    one_per_unit: bool = True,
) -> list[ParsedLine]:
    """Every non-blank line parsed on its own, then checked as a set: one order per unit, no more
    builds or disbands than the winter allows, and no more depots or Snow Storms than the modules allow.

    ``one_per_unit=False`` lets a second order for a unit through (it is refused otherwise, so a player
    entering orders sees it at once): the adjudicator then judges the unit's orders as DATC 4.D.3 says
    (different orders: the unit holds; the same order twice counts once)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    results: list[ParsedLine] = []
    seen: dict[str, int] = {}
    adjustments = 0
    beside: list[object] = []  # the orders given beside the units' own, accepted so far
    texts = OrderReader(board, position, power, build_rule, modules)
    winter = position.phase.type is PhaseType.ADJUSTMENTS
    reading = texts.reading() if winter else None  # for the checks of the set (made when first needed)
    allowed = abs(reading.balance()) if reading is not None else 0
    kept, units = texts.kept, texts.units
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        # The memo's answer when the units it looked at stand as they did (``OrderReader.answer``'s check,
        # here for the loop's sake), else the grammar's (kept: the memo may be new).
        found = kept.get(text) if kept is not None and len(text) <= MAX_ORDER_TEXT else None
        if found is None or not still_true(found[2], units):
            found = texts.read(text)
            kept = texts.kept
        order, why, _, kind, key = found  # ``kind``: only an order's given beside the units' own
        if why is not None:
            results.append(ParsedLine(number, text, None, why))
            continue
        if kind is not None:
            reading = reading or texts.reading()
            why = kind.batch_problem(reading, order, beside)
            if why is not None:
                results.append(ParsedLine(number, text, None, why))
                continue
            beside.append(order)
        # The units ordered so far, kept only where a second order for one is refused.
        if one_per_unit and key is not None and key in seen:
            why = f"{board.province_name(key)} already has an order on line {seen[key]}"
            results.append(ParsedLine(number, text, None, why))
            continue
        if winter and (kind_name := kind_of(order).name) in ("build", "disband"):
            adjustments += 1
            if adjustments > allowed:
                due = (
                    f"Only {allowed} {kind_name} is due"
                    if allowed == 1
                    else f"Only {allowed} {kind_name}s are due"
                )
                results.append(ParsedLine(number, text, None, f"{due} this winter"))
                continue
        if one_per_unit and key is not None:
            seen[key] = number
        results.append(ParsedLine(number, text, order, None, None, position))
    return results


def checked_together(lines: list[ParsedLine], reading: Callable[[], Reading]) -> list[ParsedLine]:
    """A power's lines, each read on its own, checked as a set by the kind of each order among them that
    has such a check (``Kind.check_together``), on the reading ``reading`` makes (only then): a line
    refused there keeps what it read as."""
    # Few kinds have such a check (the standard map's builds), and a power has few lines: each kind looks
    # for its class among the lines.
    kinds = []
    for kind in checking_together():
        order_class = kind.order_class
        if any(type(line.order) is order_class for line in lines):
            kinds.append(kind)
    if not kinds:
        return lines
    given = [line for line in lines if line.order is not None]
    orders = [line.order for line in given]
    refused: dict[int, str] = {}
    made = reading()
    for kind in kinds:
        refused.update(kind.check_together(made, orders))
    if not refused:
        return lines
    by_line = {given[i].number: why for i, why in refused.items()}
    return [
        line._replace(order=None, error=by_line[line.number], refused=line.order)
        if line.number in by_line
        else line
        for line in lines
    ]


# --- writing orders back ----------------------------------------------------------------------------


def format_order(order: object, position: Position) -> str:
    """The short rulebook notation of an order (``A MUN S A PAR - BUR``), which ``parse_order`` reads back."""
    return kind_of(order).text(order, position)
