"""Fixtures for tests against real PostgreSQL, Redis and a real Celery worker process.

These run in `.ci/run`'s integration stage (``pytest -m integration``). When a service is missing they
skip on a developer's machine, but FAIL when ``CI`` is set, so CI can never pass without them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from dipserver.games.models import Game

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
        "CELERY_TASK_ALWAYS_EAGER": "false",
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


def restart_postgres() -> None:
    """Restart the local PostgreSQL cluster (every connection to it dies) and wait until it answers."""
    clusters = sorted(Path("/etc/postgresql").glob("*"), key=lambda p: [int(x) for x in p.name.split(".")])
    if not clusters:
        unavailable("no local PostgreSQL cluster under /etc/postgresql to restart")
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", clusters[-1].name, "main", "restart"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        unavailable(f"cannot restart PostgreSQL: {done.stderr.strip() or done.stdout.strip()}")
    deadline = time.monotonic() + 60
    while subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0:
        if time.monotonic() > deadline:
            pytest.fail("PostgreSQL did not answer within 60 s of its restart")
        time.sleep(0.2)
    from django.db import connections

    connections.close_all()  # this process's own connections died too; the test is about the others'


class Workers:
    """Celery worker processes on one private queue; producers in this process route to it."""

    def __init__(self, postgres_url: str, redis_url: str, folder: Path) -> None:
        self.queue = f"dipserver-games-{uuid.uuid4().hex[:8]}"
        self.env = {**os.environ, "DATABASE_URL": postgres_url, "CELERY_BROKER_URL": redis_url}
        self.env["DJANGO_SETTINGS_MODULE"] = "dipserver.config.settings.test"
        self.env["CELERY_TASK_DEFAULT_QUEUE"] = self.queue  # what the workers' tasks queue goes there too
        self.env["CELERY_TASK_ALWAYS_EAGER"] = "false"  # ...through Redis, not run inside the queuing task
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []
        self.nodenames: list[str] = []

    def start(self) -> subprocess.Popen[bytes]:
        name = f"games-{uuid.uuid4().hex[:8]}@localhost"
        log = self.folder / f"{name}.log"
        command = [
            sys.executable, "-m", "celery", "-A", "dipserver.config", "worker", "--loglevel=INFO",
            "--pool=solo", "--without-gossip", "--without-mingle", "-n", name, "-Q", self.queue,
        ]  # fmt: skip
        with log.open("wb") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.processes.append(process)
        self.logs.append(log)
        self.nodenames.append(name)
        from dipserver.config import celery_app

        _wait_until_ready(_Named(name, process, log), celery_app)
        return process

    def beat(self) -> subprocess.Popen[bytes]:
        """A real `celery beat` sending the site's schedule (the deadline sweep every second) to this
        queue; stopped with the workers."""
        log = self.folder / "beat.log"
        command = [
            sys.executable, "-m", "celery", "-A", "dipserver.config", "beat", "--loglevel=INFO",
            "--schedule", str(self.folder / "beat-schedule"),
        ]  # fmt: skip
        with log.open("wb") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def outcomes(self) -> list[str]:
        """What each finished phase_process task returned, across all workers."""
        return [
            line.rsplit(": ", 1)[-1].strip("'")
            for log in self.logs
            for line in log.read_text(errors="replace").splitlines()
            if "dipserver.games.phase_process" in line and "succeeded" in line
        ]

    def errors(self) -> list[str]:
        return [
            line
            for log in self.logs
            for line in log.read_text(errors="replace").splitlines()
            if "ERROR" in line or "Traceback" in line
        ]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


class _Named:
    """The shape ``_wait_until_ready`` expects."""

    def __init__(self, nodename: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.nodename, self.process, self.log = nodename, process, log


@pytest.fixture
def workers(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Workers]:
    from dipserver.config import celery_app

    pool = Workers(postgres_url, redis_url, tmp_path)
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager, conf.task_default_queue = False, pool.queue
    try:
        yield pool
    finally:
        conf.task_always_eager, conf.task_default_queue = saved
        pool.stop()


def due_game(tag: str) -> Game:
    """A started standard game whose first phase is past its deadline."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from dipserver.games.models import Phase
    from dipserver.games.services.games import game_create, game_join

    users = [get_user_model().objects.create(username=f"{tag}-{i}-{uuid.uuid4().hex[:6]}") for i in range(7)]
    game = game_create(name=f"Integration {tag}", variant="standard")
    for user in users:
        game_join(game_id=game.id, user=user)
    Phase.objects.filter(game=game).update(deadline=timezone.now() - dt.timedelta(minutes=1))
    game.refresh_from_db()
    return game


def processed_once(game: Game) -> bool:
    from dipserver.games.models import Phase

    phases = list(Phase.objects.filter(game=game).order_by("index").values_list("index", "status"))
    return phases == [(0, Phase.Status.PROCESSED), (1, Phase.Status.OPEN)]


@contextlib.contextmanager
def redis_stopped(url: str) -> Iterator[None]:
    """Shut the local Redis server down for the block, then start it again as .ci/run does (no
    persistence) and wait until it answers. Whatever happens in the block, Redis is started again."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", str(parts.port or 6379)
    cli = ["redis-cli", "-h", host, "-p", port]
    if subprocess.run([*cli, "shutdown", "nosave"], capture_output=True, timeout=30).returncode != 0:
        unavailable(f"cannot shut Redis down at {host}:{port}")
    try:
        yield
    finally:
        Path("/var/log/redis").mkdir(parents=True, exist_ok=True)
        Path("/var/lib/redis").mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", port,
             "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis",
             "--logfile", "/var/log/redis/ci.log"],
            check=True, timeout=30,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while subprocess.run([*cli, "ping"], capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                pytest.fail("Redis did not answer within 30 s of being started again")
            time.sleep(0.2)
