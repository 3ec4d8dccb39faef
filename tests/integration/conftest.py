"""Fixtures for tests against real PostgreSQL, Redis and a real Celery worker process.

These run in `.ci/run`'s integration stage (``pytest -m integration``). When a service is missing they
skip on a developer's machine, but FAIL when ``CI`` is set, so CI can never pass without them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKER_START_TIMEOUT = 60.0


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"integration service unavailable (CI is set, so this fails): {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url(django_db_setup: None, django_db_blocker: object) -> str:
    """A URL for the test database pytest-django created, after checking it is a live PostgreSQL."""
    from django.db import OperationalError, connection

    if connection.vendor != "postgresql":
        unavailable(f"DATABASE_URL must point at PostgreSQL for integration tests (got {connection.vendor})")
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        try:
            connection.ensure_connection()
        except OperationalError as exc:
            unavailable(f"cannot reach PostgreSQL: {exc}")
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def redis_url() -> str:
    from django.conf import settings

    from dipserver.core.health import broker_status

    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        unavailable(f"CELERY_BROKER_URL must point at Redis for integration tests (got {url})")
    from dipserver.config import celery_app

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False  # so broker_status really connects
    try:
        status = broker_status()
    finally:
        celery_app.conf.task_always_eager = eager
    if not status.ok:
        unavailable(f"cannot reach Redis: {status.detail}")
    return url


@dataclass(frozen=True)
class Worker:
    nodename: str
    queue: str
    process: subprocess.Popen[bytes]
    log: Path


@pytest.fixture(scope="session")
def celery_worker(
    postgres_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Worker]:
    """A real `celery worker` process on Redis, writing to the test database, on a queue of its own.

    The private queue keeps this run's tasks away from any other worker using the same Redis.
    """
    from dipserver.config import celery_app

    run = uuid.uuid4().hex[:8]
    worker = Worker(
        nodename=f"integration-{run}@localhost",
        queue=f"dipserver-integration-{run}",
        process=None,  # type: ignore[arg-type]
        log=tmp_path_factory.mktemp("celery") / "worker.log",
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.test",
        "DATABASE_URL": postgres_url,
        "CELERY_BROKER_URL": redis_url,
    }
    command = [
        sys.executable, "-m", "celery", "-A", "dipserver.config", "worker",
        "--loglevel=INFO", "--pool=solo", "--without-gossip", "--without-mingle",
        "-n", worker.nodename, "-Q", worker.queue,
    ]  # fmt: skip
    with worker.log.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    worker = Worker(worker.nodename, worker.queue, process, worker.log)

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        _wait_until_ready(worker, celery_app)
        yield worker
    finally:
        celery_app.conf.task_always_eager = eager
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_ready(worker: Worker, app: object) -> None:
    deadline = time.monotonic() + WORKER_START_TIMEOUT
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            pytest.fail(
                f"celery worker exited ({worker.process.returncode}):\n{_tail(worker.log)}", pytrace=False
            )
        if app.control.ping(destination=[worker.nodename], timeout=1.0):  # type: ignore[attr-defined]
            return
    pytest.fail(
        f"celery worker did not answer a ping within {WORKER_START_TIMEOUT:.0f}s:\n{_tail(worker.log)}"
    )


def _tail(path: Path, lines: int = 40) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture
def wait_for() -> Callable[..., object]:
    """Poll ``probe()`` until it returns something truthy, or fail after ``timeout`` seconds."""

    def wait(probe: Callable[[], object], *, timeout: float = 30.0, what: str = "the worker") -> object:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = probe()
            if result:
                return result
            time.sleep(0.2)
        pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")

    return wait
