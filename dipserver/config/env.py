"""Settings read from the environment, parsed in one place by django-environ.

django-environ parses the URLs (database, mail, cache), flags, numbers and lists; what it would accept
silently or report as a traceback (an unknown scheme, a missing host, ``DEBUG=perhaps``) is checked here
first and reported as a :class:`ConfigError` whose message names the variable, so start-up can stop with
one readable line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

# The development key is public on purpose; production settings refuse it.
DEV_SECRET_KEY = "django-insecure-dipserver-development-key-do-not-use-in-production"

DATABASE_SCHEMES = ("sqlite", "postgres", "postgresql", "pgsql")
BROKER_SCHEMES = ("sqla+sqlite", "filesystem", "memory", "redis", "rediss", "amqp", "pyamqp")
CACHE_SCHEMES = ("locmem", "file", "redis", "rediss")


class ConfigError(ImproperlyConfigured):
    """A setting from the environment is missing or malformed; the message names it."""


def redact(url: str) -> str:
    """Hide the password in a URL so it can be printed in errors and health reports."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


# SQLite is the embedded default (``./dip serve``, gunicorn with several workers). Django's transactions
# there are DEFERRED: one that reads and then writes cannot wait for another writer and fails at once with
# "database is locked". IMMEDIATE takes the write lock when the transaction begins, waiting up to
# ``timeout`` seconds for it; WAL lets reads go on while someone writes.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}


def database_from_url(url: str, *, setting: str = "DATABASE_URL") -> dict[str, Any]:
    """Turn a database URL into a Django DATABASES entry, or explain what is wrong with it."""
    problem = _database_url_problem(url)
    if problem is None:
        try:
            config: dict[str, Any] = environ.Env.db_url_config(url)
        except (ImproperlyConfigured, ValueError, KeyError) as exc:
            problem = str(exc)
    if problem is not None:
        raise ConfigError(f"{setting} is not a valid database URL: {redact(url)!r} ({problem})")
    if config["ENGINE"].endswith("sqlite3"):
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    # Reuse PostgreSQL connections between requests; SQLite connections are cheap.
    config.setdefault("CONN_MAX_AGE", 0 if config["ENGINE"].endswith("sqlite3") else 60)
    # A kept connection is checked before it is reused (a request, or a worker's task): after a database
    # restart the first query reconnects instead of failing.
    config.setdefault("CONN_HEALTH_CHECKS", config["CONN_MAX_AGE"] != 0)
    return config


def _database_url_problem(url: str) -> str | None:
    parts = urlsplit(url)
    if "://" not in url or parts.scheme not in DATABASE_SCHEMES:
        return "expected sqlite:///path/to/file.sqlite3 or postgres://user@host:5432/name"
    if parts.scheme == "sqlite":
        return None if parts.path.strip("/") else "no file path after sqlite:///"
    if not parts.hostname:
        return "no host"
    if not parts.path.strip("/"):
        return "no database name"
    try:
        parts.port  # noqa: B018 - urlsplit only checks the port when asked
    except ValueError:
        return "the port is not a number"
    return None


def broker_url_checked(url: str, *, setting: str = "CELERY_BROKER_URL") -> str:
    """Check that a Celery broker URL has a transport Celery knows, and return it."""
    scheme = urlsplit(url).scheme
    if "://" not in url or scheme not in BROKER_SCHEMES:
        raise ConfigError(
            f"{setting} is not a valid broker URL: {redact(url)!r} "
            f"(expected one of {', '.join(s + '://' for s in BROKER_SCHEMES)})"
        )
    return url


EMAIL_SCHEMES = tuple(environ.Env.EMAIL_SCHEMES)


def email_from_url(url: str, *, setting: str = "EMAIL_URL") -> dict[str, Any]:
    """Turn an email URL (``smtp+tls://user:password@host:587``, ``consolemail://``) into Django's
    EMAIL_* settings, or explain what is wrong with it."""
    parts = urlsplit(url)
    problem = None
    if "://" not in url or parts.scheme not in EMAIL_SCHEMES:
        problem = f"expected one of {', '.join(s + '://' for s in EMAIL_SCHEMES)}"
    elif parts.scheme.startswith("smtp"):
        try:
            parts.port  # noqa: B018 - urlsplit only checks the port when asked
        except ValueError:
            problem = "the port is not a number"
        else:
            problem = None if parts.hostname else "no host"
    if problem is not None:
        raise ConfigError(f"{setting} is not a valid email URL: {redact(url)!r} ({problem})")
    config: dict[str, Any] = environ.Env.email_url_config(url)
    return {key: value for key, value in config.items() if value not in ("", None)}


