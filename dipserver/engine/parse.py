"""Reading orders as players type them: the words, the grammar, and the order kind that checks the result.

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

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dipserver.engine.adjustments import build_sites
from dipserver.engine.board import Board

# The kinds register themselves when loaded: the Diplomacy ones and the variants' conversions here, the rule
# modules' orders in ``modules/kinds.py`` (``records.py`` loads them; ``module_notation`` refuses them in a
# game without modules). The reader finds them through the registry alone.
from dipserver.engine.kinds import conversion as _conversion  # noqa: F401  (registers its kinds)
from dipserver.engine.kinds import module_notation as _module_notation  # noqa: F401  (registers its reader)
from dipserver.engine.kinds import standard as _standard  # noqa: F401  (registers its kinds)
from dipserver.engine.kinds.abstraction import AS_FLEET
from dipserver.engine.kinds.reading import BuildRule as BuildRule
from dipserver.engine.kinds.reading import Intent, Loc, Reading
from dipserver.engine.kinds.reading import adjustment_due as adjustment_due
from dipserver.engine.kinds.registry import changes, checking_together, kind_of, reader_for, text_readers

# OrderError lives with the order values, so that the modules that read other kinds of order (conversions,
# rule modules) can raise it without importing this module, which imports them: no import cycle.
from dipserver.engine.orders import Build, Disband, Order
from dipserver.engine.orders import OrderError as OrderError
from dipserver.engine.position import Position
from dipserver.engine.readings import MAX_ANSWERS, MAX_ORDER_TEXT, Answer, still_true, too_long
from dipserver.engine.readings import ParsedLine as ParsedLine
from dipserver.engine.types import BESIDE, HOME, OWNED, PhaseType, UnitType
from dipserver.engine.variant import Variant, normalise_name

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


# --- tokens -----------------------------------------------------------------------------------------

_KEYWORDS = {
    **dict.fromkeys(("-", "->", "=>", "to", "move", "moves", "m"), "move"),
    **dict.fromkeys(("s", "sup", "support", "supports"), "support"),
    **dict.fromkeys(("c", "convoy", "convoys"), "convoy"),
    **dict.fromkeys(("h", "hold", "holds", "stand", "stands"), "hold"),
    **dict.fromkeys(("r", "retreat", "retreats"), "retreat"),
    **dict.fromkeys(("d", "disband", "disbands", "remove", "removes"), "disband"),
    **dict.fromkeys(("b", "build", "builds"), "build"),
    **dict.fromkeys(("waive", "waives"), "waive"),
    **dict.fromkeys(("via",), "via"),
}
_UNIT_WORDS = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET, "fleet": UnitType.FLEET}
_COAST_WORDS = {
    "nc": "NC",
    "sc": "SC",
    "ec": "EC",
    "wc": "WC",
    "north": "NC",
    "south": "SC",
    "east": "EC",
    "west": "WC",
}
_SHORT_COAST_WORDS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}  # only inside "/x" or "(x)"
_TOKEN_RE = re.compile(r"->|=>|[a-z0-9.']+|\S")
_IGNORED = frozenset(",:;?!")  # separators, and "?" for a unit type the writer did not know (DATC texts)
_MAX_NAME_WORDS = 4


_Item = tuple[str, object]  # ("kw", kind) | ("type", UnitType) | ("loc", Loc)


def _is_word(token: str) -> bool:
    return token[0].isalnum()


def _word(token: str) -> str:
    return token.strip(".'")


def _tokens(text: str) -> list[str]:
    cleaned = text.lower().replace("\u2013", "-").replace("\u2014", "-").replace("\u2192", "->")
    return [t for t in _TOKEN_RE.findall(cleaned) if t not in _IGNORED]


@lru_cache(maxsize=64)
def _name_starts(variant: Variant) -> dict[str, int]:
    """Each word that begins one of ``variant``'s names (codes, names, aliases): the most tokens a name
    beginning with it may take (its words, and a hyphen between each two)."""
    most: dict[str, int] = {}
    for name in variant.names:
        words = name.split()
        if words:
            most[words[0]] = max(most.get(words[0], 0), 2 * len(words) - 1)
    return most


def _match_name(variant: Variant, tokens: list[str], i: int) -> tuple[str, int] | None:
    """The longest province name starting at ``tokens[i]``: (code, tokens used). Only as many tokens are
    tried as the longest name beginning with that word has (none where no name begins with it)."""
    first = normalise_name(tokens[i]).split(maxsplit=1)
    most = _name_starts(variant).get(first[0], 0) if first else 0
    for length in range(min(_MAX_NAME_WORDS, most, len(tokens) - i), 0, -1):
        words = tokens[i : i + length]
        # A name is words, perhaps joined by hyphens ("Mid-Atlantic"); arrows and brackets end it.
        if not (_is_word(words[0]) and _is_word(words[-1]) and all(_is_word(w) or w == "-" for w in words)):
            continue
        if length == 1 and _word(words[0]) in _KEYWORDS | _UNIT_WORDS:
            return None
        code = variant.names.get(normalise_name(" ".join(words)))
        if code is not None:
            return code, length
    return None


def _match_coast(tokens: list[str], i: int) -> tuple[str, int] | None:
    """A coast written after a province: ``/nc``, ``(nc)``, ``nc``, ``north coast``, ``(north coast)``."""

    def bare(j: int, short_ok: bool) -> tuple[str, int] | None:
        if j >= len(tokens):
            return None
        word = _word(tokens[j]).replace(".", "")
        coast = _COAST_WORDS.get(word) or (_SHORT_COAST_WORDS.get(word) if short_ok else None)
        if coast is None:
            return None
        used = 1
        if j + 1 < len(tokens) and _word(tokens[j + 1]) == "coast":
            used = 2
        elif word in ("north", "south", "east", "west") and not short_ok:
            return None  # a lone direction word after a place is too easily something else
        return coast, used

    if i < len(tokens) and tokens[i] == "/":
        found = bare(i + 1, short_ok=True)
        return (found[0], found[1] + 1) if found else None
    if i < len(tokens) and tokens[i] == "(":
        found = bare(i + 1, short_ok=True)
        if found and i + 1 + found[1] < len(tokens) and tokens[i + 1 + found[1]] == ")":
            return found[0], found[1] + 2
        return None
    return bare(i, short_ok=False)


def _lex(variant: Variant, text: str) -> list[_Item]:
    tokens = _tokens(text)
    items: list[_Item] = []
    i = 0
    while i < len(tokens):
        name = _match_name(variant, tokens, i)
        if name is not None:
            code, used = name
            typed = " ".join(tokens[i : i + used])
            i += used
            coast = _match_coast(tokens, i)
            if coast is not None:
                i += coast[1]
            items.append(("loc", Loc(code, coast[0] if coast else None, typed)))
            continue
        word = _word(tokens[i])
        if word in _UNIT_WORDS:
            items.append(("type", _UNIT_WORDS[word]))
        elif word in ("via", "by") and i + 1 < len(tokens) and _word(tokens[i + 1]) in ("convoy", "convoys"):
            items.append(("kw", "via"))
            i += 1
        elif word in _KEYWORDS:
            items.append(("kw", _KEYWORDS[word]))
        else:
            raise OrderError(f"'{tokens[i]}' is not a place or an order word I know")
        i += 1
    return items


# --- grammar: items -> what the player asked for -----------------------------------------------------


class _Reader:
    def __init__(self, items: list[_Item], text: str) -> None:
        self.items, self.i, self.text = items, 0, text

    def peek(self) -> _Item | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take_kw(self, *kinds: str) -> str | None:
        item = self.peek()
        if item is not None and item[0] == "kw" and item[1] in kinds:
            self.i += 1
            return str(item[1])
        return None

    def unit(self, role: str) -> tuple[UnitType | None, Loc]:
        unit_type = None
        item = self.peek()
        if item is not None and item[0] == "type":
            unit_type = item[1]
            self.i += 1
            item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected the place of {role} in '{self.text}'")
        self.i += 1
        return unit_type, item[1]  # type: ignore[return-value]

    def place(self, role: str) -> Loc:
        item = self.peek()
        if item is None or item[0] != "loc":
            raise OrderError(f"Expected {role} in '{self.text}'")
        self.i += 1
        return item[1]  # type: ignore[return-value]

    def done(self) -> None:
        if self.i < len(self.items):
            raise OrderError(f"Did not understand the end of '{self.text}'")


def _read(items: list[_Item], text: str) -> Intent:
    r = _Reader(items, text)
    if not items:
        raise OrderError("Empty order")
    lead = r.take_kw("build", "disband", "waive", "retreat", "move", "support", "convoy", "hold")
    if lead == "waive":
        r.done()
        return Intent("waive")
    if lead in ("build", "disband"):
        unit_type, loc = r.unit("the unit")
        r.done()
        return Intent(lead, unit_type, loc)
    if lead is not None:
        raise OrderError(f"Start with the unit, as in 'A PAR - BUR', not with '{lead}'")
    unit_type, unit = r.unit("the ordered unit")
    intent = Intent("hold", unit_type, unit)
    verb = r.take_kw("hold", "move", "support", "convoy", "retreat", "disband", "build", "waive")
    if verb in (None, "hold", "disband", "build"):
        intent.verb = verb or "hold"
    elif verb in ("move", "retreat"):
        intent.verb = verb
        r.take_kw("move")  # "R - SER", "retreats to SER"
        intent.dest = r.place("where the unit goes")
        intent.via = r.take_kw("via") is not None
    elif verb in ("support", "convoy"):
        intent.verb = verb
        intent.target_type, intent.target = r.unit(f"the unit to {verb}")
        if r.take_kw("move"):
            intent.dest = r.place("where the supported unit goes")
        elif verb == "convoy":
            raise OrderError("A convoy names the army and where it goes, as in 'F NTH C A LON - NWY'")
        else:
            r.take_kw("hold")
    else:
        raise OrderError(f"'{verb}' does not fit here in '{text}'")
    r.done()
    return intent


def parse_order(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Order:
    """One order for ``power`` in ``position``'s phase, or ``OrderError`` with a reason for the player.

    ``modules`` (``modules.phase.InPlay``: the game's rule modules and their state) lets the parser read
    module orders (``establish depot PAR``, ``place blizzard MUN``) as ``EstablishDepot``/``SnowStorm``;
    without it such an order is refused with the reason. The module orders are checked as ``play`` checks
    them; the Diplomacy orders are not screened here (``modules.phase.order_problem`` does that).

    A text met before on this board is answered from the reader's memo when the units it looked at are
    the same (``readings.py``); a text over ``readings.MAX_ORDER_TEXT`` characters is refused unread."""
    order, why = OrderReader(board, position, power, build_rule, modules).answer(text)[:2]
    if why is not None:
        raise OrderError(why)
    return order  # type: ignore[no-any-return]  # callers that take other kinds' orders check the type


def parse_in_full(
    text: str,
    board: Board,
    position: Position,
    power: str,
    build_rule: BuildRule | None = None,
    modules: InPlay | None = None,
) -> Order:
    """``parse_order`` without the memo: the grammar reads the text now (the memo's answers are its)."""
    reading = Reading(board, position, power.upper(), build_rule or build_rule_for(board.variant), modules)
    return _grammar(reading, text)  # type: ignore[no-any-return]


def _grammar(reading: Reading, text: str) -> Any:
    """The one grammar: the text read into an ``Intent``, then turned into the order by the kind of its
    verb in this phase, which checks it; ``OrderError`` with the reason."""
    if len(text) > MAX_ORDER_TEXT and (why := too_long(text)) is not None:
        raise OrderError(why)
    board, power = reading.board, reading.power
    if power not in board.variant.powers:
        raise OrderError(f"{power} is not a power in this game")
    text = _without_power_prefix(board.variant, text, power)
    if "/" in text and AS_FLEET.search(text):
        text = AS_FLEET.sub("F ", text)  # an A/F is ordered, and supported, as its fleet (Abstraction, 5.6)
    try:
        intent = _read(_lex(board.variant, text), text.strip())
    except OrderError:
        # Perhaps an order of a kind with its own notation: a rule module's ("establish depot PAR") or a
        # variant's conversion ("F BRE becomes army"). Each reads it, or says plainly why this game, phase
        # or place does not allow it; none knowing it, the grammar's reason stands.
        for kind in text_readers():
            order = kind.read_text(reading, text)
            if order is not None:
                return order
        raise
    reader = reader_for(reading.phase, intent.verb)
    if reader is None:
        raise OrderError(_PHASE_REFUSALS[reading.phase].format(verb=intent.verb))
    return reader.read(reading, intent)


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
        # rule modules on, or with a build rule not the variant's).
        self.key: tuple[str, str, int] | None = None
        if modules is None and build_rule in (None, self.build_rule):
            self.key = (self.power, str(position.phase.type), changes())
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
        reading = self.reading()
        try:
            order = _grammar(reading, text)
        except OrderError as err:
            answer: Answer = (None, err.reason, tuple(reading.looked), None, None)
        else:
            kind = kind_of(order)
            answer = (order, None, tuple(reading.looked), kind, kind.unit_key(order))
        if self.key is not None and not reading.whole and len(text) <= MAX_ORDER_TEXT:
            if kept is None:
                kept = self.kept = self.board.readings.setdefault(self.key, {})
            if len(kept) < MAX_ANSWERS:
                kept[text] = answer
        return answer


# The reason for a verb no kind reads in a phase.
_PHASE_REFUSALS = {
    PhaseType.MOVEMENT: "This is a movement phase: {verb} orders come later",
    PhaseType.RETREATS: "This is a retreat phase: a dislodged unit retreats or disbands",
    PhaseType.ADJUSTMENTS: "This is an adjustment phase: build, disband or waive",
}


_PREFIX_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*")


def _without_power_prefix(variant: Variant, text: str, power: str) -> str:
    """``"England: A LON H"`` -> ``"A LON H"`` when England is the one ordering."""
    m = _PREFIX_RE.match(text)
    if m is None:
        return text
    named = next(
        (
            p
            for p, info in variant.powers.items()
            if normalise_name(m.group(1)) in (p.lower(), info.name.lower())
        ),
        None,
    )
    if named is None:
        raise OrderError(f"'{m.group(1)}' is not a power in this game")
    if named != power:
        raise OrderError(
            f"These are orders for {variant.powers[named].name}, not {variant.powers[power].name}"
        )
    return text[m.end() :]


def order_unit(order: Order) -> str | None:
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
        if not text or text[0] == "#":
            continue
        # The memo's answer when the units it looked at stand as they did (``OrderReader.answer``'s check,
        # here for the loop's sake), else the grammar's.
        found = kept.get(text) if kept is not None and len(text) <= MAX_ORDER_TEXT else None
        if found is None or not still_true(found[2], units):
            found = texts.answer(text)
        order, why, _, kind, key = found
        if why is not None:
            results.append(ParsedLine(number, text, None, why))
            continue
        assert kind is not None
        if kind.beside:
            reading = reading or texts.reading()
            why = kind.batch_problem(reading, order, beside)
            if why is not None:
                results.append(ParsedLine(number, text, None, why))
                continue
            beside.append(order)
        if key is not None and key in seen and one_per_unit:
            why = f"{board.province_name(key)} already has an order on line {seen[key]}"
            results.append(ParsedLine(number, text, None, why))
            continue
        if winter and isinstance(order, Build | Disband):
            adjustments += 1
            if adjustments > allowed:
                kind_name = "build" if isinstance(order, Build) else "disband"
                due = (
                    f"Only {allowed} {kind_name} is due"
                    if allowed == 1
                    else f"Only {allowed} {kind_name}s are due"
                )
                results.append(ParsedLine(number, text, None, f"{due} this winter"))
                continue
        if key is not None:
            seen[key] = number
        results.append(ParsedLine(number, text, order, None, None, position))
    return results


def checked_together(reading: Reading, lines: list[ParsedLine]) -> list[ParsedLine]:
    """A power's lines, each read on its own, checked as a set by the kind of each order among them that
    has such a check (``Kind.check_together``): a line refused there keeps what it read as."""
    classes = {type(line.order) for line in lines}
    kinds = [kind for kind in checking_together() if kind.order_class in classes]
    if not kinds:
        return lines
    given = [line for line in lines if line.order is not None]
    orders = [line.order for line in given]
    refused: dict[int, str] = {}
    for kind in kinds:
        refused.update(kind.check_together(reading, orders))
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
