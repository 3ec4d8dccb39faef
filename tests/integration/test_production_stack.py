"""What docker-compose runs, minus Docker: production settings under gunicorn, with static files
collected and served by WhiteNoise, against PostgreSQL and Redis, and a worker running tasks."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from http.client import HTTPResponse
from pathlib import Path

import pytest

from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat

from .conftest import ROOT, Worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HOST = "dip.example.org"


@pytest.fixture
def production_site(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[str]:
    """gunicorn serving production settings on a free port; yields its base URL."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.production",
        "SECRET_KEY": "integration-" + "k" * 40,
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": postgres_url,
        "CELERY_BROKER_URL": redis_url,
        "STATIC_ROOT": str(tmp_path / "static"),
        "DIPSERVER_VAR_DIR": str(tmp_path / "var"),
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = (tmp_path / "gunicorn.log").open("wb")
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "dipserver.config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(base, "/healthz")
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"gunicorn did not come up:\n{(tmp_path / 'gunicorn.log').read_text()}")
                time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _get(base: str, path: str) -> HTTPResponse:
    return urllib.request.urlopen(urllib.request.Request(base + path, headers={"Host": HOST}), timeout=10)


def test_production_site_serves_pages_hashed_static_files_and_health(production_site: str) -> None:
    home = _get(production_site, "/").read().decode()
    (stylesheet,) = re.findall(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home)  # manifest-hashed
    css = _get(production_site, stylesheet)
    assert css.status == 200 and "text/css" in css.headers["Content-Type"]
    assert "max-age=315360000" in css.headers["Cache-Control"]  # WhiteNoise: hashed files cache forever
    assert _get(production_site, "/admin/login/").status == 200

    health = _get(production_site, "/healthz").read().decode()
    assert '"detail": "postgresql"' in health and '"detail": "redis://' in health


def test_unknown_host_is_refused(production_site: str) -> None:
    request = urllib.request.Request(production_site + "/", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    assert error.value.code == 400


def test_heartbeat_round_trip_through_redis(celery_worker: Worker, wait_for: Callable[..., object]) -> None:
    """The beat entry's task, sent as beat sends it, is run by the worker and seen by the site."""
    heartbeat.apply_async(queue=celery_worker.queue)
    wait_for(lambda: WorkerHeartbeat.objects.filter(name="celery").exists(), what="the heartbeat")