def site_url_checked(url: str, *, setting: str = "SITE_URL") -> str:
    """The site's public address, used for links in mails: http(s)://host[:port], no path."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/"):
        raise ConfigError(f"{setting} must be the site's address like https://dip.example.org, not {url!r}")
    return url.rstrip("/")


# Our cache schemes, and django-environ's names for them (``redis``/``rediss`` are the same in both).
_CACHE_SCHEMES_OF_ENVIRON = {"locmem": "locmemcache", "file": "filecache"}


def cache_from_url(url: str, *, setting: str = "CACHE_URL") -> dict[str, Any]:
    """Turn a cache URL into a Django CACHES entry: ``locmem://`` (this process only), ``file:///path``
    (every process on this host) or ``redis://host:6379/1`` (every process that reaches the server)."""
    parts = urlsplit(url)
    problem = None
    if "://" not in url or parts.scheme not in CACHE_SCHEMES:
        problem = f"expected one of {', '.join(s + '://' for s in CACHE_SCHEMES)}"
    elif parts.scheme == "file" and (parts.netloc or not parts.path.startswith("/")):
        problem = "expected an absolute directory after file://, e.g. file:///var/cache/dipserver"
    elif parts.scheme.startswith("redis") and not parts.hostname:
        problem = "no host"
    if problem is not None:
        raise ConfigError(f"{setting} is not a valid cache URL: {redact(url)!r} ({problem})")
    scheme = _CACHE_SCHEMES_OF_ENVIRON.get(parts.scheme, parts.scheme)
    if scheme.startswith("redis"):
        # Django's Redis cache, but a Redis that is down or slow fails no request (dipserver/core/cache.py).
        return {
            "BACKEND": "dipserver.core.cache.OutageTolerantRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    config: dict[str, Any] = environ.Env.cache_url_config(scheme + url[len(parts.scheme) :])
    return config


def proxy_count(*, behind_proxy: bool, name: str = "TRUSTED_PROXY_COUNT") -> int:
    """How many proxies in front of the site append to ``X-Forwarded-For``: one by default behind the TLS
    proxy, none otherwise. A client can write anything into that header, so without a proxy it is never
    read, and behind ``n`` proxies only the address the outermost one saw is believed."""
    count = integer(name, 1 if behind_proxy else 0)
    if count < 0:
        raise ConfigError(f"{name} must be 0 or more, not {count}")
    if count > 0 and not behind_proxy:
        raise ConfigError(
            f"{name} is {count} but BEHIND_TLS_PROXY is not true: forwarded addresses are trusted only "
            "behind a proxy"
        )
    return count


# Values are parsed by ``environ.Env.parse_value`` from the variable as set: ``Env``'s own getters would
# also read a value that starts with ``$`` as the name of another variable (a secret key may so start).
_parse = environ.Env.parse_value

# The words a flag may be: django-environ would read any other word as false.
_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


def _given(name: str) -> str | None:
    """The variable's value, or None when it is unset or blank (which means: the default)."""
    raw = os.environ.get(name)
    return None if raw is None or raw.strip() == "" else raw


def required(name: str) -> str:
    """An environment variable that has no safe default."""
    value = (_given(name) or "").strip()
    if not value:
        raise ConfigError(f"{name} must be set in the environment")
    return value


def flag(name: str, default: bool) -> bool:
    """A boolean variable; anything but a clear yes/no is an error rather than a silent False."""
    raw = _given(name)
    if raw is None:
        return default
    if raw.strip().lower() not in _YES + _NO:
        raise ConfigError(f"{name} must be true or false, not {raw!r}")
    return bool(_parse(raw.strip(), bool))


def integer(name: str, default: int) -> int:
    raw = _given(name)
    if raw is None:
        return default
    try:
        return int(_parse(raw, int))
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None


def listing(name: str, default: list[str]) -> list[str]:
    """A comma-separated list (blanks around and between the commas dropped)."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item for item in _parse(raw, [str.strip]) if item]


# Read .env (without overriding the real environment) before anything below looks at a variable.
if os.environ.get("DJANGO_READ_DOT_ENV_FILE", "").strip().lower() in ("1", "true", "yes", "on"):
    environ.Env.read_env(str(BASE_DIR / ".env"))

# Runtime files (SQLite database, embedded broker queues, beat schedule) live here, never in git.
VAR_DIR = Path(os.environ.get("DIPSERVER_VAR_DIR", "").strip() or BASE_DIR / "var")


@contextmanager
def exit_on_config_error() -> Iterator[None]:
    """Turn a ConfigError into one line on stderr and exit status 2, instead of a traceback."""
    try:
        yield
    except ConfigError as exc:
        print(f"dipserver: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
