"""Suite-wide pytest set-up. Engine tests need no database: pytest-django opens one only for tests that
ask for it (``db`` fixture or ``django_db`` mark)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings as hypothesis_settings
from pytest_django import DjangoDbBlocker

# Property tests draw the same examples on every run and machine (a failure reproduces; a new user's first
# run is not a lottery), and no example database carries one run's finds into the next.
hypothesis_settings.register_profile("dipserver", derandomize=True, database=None)
hypothesis_settings.load_profile("dipserver")


@pytest.fixture(autouse=True)
def reproducible_game_secrets(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game a test creates gets a secret fixed by the test's id and the game's rank in the test.

    A game's secret decides every random thing in it (blizzards, random map changes, power assignment,
    the generated Ice Lords board), so this makes each test play the same games on every run. Secrets
    still differ between games and tests. A test of ``new_secret`` itself asks for ``fresh_secrets``.
    """
    if "fresh_secrets" not in request.keywords:
        _fix_game_secrets(request.node.nodeid, monkeypatch)


def _fix_game_secrets(nodeid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from dipserver import engine
    from dipserver.engine import randomness

    rank = itertools.count()

    def secret() -> str:
        return hashlib.sha256(f"{nodeid}#{next(rank)}".encode()).hexdigest()

    monkeypatch.setattr(randomness, "new_secret", secret)
    monkeypatch.setattr(engine, "new_secret", secret)  # the server's name for it, the engine's face


@pytest.fixture(scope="module")
def module_db(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[None]:
    """A transaction around a whole module, for rows its tests share: a module-scoped fixture that asks for
    this makes them once (the database open to it, game secrets fixed by the module's id). Each test that
    asks for ``db`` runs in a savepoint inside it, rolled back after the test, so what one test writes never
    reaches the next; the shared rows are rolled back when the module is done, as
    ``django.test.TestCase.setUpTestData`` does for a class. Not for a module with ``transaction=True``
    tests, which empty the tables."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        with pytest.MonkeyPatch.context() as monkeypatch, django_db_blocker.unblock():
            _fix_game_secrets(request.node.nodeid, monkeypatch)
            yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """Every test starts and ends with an empty cache: the test database reuses row ids, so a throttle
    count or a cached options list keyed by an id must not reach the next test."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say which database and broker this run used and which tests it leaves out, so CI logs show what was
    really exercised."""
    from django.conf import settings

    from dipserver.config.env import redact

    database = settings.DATABASES["default"]
    vendor = database["ENGINE"].rsplit(".", 1)[-1]
    where = database.get("HOST") or database.get("NAME")
    lines = [
        f"dipserver database: {vendor} ({where}; tests use a throw-away test database)",
        f"dipserver celery broker: {redact(settings.CELERY_BROKER_URL)}",
    ]
    # The tests a marker expression leaves out are named, never dropped unsaid.
    left_out = [mark for mark in ("slow", "integration") if f"not {mark}" in config.option.markexpr]
    if left_out:
        lines.append(
            f"left out by -m {config.option.markexpr!r}: the tests marked {' and '.join(left_out)}"
            " (.ci/run runs them; `./dip test -m slow` runs the slow ones)"
        )
    return lines


@pytest.fixture
def celery_conf() -> Iterator[Callable[..., None]]:
    """Override Celery app settings for one test: ``celery_conf(task_always_eager=False)``.

    (monkeypatch cannot undo attributes on Celery's settings object, hence this fixture.)
    """
    from dipserver.config import celery_app

    saved: dict[str, object] = {}

    def override(**values: object) -> None:
        for key, value in values.items():
            saved.setdefault(key, celery_app.conf[key])
            celery_app.conf[key] = value

    yield override
    celery_app.conf.update(saved)
