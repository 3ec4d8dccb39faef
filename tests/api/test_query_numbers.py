"""Whole numbers in query parameters: a page from 1 (``page=0`` is a 400, not a 404), and digits in ASCII
only: a superscript two or Arabic-Indic digits are a 400 that names the parameter, never a 500 or a
number read."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

NOT_ASCII = (
    "\u00b2",
    "\u0661",
    "\u0967\u0968",
    "\uff11",
)  # superscript 2, Arabic-Indic 1, Devanagari 12, fullwidth 1


def _refused(answer, parameter: str) -> None:
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "invalid"
    assert parameter in answer.json()["error"]["fields"]


@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.0", "", *NOT_ASCII])
def test_a_page_that_is_not_a_whole_number_from_1_is_a_400(game, page):
    _refused(client_for().get("/api/v1/games", {"page": page}), "page")


def test_the_first_and_the_last_page_are_found_and_one_past_the_end_is_a_404(game):
    client = client_for()
    assert client.get("/api/v1/games", {"page": "1"}).status_code == 200
    assert client.get("/api/v1/games", {"page": "last"}).status_code == 200
    assert client.get("/api/v1/games", {"page": "2"}).status_code == 404


@pytest.mark.parametrize("size", NOT_ASCII)
def test_a_page_size_in_other_digits_is_a_400(game, size):
    _refused(client_for().get("/api/v1/games", {"page_size": size}), "page_size")


@pytest.mark.parametrize("since", NOT_ASCII)
def test_a_since_in_other_digits_is_a_400(game, since):
    _refused(client_for().get(f"/api/v1/games/{game.id}/press/public", {"since": since}), "since")


@pytest.mark.parametrize(
    "width", ["\uff18\uff10\uff10", "\u0668\u0660\u0660"]
)  # 800: fullwidth, Arabic-Indic
def test_a_picture_width_in_other_digits_is_a_400(game, width):
    _refused(client_for().get(f"/api/v1/games/{game.id}/phases/0/map.png", {"width": width}), "width")
