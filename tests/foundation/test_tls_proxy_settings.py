"""Production behind the TLS proxy (``BEHIND_TLS_PROXY=true``): secure cookies and HSTS are on by default,
and a setting that would switch them off stops start-up in one line."""

from __future__ import annotations

import pytest

from .conftest import Run, one_line_error

PRODUCTION = {"SECRET_KEY": "k3y-" + "x" * 48, "ALLOWED_HOSTS": "dip.example.org,.example.net"}
BEHIND_PROXY = {**PRODUCTION, "BEHIND_TLS_PROXY": "true"}
ONE_YEAR = 365 * 24 * 3600


def _settings(manage: Run, names: str, **env: str) -> list[str]:
    """The production settings' values of ``names`` (comma-separated), as printed by a fresh process."""
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s;"
        f"print(*[getattr(s, n) for n in {names.split(',')!r}], sep='|')",
        settings="production",
        **env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("|")


def test_behind_the_proxy_cookies_are_secure_and_hsts_lasts_a_year(manage: Run) -> None:
    names = "SESSION_COOKIE_SECURE,CSRF_COOKIE_SECURE,SECURE_HSTS_SECONDS,SECURE_SSL_REDIRECT"
    assert _settings(manage, names, **BEHIND_PROXY) == ["True", "True", str(ONE_YEAR), "True"]


def test_behind_the_proxy_the_forwarded_scheme_is_believed(manage: Run) -> None:
    assert _settings(manage, "SECURE_PROXY_SSL_HEADER", **BEHIND_PROXY) == [
        "('HTTP_X_FORWARDED_PROTO', 'https')"
    ]


def test_behind_the_proxy_forms_are_trusted_from_the_https_origins_of_the_hosts(manage: Run) -> None:
    assert _settings(manage, "CSRF_TRUSTED_ORIGINS", **BEHIND_PROXY) == ["['https://dip.example.org']"]
    env = {**BEHIND_PROXY, "CSRF_TRUSTED_ORIGINS": "https://play.example.org"}
    assert _settings(manage, "CSRF_TRUSTED_ORIGINS", **env) == ["['https://play.example.org']"]


def test_an_answer_through_the_proxy_carries_hsts(manage: Run) -> None:
    probe = (
        # The process's own checks (database, broker): the site's (heartbeat, overdue phases) need workers.
        "from django.test import Client; r = Client().get('/healthz?scope=process',"
        " HTTP_HOST='dip.example.org', HTTP_X_FORWARDED_PROTO='https');"
        " print(r.status_code, r.headers.get('Strict-Transport-Security'))"
    )
    result = manage("shell", "--no-imports", "-c", probe, settings="production", **BEHIND_PROXY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", f"max-age={ONE_YEAR}"]


def test_hsts_may_be_shortened_to_try_it_first(manage: Run) -> None:
    assert _settings(manage, "SECURE_HSTS_SECONDS", **BEHIND_PROXY, SECURE_HSTS_SECONDS="300") == ["300"]


def test_without_the_proxy_hsts_stays_off_unless_asked_for(manage: Run) -> None:
    assert _settings(manage, "SECURE_HSTS_SECONDS", **PRODUCTION) == ["0"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SECURE_COOKIES": "false"}, "dipserver: SECURE_COOKIES cannot be false with BEHIND_TLS_PROXY=true"),
        ({"SECURE_HSTS_SECONDS": "0"}, "dipserver: SECURE_HSTS_SECONDS must be more than 0"),
        ({"SECURE_HSTS_SECONDS": "-5"}, "dipserver: SECURE_HSTS_SECONDS must be more than 0"),
    ],
)
def test_behind_the_proxy_nothing_switches_them_off(manage: Run, env: dict[str, str], message: str) -> None:
    line = one_line_error(manage("check", settings="production", **BEHIND_PROXY, **env))
    assert line.startswith(message)
