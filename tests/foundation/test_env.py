"""Reading settings from the environment: good values are parsed, bad ones are named in the error."""

from __future__ import annotations

import pytest

from dipserver.config.env import (
    ConfigError,
    broker_url_checked,
    cache_from_url,
    database_from_url,
    flag,
    integer,
    listing,
    redact,
    required,
)


class TestDatabaseFromUrl:
    def test_sqlite_file(self) -> None:
        config = database_from_url("sqlite:////srv/dip/var/db.sqlite3")
        assert config["ENGINE"] == "django.db.backends.sqlite3"
        assert config["NAME"] == "/srv/dip/var/db.sqlite3"

    @pytest.mark.parametrize("scheme", ["postgres", "postgresql", "pgsql"])
    def test_postgres(self, scheme: str) -> None:
        config = database_from_url(f"{scheme}://dip:secret@db.internal:5433/dipserver")
        assert config["ENGINE"] == "django.db.backends.postgresql"
        assert (config["USER"], config["PASSWORD"]) == ("dip", "secret")
        assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 5433, "dipserver")
        assert config["CONN_MAX_AGE"] == 60
        assert config["CONN_HEALTH_CHECKS"] is True  # a kept connection is checked before it is reused

    @pytest.mark.parametrize(
        ("url", "reason"),
        [
            ("postgres//x", "expected sqlite:///"),
            ("mysql://u@h/db", "expected sqlite:///"),
            ("just-a-word", "expected sqlite:///"),
            ("postgres://u@h:5432/", "no database name"),
            ("postgres:///dipserver", "no host"),
            ("postgres://u@h:port/db", "the port is not a number"),
            ("sqlite:///", "no file path"),
        ],
    )
    def test_malformed_urls_are_named_and_explained(self, url: str, reason: str) -> None:
        with pytest.raises(ConfigError) as error:
            database_from_url(url)
        message = str(error.value)
        assert message.startswith(f"DATABASE_URL is not a valid database URL: {url!r}")
        assert reason in message

    def test_password_never_appears_in_the_error(self) -> None:
        with pytest.raises(ConfigError) as error:
            database_from_url("postgres://dip:hunter2@db:5432/")
        assert "hunter2" not in str(error.value)
        assert "dip:***@db" in str(error.value)


class TestBrokerUrl:
    @pytest.mark.parametrize("url", ["filesystem://", "memory://", "redis://127.0.0.1:6379/0", "amqp://h//"])
    def test_known_transports_pass(self, url: str) -> None:
        assert broker_url_checked(url) == url

    @pytest.mark.parametrize("url", ["redis", "127.0.0.1:6379", "kafka://h:9092"])
    def test_unknown_transports_are_refused(self, url: str) -> None:
        with pytest.raises(ConfigError, match=r"^CELERY_BROKER_URL is not a valid broker URL"):
            broker_url_checked(url)


class TestScalars:
    @pytest.mark.parametrize(("raw", "value"), [("true", True), ("1", True), ("Off", False), ("no", False)])
    def test_flag_accepts_clear_yes_and_no(
        self, monkeypatch: pytest.MonkeyPatch, raw: str, value: bool
    ) -> None:
        monkeypatch.setenv("SOME_FLAG", raw)
        assert flag("SOME_FLAG", default=not value) is value

    def test_flag_refuses_anything_else(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("DEBUG", "maybe")
        with pytest.raises(ConfigError, match="DEBUG must be true or false, not 'maybe'"):
            flag("DEBUG", default=False)

    def test_unset_and_empty_mean_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("SOME_FLAG", raising=False)
        assert flag("SOME_FLAG", default=True) is True
        monkeypatch.setenv("SOME_FLAG", " ")
        assert flag("SOME_FLAG", default=False) is False

    def test_integer(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("LIMIT", "42")
        assert integer("LIMIT", 1) == 42
        monkeypatch.setenv("LIMIT", "lots")
        with pytest.raises(ConfigError, match="LIMIT must be a whole number, not 'lots'"):
            integer("LIMIT", 1)

    def test_listing_splits_commas_and_drops_blanks(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("ALLOWED_HOSTS", " dip.example.org, ,localhost ")
        assert listing("ALLOWED_HOSTS", ["x"]) == ["dip.example.org", "localhost"]
        monkeypatch.delenv("ALLOWED_HOSTS")
        assert listing("ALLOWED_HOSTS", ["x"]) == ["x"]

    def test_required(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("SECRET_KEY", "")
        with pytest.raises(ConfigError, match="SECRET_KEY must be set in the environment"):
            required("SECRET_KEY")


def test_redact_hides_only_the_password() -> None:
    assert redact("redis://:pw@cache:6379/0") == "redis://:***@cache:6379/0"
    assert redact("postgres://dip@db/dip") == "postgres://dip@db/dip"


class TestAsGiven:
    """django-environ's getters would read ``$NAME`` as another variable's value; ours take it as set."""

    def test_a_value_starting_with_a_dollar_is_itself(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("OTHER", "9")
        monkeypatch.setenv("SECRET_KEY", "$OTHER")
        monkeypatch.setenv("ALLOWED_HOSTS", "$OTHER")
        monkeypatch.setenv("LIMIT", "$OTHER")
        assert required("SECRET_KEY") == "$OTHER"
        assert listing("ALLOWED_HOSTS", []) == ["$OTHER"]
        with pytest.raises(ConfigError, match=r"LIMIT must be a whole number, not '\$OTHER'"):
            integer("LIMIT", 1)

    def test_a_flag_is_one_of_the_clear_words_only(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for word in ("ok", "y"):  # django-environ's own words for true: not clear enough here
            monkeypatch.setenv("SOME_FLAG", word)
            with pytest.raises(ConfigError, match="SOME_FLAG must be true or false"):
                flag("SOME_FLAG", default=False)


@pytest.mark.parametrize(
    ("url", "backend", "location"),
    [
        ("locmem://", "locmem.LocMemCache", ""),
        ("file:///var/cache/dipserver", "filebased.FileBasedCache", "/var/cache/dipserver"),
    ],
)
def test_cache_urls_become_djangos_caches(url: str, backend: str, location: str) -> None:
    config = cache_from_url(url)
    assert (config["BACKEND"], config["LOCATION"]) == (f"django.core.cache.backends.{backend}", location)


@pytest.mark.parametrize("url", ["redis://cache:6379/1", "rediss://:pw@cache:6380/2"])
def test_redis_cache_urls_become_the_cache_that_survives_a_redis_outage(url: str) -> None:
    config = cache_from_url(url)
    assert (config["BACKEND"], config["LOCATION"]) == ("dipserver.core.cache.OutageTolerantRedisCache", url)
