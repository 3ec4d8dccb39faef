"""The words of the order notation: a text into items, each a place (a province of the variant, perhaps
with a coast), a unit type or an order word, for the grammar (``grammar.py``) to read.

Places are the variant's names (codes, names and aliases, in any case, hyphens and full stops as spaces),
the longest that fits taken first (``North Atlantic Ocean`` before ``North``); coasts are written after
their province as ``/nc``, ``(nc)``, `` nc`` or ``north coast``. A word that is neither a place nor an
order word refuses the text (``OrderError``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from dipserver.engine.definition import Variant, normalise_name
from dipserver.engine.kinds.reading import Loc
from dipserver.engine.orders import OrderError
from dipserver.engine.types import UnitType

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
# The tokens: arrows, runs of letters, digits, full stops and apostrophes, and any other character alone
# but the separators, which are left out (and "?", for a unit type the writer did not know: DATC texts).
_TOKEN_RE = re.compile(r"->|=>|[a-z0-9.']+|[^\s,:;?!]")
_MAX_NAME_WORDS = 4
# The most tokens a variant's lexicon keeps (a text brings at most ``readings.MAX_ORDER_TEXT`` characters;
# the maps' own words are a few hundred): a token past that is worked out each time it comes.
_MAX_WORDS = 5_000


Item = tuple[str, object]  # ("kw", kind) | ("type", UnitType) | ("loc", Loc)


class Word(NamedTuple):
    """What one token means in a variant's orders, worked out once (``meaning``). A named tuple, not a
    dataclass: every run that reads an order imports this module, and making a dataclass's class is a
    cost of its start-up (``docs/benchmarks.md``)."""

    norm: str  # as names are compared (``normalise_name``): "st." -> "st", "-" -> ""
    alnum: bool  # begins with a letter or digit: may begin or end a name
    inner: bool  # such a token or a hyphen: may stand inside a name ("Mid-Atlantic")
    most: int  # the most tokens a name beginning with it may take (0: no name begins with it)
    alone: str | None  # the province it names on its own; never for an order word ("s", "a")
    place: Item | None  # that province as an item, written as this token, with no coast after it
    plain: str  # without full stops and apostrophes around it ("a." -> "a")
    item: Item | None  # the unit type or order word it is, if it is one
    coast: str | None  # the coast it names after a province ("nc", "north")
    short: str | None  # the coast it names inside "/x" or "(x)", where "n" will do
    direction: bool  # "north" and the like: a coast after a province only with "coast" after it


def meaning(variant: Variant, token: str) -> Word:
    """``token`` (lower case, as ``lex`` cuts a text) in ``variant``'s orders."""
    norm = normalise_name(token)
    first = norm.split(maxsplit=1)
    most = min(_MAX_NAME_WORDS, _name_starts(variant).get(first[0], 0)) if first else 0
    alnum = token[0].isalnum()
    plain = token.strip(".'")
    item: Item | None = None
    if plain in _UNIT_WORDS:
        item = ("type", _UNIT_WORDS[plain])
    elif plain in _KEYWORDS:
        item = ("kw", _KEYWORDS[plain])
    # An order word alone is never a name: "s" supports, whatever a map calls "S".
    alone = variant.names.get(norm) if alnum and most and plain not in _KEYWORDS | _UNIT_WORDS else None
    spelled = plain.replace(".", "")
    coast = _COAST_WORDS.get(spelled)
    short = coast or _SHORT_COAST_WORDS.get(spelled)
    direction = spelled in ("north", "south", "east", "west")
    place: Item | None = ("loc", Loc(alone, None, token)) if alone is not None else None
    return Word(norm, alnum, alnum or token == "-", most, alone, place, plain, item, coast, short, direction)


@lru_cache(maxsize=64)
def _lexicon(variant: Variant) -> dict[str, Word]:
    """The tokens met in ``variant``'s orders so far, each with its meaning (filled by ``lex``)."""
    return {}


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


def _match_name(names: Mapping[str, str], words: list[Word], i: int) -> tuple[str | None, int]:
    """The longest province name starting at token ``i``: (code, tokens used), the code None where no name
    starts there. Only as many tokens are tried as the longest name beginning with that word has (none
    where no name begins with it; one, most often: then the token's own ``alone``)."""
    first = words[i]
    if first.alnum:
        for length in range(min(first.most, len(words) - i), 1, -1):
            # A name is words, perhaps joined by hyphens ("Mid-Atlantic"); arrows and brackets end it.
            # Its tokens compare as their words, each token's own joined by a space ("st." "petersburg").
            span = words[i : i + length]
            if span[-1].alnum and all(w.inner for w in span):
                code = names.get(" ".join([w.norm for w in span if w.norm]))
                if code is not None:
                    return code, length
    return first.alone, 1


def _match_coast(tokens: list[str], words: list[Word], i: int) -> tuple[str, int] | None:
    """A coast written after a province: ``/nc``, ``(nc)``, ``nc``, ``north coast``, ``(north coast)``."""
    if i >= len(tokens):
        return None
    if tokens[i] == "/":
        found = _coast_word(words, i + 1, short_ok=True)
        return (found[0], found[1] + 1) if found else None
    if tokens[i] == "(":
        found = _coast_word(words, i + 1, short_ok=True)
        if found and i + 1 + found[1] < len(tokens) and tokens[i + 1 + found[1]] == ")":
            return found[0], found[1] + 2
        return None
    return _coast_word(words, i, short_ok=False)


def _coast_word(words: list[Word], j: int, short_ok: bool) -> tuple[str, int] | None:
    if j >= len(words):
        return None
    word = words[j]
    coast = word.short if short_ok else word.coast
    if coast is None:
        return None
    if j + 1 < len(words) and words[j + 1].plain == "coast":
        return coast, 2
    if word.direction and not short_ok:
        return None  # a lone direction word after a place is too easily something else
    return coast, 1


def lex(variant: Variant, text: str) -> list[Item]:
    """``text`` cut into items: each token met before in the variant's orders is looked up, not worked
    out again."""
    cleaned = text.lower().replace("\u2013", "-").replace("\u2014", "-").replace("\u2192", "->")
    tokens = _TOKEN_RE.findall(cleaned)
    known = _lexicon(variant)
    words = []
    for token in tokens:
        word = known.get(token)
        if word is None:
            word = meaning(variant, token)
            if len(known) < _MAX_WORDS:
                known[token] = word
        words.append(word)
    names = variant.names
    items: list[Item] = []
    i = 0
    while i < len(words):
        word = words[i]
        code, used = _match_name(names, words, i) if word.most > 1 else (word.alone, 1)
        if code is not None:
            coast = _match_coast(tokens, words, i + used)
            if coast is None and used == 1 and word.place is not None:
                items.append(word.place)  # a name alone, as its token has it
            else:
                typed = " ".join(tokens[i : i + used])
                items.append(("loc", Loc(code, coast[0] if coast else None, typed)))
            i += used + (coast[1] if coast else 0)
            continue
        if word.item is not None and word.item[0] == "type":
            items.append(word.item)
        elif (
            word.plain in ("via", "by") and i + 1 < len(words) and words[i + 1].plain in ("convoy", "convoys")
        ):
            items.append(("kw", "via"))
            i += 1
        elif word.item is not None:
            items.append(word.item)
        else:
            raise OrderError(f"'{tokens[i]}' is not a place or an order word I know")
        i += 1
    return items
