"""Where throttle counts and map pictures are kept, and whose forwarded addresses are believed."""

from __future__ import annotations

import pytest

from dipserver.config.env import ConfigError, cache_from_url, proxy_count

from .conftest import Run, one_line_error
from .test_settings_modules import GOOD_PRODUCTION

SHOW_CACHE = (
    "from django.conf import settings as s; c = s.CACHES['default']; print(c['BACKEND'], c['LOCATION'])"
)


def test_local_settings_keep_the_cache_in_memory(manage: Run) -> None:
    result = manage("shell", "--no-imports", "-c", SHOW_CACHE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "django.core.cache.backends.locmem.LocMemCache"


def test_production_without_cache_url_shares_a_directory_between_its_workers(
    manage: Run, clean_env: dict[str, str]
) -> None:
    result = manage("shell", "--no-imports", "-c", SHOW_CACHE, settings="production", **GOOD_PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.cache.backends.filebased.FileBasedCache",
        f"{clean_env['DIPSERVER_VAR_DIR']}/cache",
    ]


def test_cache_url_names_the_redis_server_every_worker_shares(manage: Run) -> None:
    env = {**GOOD_PRODUCTION, "CACHE_URL": "redis://redis:6379/1"}
    result = manage("shell", "--no-imports", "-c", SHOW_CACHE, settings="production", **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["dipserver.core.cache.OutageTolerantRedisCache", "redis://redis:6379/1"]


def test_a_malformed_cache_url_stops_start_up_with_one_line(manage: Run) -> None:
    line = one_line_error(manage("check", CACHE_URL="memcached://x:11211"))
    assert line.startswith("dipserver: CACHE_URL is not a valid cache URL: 'memcached://x:11211'")


@pytest.mark.parametrize(
    ("url", "reason"),
    [("file://relative/dir", "absolute directory"), ("redis://", "no host"), ("cache", "expected one of")],
)
def test_cache_url_problems_are_explained(url: str, reason: str) -> None:
    with pytest.raises(ConfigError, match=reason):
        cache_from_url(url)


def test_a_cache_url_password_never_appears_in_the_error() -> None:
    with pytest.raises(ConfigError) as error:
        cache_from_url("memcached://user:hunter2@x")
    assert "hunter2" not in str(error.value)


class TestTrustedProxies:
    def test_no_forwarded_address_is_believed_without_a_proxy(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("TRUSTED_PROXY_COUNT", raising=False)
        assert proxy_count(behind_proxy=False) == 0

    def test_behind_the_tls_proxy_one_proxy_is_trusted_by_default(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.delenv("TRUSTED_PROXY_COUNT", raising=False)
        assert proxy_count(behind_proxy=True) == 1
        monkeypatch.setenv("TRUSTED_PROXY_COUNT", "2")
        assert proxy_count(behind_proxy=True) == 2

    def test_a_proxy_count_without_a_proxy_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TRUSTED_PROXY_COUNT", "1")
        with pytest.raises(ConfigError, match="BEHIND_TLS_PROXY is not true"):
            proxy_count(behind_proxy=False)

    def test_a_negative_count_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TRUSTED_PROXY_COUNT", "-1")
        with pytest.raises(ConfigError, match="0 or more"):
            proxy_count(behind_proxy=True)
