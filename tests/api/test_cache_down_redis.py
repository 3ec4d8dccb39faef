"""With a real Redis as the cache: requests go on while it is killed, and it is used again within seconds
of coming back. The Redis is this test's own, on a free loopback port, so no other user of the machine's
Redis is disturbed."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.core.cache import cache

from dipserver.config.env import cache_from_url
from dipserver.core import cache as tolerant
from tests.api.conftest import client_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not answer on port {self.port} within 10 s")
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def keys(self) -> list[bytes]:
        return redis.Redis(port=self.port, db=14).keys("*")


@pytest.fixture
def own_redis(tmp_path: Path, settings) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed for this test (Debian's redis-server package)")
    server = OwnRedis(tmp_path)
    server.start()
    settings.CACHES = {"default": cache_from_url(f"redis://127.0.0.1:{server.port}/14")}
    try:
        yield server
    finally:
        server.kill()


def test_requests_go_on_while_redis_is_killed_and_it_is_used_again_once_back(
    outsider, own_redis, monkeypatch
):
    monkeypatch.setattr(tolerant, "RETRY_SECONDS", 0.3)
    client = client_for(outsider)
    write = {"time_zone": "Europe/Paris"}
    assert client.patch("/api/v1/accounts/settings", write, format="json").status_code == 200
    assert own_redis.keys(), "the write throttle keeps its count in this Redis"

    own_redis.kill()
    for _ in range(3):
        assert client.patch("/api/v1/accounts/settings", write, format="json").status_code == 200
        assert client.get("/api/v1/accounts/me").status_code == 200

    own_redis.start()  # empty: nothing was saved
    time.sleep(0.4)  # past RETRY_SECONDS
    assert client.patch("/api/v1/accounts/settings", write, format="json").status_code == 200
    assert own_redis.keys(), "back in use"
    cache.set("probe", "back")
    assert cache.get("probe") == "back"
