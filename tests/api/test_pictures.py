"""Map pictures cost seconds to draw: widths snap to a few sizes, each picture is drawn once and kept in
Django's cache, and anonymous reads are limited."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from dipserver.api import phases
from dipserver.api.pictures import PNG_WIDTHS, png_width
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch):
    """The widths of every PNG actually drawn (each call of the renderer), in order."""
    real, widths = phases.render_png, []

    def counted(*args, width=None, **kwargs):
        widths.append(width)
        return real(*args, width=width, **kwargs)

    monkeypatch.setattr(phases, "render_png", counted)
    return widths


def _png(game, width: str, client=None):
    return (client or client_for()).get(f"/api/v1/games/{game.id}/phases/0/map.png", {"width": width})


def test_three_near_widths_are_drawn_once(game, drawn):
    bodies = {_png(game, width).content for width in ("4000", "3999", "3998")}
    assert drawn == [PNG_WIDTHS[-1]]
    assert len(bodies) == 1


@pytest.mark.parametrize(
    ("asked", "drawn_at"), [("100", 400), ("400", 400), ("401", 800), ("1599", 1600), ("4000", 3200)]
)
def test_a_width_is_rounded_up_to_the_next_documented_size(asked, drawn_at):
    assert png_width(asked) == drawn_at


def test_without_a_width_the_map_is_drawn_at_its_own_size_once(game, drawn):
    client_for().get(f"/api/v1/games/{game.id}/phases/0/map.png")
    client_for().get(f"/api/v1/games/{game.id}/phases/0/map.png")
    assert drawn == [None]


def test_a_picture_is_kept_in_djangos_cache_not_in_one_process(game, drawn):
    _png(game, "800")
    assert any(key.startswith(":1:dipserver:picture:") for key in cache._cache)  # the test cache: locmem
    cache.clear()  # as if another worker, or after a restart: the picture is drawn again
    _png(game, "800")
    assert drawn == [800, 800]


def test_a_width_out_of_range_is_refused_before_anything_is_drawn(game, drawn):
    for width in ("99", "4001", "wide", "-5"):
        answer = _png(game, width)
        assert (answer.status_code, list(answer.json()["error"]["fields"])) == (400, ["width"])
    assert drawn == []


def test_anonymous_picture_reads_are_limited_per_address(game, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "pictures": "2/min"}
    path = f"/api/v1/games/{game.id}/phases/0/map.svg"
    codes = [client_for().get(path).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    forged = client_for().get(path, HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert forged.status_code == 429


def test_players_pictures_are_not_limited(game, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "pictures": "1/min"}
    france = client_for(user_of(game, "FRANCE"))
    path = f"/api/v1/games/{game.id}/phases/0/map.svg"
    assert [france.get(path).status_code for _ in range(3)] == [200, 200, 200]
