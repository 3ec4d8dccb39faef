"""What docker-compose runs, minus Docker: production settings under gunicorn, with static files
collected and served by WhiteNoise, against PostgreSQL and Redis, and a worker running tasks."""

from __future__ import annotations

import datetime as dt
import json
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
from django.utils import timezone

from dipserver.accounts.tokens import token_create
from dipserver.core.models import WorkerHeartbeat
from dipserver.core.tasks import heartbeat
from dipserver.games.models import Phase, Power

from .conftest import ROOT, Worker, due_game, restart_postgres

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
        "-c",
        "dipserver/config/gunicorn.py",  # production's settings, but a free port
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
            # Not up yet: refused, or (its workers still loading on a busy machine) no answer in time.
            except (urllib.error.URLError, ConnectionError, TimeoutError):
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


def _api(base: str, method: str, path: str, token: str, body: object = None) -> int:
    """The status of an API call; an error answer is a status too, not an exception."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Host": HOST, "Authorization": f"Token {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_no_request_fails_after_a_postgres_restart(production_site: str) -> None:
    """gunicorn keeps its database connection between requests (CONN_MAX_AGE); a restart kills it."""
    game = due_game("web-restart")
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() + dt.timedelta(hours=1))
    token = token_create(user=Power.objects.get(game=game, name="FRANCE").user, name="restart")[1]
    # The ready call's first query is inside a transaction (the token is remembered in-process).
    calls = [
        ("PUT", f"/api/v1/games/{game.id}/ready", {"phase": game.current_phase.name, "ready": False}),
        ("GET", f"/api/v1/games/{game.id}", None),
    ]
    assert [_api(production_site, method, path, token, body) for method, path, body in calls] == [200, 200]

    restart_postgres()

    statuses = [_api(production_site, method, path, token, body) for method, path, body in calls * 2]
    assert statuses == [200, 200, 200, 200]
