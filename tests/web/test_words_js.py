"""static/js/words.js, run in Node: the game page's sentences about orders just sent."""

from __future__ import annotations

import pytest

from tests.web.node_js import js_value


def saved_words(rejected: int, total: int) -> str:
    return str(js_value("words.js", f"words.savedWords({rejected}, {total})"))


@pytest.mark.parametrize(
    ("rejected", "total", "words"),
    [
        (0, 3, "Orders saved."),
        (1, 1, "The order was rejected: see why below."),
        (2, 2, "All 2 orders were rejected: see why below."),
        (1, 3, "1 of 3 orders was rejected (see why below); the other 2 are saved."),
        (2, 3, "2 of 3 orders were rejected (see why below); the other one is saved."),
    ],
)
def test_the_notice_after_sending_orders_claims_only_what_was_saved(rejected, total, words):
    assert saved_words(rejected, total) == words
