"""A picture nobody has drawn yet, asked for by many at once (a phase opens and every page asks for its
map), is drawn once: the first caller draws it under a cache lock and the others wait for its result."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache

from dipserver.core import picture_cache as pictures

CALLERS = 8


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _slow_drawing(drawn: list[int], started: threading.Event):
    def draw() -> bytes:
        drawn.append(1)
        started.set()
        # Long enough that every other caller asks while this one is still drawing.
        threading.Event().wait(0.3)
        return b"picture"

    return draw


def _ask_all_at_once(draw) -> list[bytes | str]:
    barrier = threading.Barrier(CALLERS)

    def ask() -> bytes | str:
        barrier.wait()
        return pictures.picture("dipserver:picture:test", draw, processed=True)

    with ThreadPoolExecutor(CALLERS) as pool:
        return list(pool.map(lambda _: ask(), range(CALLERS)))


def test_concurrent_requests_for_an_uncached_picture_draw_it_once():
    drawn: list[int] = []
    bodies = _ask_all_at_once(_slow_drawing(drawn, threading.Event()))
    assert len(drawn) == 1
    assert bodies == [b"picture"] * CALLERS


def test_a_drawing_that_fails_releases_the_lock_for_the_next_caller():
    def broken() -> bytes:
        raise RuntimeError("the renderer failed")

    with pytest.raises(RuntimeError):
        pictures.picture("dipserver:picture:test", broken, processed=False)
    assert pictures.picture("dipserver:picture:test", lambda: b"drawn", processed=False) == b"drawn"


def test_a_waiter_draws_the_picture_itself_when_the_lock_outlives_its_wait(monkeypatch):
    monkeypatch.setattr(pictures, "LOCK_SECONDS", 0.2)
    cache.add("dipserver:picture:test:drawing", 1, 60)  # a drawer that died holding the lock
    assert pictures.picture("dipserver:picture:test", lambda: b"drawn", processed=False) == b"drawn"
