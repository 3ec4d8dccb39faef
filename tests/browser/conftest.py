"""Playwright in Debian's Chromium against pytest-django's live server.

``./dip test`` installs the ``chromium`` package when it is missing. Without a usable Chromium these tests
skip on a developer's machine but FAIL when ``CI`` is set, so a broken CI image cannot pass silently.
Screenshots go to ``artifacts/browser/`` (git-ignored).
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("DIPSERVER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1440, "height": 900}


def chromium_problem() -> str | None:
    """Why Chromium cannot be used here, or None when it can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)"
    try:
        subprocess.run([CHROMIUM, "--version"], capture_output=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{CHROMIUM} does not run: {exc}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"the playwright package is missing: {exc}"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium for one test module. Playwright's sync API runs an event loop in this thread meanwhile;
    the ORM calls the tests make between browser steps are still plain synchronous code, so Django's
    async guard is told to let them through, for this module only."""
    problem = chromium_problem()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"Browser tests cannot run in CI: {problem}", pytrace=False)
        pytest.skip(problem)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)  # a busy CI machine draws maps slower than a laptop
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()


class _OneRequestAtATime:
    """The live server's handler, taking a lock per request.

    The test database is SQLite in memory, so the live server's threads and the test share one
    connection; Chromium's parallel requests on it at once corrupt SQLite's parser state. The lock makes
    them take turns, and the test takes the same lock around its own database steps (``live_server.lock``).
    """

    lock = threading.RLock()

    def __init__(self, handler):
        from django.contrib.staticfiles.handlers import StaticFilesHandler

        self.inner = StaticFilesHandler(handler)

    def __call__(self, environ, start_response):
        with self.lock:
            return self.inner(environ, start_response)


@pytest.fixture(scope="session")
def live_server(request, django_db_setup) -> Iterator[object]:
    """pytest-django's live server, serving one request at a time (see ``_OneRequestAtATime``)."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer(os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS", "localhost"), start=False)
    server.thread.static_handler = _OneRequestAtATime
    server.lock = _OneRequestAtATime.lock
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def server_idle_before_flush(request, transactional_db) -> Iterator[None]:
    """After each browser test, before its database is flushed: the test's pages closed and the live
    server's last request finished. A page left open (the game page polls its timeline) could otherwise
    be served while the flush runs, and SQLite refuses the flush ("database table is locked"). Set up
    after ``transactional_db``, so it is torn down before the flush."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
    if "live_server" in request.fixturenames:
        with request.getfixturevalue("live_server").lock:
            pass  # a request in flight holds the lock until it is answered


@pytest.fixture
def shoot(request):
    """``shoot(page, "name")`` saves a full-page screenshot as a test artifact (``full_page=False``: only
    what the screen shows)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
