"""The words of the order notation: a text into items, each a place (a province of the variant, perhaps
with a coast), a unit type or an order word, for the grammar (``grammar.py``) to read.

Places are the variant's names (codes, names and aliases, in any case, hyphens and full stops as spaces),
the longest that fits taken first (``North Atlantic Ocean`` before ``North``); coasts are written after
their province as ``/nc``, ``(nc)``, `` nc`` or ``north coast``. A word that is neither a place nor an
order word refuses the text (``OrderError``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from dipserver.engine.kinds.reading import Loc
from dipserver.engine.orders import OrderError
from dipserver.engine.types import UnitType
from dipserver.engine.variant import Variant, normalise_name

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


Item = tuple[str, object]  # ("kw", kind) | ("type", UnitType) | ("loc", Loc)


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


def lex(variant: Variant, text: str) -> list[Item]:
    tokens = _tokens(text)
    items: list[Item] = []
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
