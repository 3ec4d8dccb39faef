"""Map pictures cost seconds to draw: widths snap to a few sizes, each picture is drawn once and kept in
Django's cache, a PNG is drawn by a picture worker (never in a web process: 202 and a placeholder until it
is there), and anonymous reads are limited."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

from dipserver.api import phases
from dipserver.api.pictures import PNG_WIDTHS, png_width
from dipserver.games import pictures
from dipserver.games.tasks import picture_draw
from tests.api.conftest import client_for, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch):
    """The widths of every PNG actually drawn (each call of the renderer), in order."""
    real, widths = pictures.render_png, []

    def counted(*args, width=None, **kwargs):
        widths.append(width)
        return real(*args, width=width, **kwargs)

    monkeypatch.setattr(pictures, "render_png", counted)
    return widths


@pytest.fixture
def queued(monkeypatch, celery_conf):
    """Tasks go to the broker as in production (nobody runs them here): the picture jobs sent, in order."""
    celery_conf(task_always_eager=False, broker_url="memory://")
    sent = []
    real = phases.job_send

    def spy(name, *args):
        sent.append((name, *args))
        return real(name, *args)

    monkeypatch.setattr(phases, "job_send", spy)
    return sent


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


def test_signed_in_picture_reads_are_limited_per_user_at_their_own_rate(game, settings):
    settings.DIPSERVER_API_THROTTLES = {
        **settings.DIPSERVER_API_THROTTLES, "pictures": "1/min", "user_pictures": "2/min"
    }  # fmt: skip
    france = client_for(user_of(game, "FRANCE"))
    path = f"/api/v1/games/{game.id}/phases/0/map.svg"
    assert [france.get(path).status_code for _ in range(3)] == [200, 200, 429]
    # From another address the same login is still counted; another login has its own count.
    assert france.get(path, REMOTE_ADDR="198.51.100.2").status_code == 429
    assert client_for(user_of(game, "ENGLAND")).get(path).status_code == 200


def test_a_refused_picture_says_when_to_ask_again(game, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "user_pictures": "1/min"}
    france = client_for(user_of(game, "FRANCE"))
    path = f"/api/v1/games/{game.id}/phases/0/map.png?width=800"
    france.get(path)
    refused = france.get(path)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["error"]["code"] == "throttled"


class TestDrawnByAPictureWorker:
    def test_an_uncached_png_is_queued_and_answered_202_with_a_placeholder(self, game, drawn, queued):
        answer = _png(game, "800")
        assert answer.status_code == 202
        assert answer["Content-Type"] == "image/png" and answer.content.startswith(b"\x89PNG")
        assert (answer["Retry-After"], answer["Cache-Control"]) == ("2", "no-store")
        assert drawn == []  # nothing drawn in the web process
        assert [job[0] for job in queued] == ["picture_draw"]

    def test_polling_meanwhile_queues_it_once(self, game, drawn, queued):
        codes = [_png(game, "800").status_code for _ in range(3)]
        assert codes == [202, 202, 202]
        assert len(queued) == 1

    def test_once_the_worker_has_drawn_it_the_web_answers_from_the_cache(self, game, drawn, queued):
        _png(game, "800")
        (_name, *args) = queued[0]
        assert picture_draw(*args)  # what the picture worker runs
        answer = _png(game, "800")
        assert answer.status_code == 200 and answer.content.startswith(b"\x89PNG")
        assert drawn == [800]
        assert _png(game, "1600").status_code == 202  # another size: its own drawing

    def test_a_map_that_cannot_be_drawn_is_a_404_not_a_placeholder_forever(self, game, queued, monkeypatch):
        def broken(*args, **kwargs):
            raise pictures.GeometryError("no geometry for this board")

        monkeypatch.setattr(pictures, "render_png", broken)
        _png(game, "800")
        assert not picture_draw(*queued[0][1:])
        answer = _png(game, "800")
        assert answer.status_code == 404
        assert "no geometry for this board" in answer.content.decode()

    def test_pictures_have_a_queue_of_their_own(self):
        route = django_settings.CELERY_TASK_ROUTES["dipserver.games.picture_draw"]
        assert route == {"queue": "pictures"}
