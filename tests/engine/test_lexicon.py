"""The lexicon: what each token of an order means in a variant, worked out once and then looked up.

What a text means is ``tests/engine/test_parse.py``'s business; here, that keeping the tokens' meanings
changes nothing of it, and that what is kept stays bounded whatever players type.
"""

from __future__ import annotations

import random

import pytest

from dipserver.engine import lexicon
from dipserver.engine.orders import OrderError
from dipserver.engine.variant import Variant

TEXTS = [
    "A LON - NWY VIA",
    "a lon -> nwy by convoy",
    "Army Munich supports army Paris to Burgundy",
    "F St Petersburg north coast - Barents Sea",
    "F Saint Petersburg (north coast) -> BAR",
    "F St. Petersburg - Norway",
    "F st.petersburg/nc - bar",
    "F Mid-Atlantic Ocean - Spain south coast",
    "F mid - atlantic - spa / n",
    "F MAO - SPA(sc)",
    "North Sea convoys London to Norway",
    "F NTH - North",  # a lone direction word after a place is not a coast
    "A LON \u2013 BEL, via convoy ?",
    "BUILD F STP/NC",
    "A PAR - Nowhere",
    "A PAR \u00e9 BUR",
    "",
]


def lexed(variant: Variant, text: str) -> object:
    try:
        return lexicon.lex(variant, text)
    except OrderError as err:
        return err.reason


def test_a_text_reads_the_same_with_its_tokens_kept_or_worked_out_anew(
    standard: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = [lexed(standard, text) for text in TEXTS * 2]  # the second time, every token is kept
    monkeypatch.setattr(lexicon, "_MAX_WORDS", 0)
    lexicon._lexicon.cache_clear()  # an empty lexicon, which keeps nothing: each token worked out anew
    try:
        assert [lexed(standard, text) for text in TEXTS * 2] == kept
    finally:
        lexicon._lexicon.cache_clear()


def test_a_token_is_worked_out_once_per_variant(standard: Variant) -> None:
    lexicon._lexicon.cache_clear()
    lexicon.lex(standard, "A LON - NWY")
    kept = dict(lexicon._lexicon(standard))
    assert list(kept) == ["a", "lon", "-", "nwy"]
    lexicon.lex(standard, "a lon - yor")
    assert list(lexicon._lexicon(standard)) == ["a", "lon", "-", "nwy", "yor"]
    assert all(lexicon._lexicon(standard)[token] is word for token, word in kept.items())


def test_the_lexicon_keeps_a_bounded_number_of_tokens(
    standard: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexicon, "_MAX_WORDS", 50)
    lexicon._lexicon.cache_clear()
    rng = random.Random(30)
    try:
        for _ in range(200):
            word = "".join(rng.choice("bcdfgjkqvxz") for _ in range(6))
            assert lexed(standard, f"A {word} - NWY") == f"'{word}' is not a place or an order word I know"
        assert len(lexicon._lexicon(standard)) == 50
        assert lexed(standard, "A LON - NWY") == lexed(standard, "a lon - nwy")  # still read, not kept
    finally:
        lexicon._lexicon.cache_clear()
