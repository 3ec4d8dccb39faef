"""EMAIL_URL, DEFAULT_FROM_EMAIL and SITE_URL, read the way the real commands read them (a fresh process)."""

from __future__ import annotations

import pytest

from .conftest import Run, one_line_error
from .test_settings_modules import GOOD_PRODUCTION

SHOW = (
    "from django.conf import settings as s;"
    "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_HOST_USER,"
    " s.EMAIL_HOST_PASSWORD, repr(s.DEFAULT_FROM_EMAIL), s.DIPSERVER_SITE_URL, sep='|')"
)


def settings_seen(manage: Run, **env: str) -> list[str]:
    result = manage("shell", "--no-imports", "-c", SHOW, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("|")


def test_locally_mail_goes_to_the_console_by_default(manage: Run) -> None:
    backend, *_, site = settings_seen(manage)
    assert backend == "django.core.mail.backends.console.EmailBackend"
    assert site == "http://127.0.0.1:8000"


def test_the_mail_server_comes_from_email_url(manage: Run) -> None:
    seen = settings_seen(
        manage,
        EMAIL_URL="smtp+tls://games%40dip.example.org:s3cret@mail.example.org:587",
        DEFAULT_FROM_EMAIL="Diplomacy <games@dip.example.org>",
        SITE_URL="https://dip.example.org/",
    )
    assert seen == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "587",
        "True",
        "games@dip.example.org",
        "s3cret",
        "'Diplomacy <games@dip.example.org>'",
        "https://dip.example.org",
    ]


def test_production_takes_email_url_and_links_to_its_own_host(manage: Run) -> None:
    seen = settings_seen(manage, settings="production", EMAIL_URL="smtp://relay:25", **GOOD_PRODUCTION)
    assert seen[:3] == ["django.core.mail.backends.smtp.EmailBackend", "relay", "25"]
    assert seen[-1] == "https://dip.example.org"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"EMAIL_URL": "smtp//mail.example.org"},
            "dipserver: EMAIL_URL is not a valid email URL: 'smtp//mail.example.org' (expected one of smtp://",
        ),
        (
            {"EMAIL_URL": "smtp+tls://u:hunter2@mail.example.org:http"},
            "dipserver: EMAIL_URL is not a valid email URL: 'smtp+tls://u:***@mail.example.org:http' "
            "(the port is not a number)",
        ),
        ({"EMAIL_URL": "smtp://"}, "dipserver: EMAIL_URL is not a valid email URL: 'smtp://' (no host)"),
        ({"SITE_URL": "dip.example.org"}, "dipserver: SITE_URL must be the site's address"),
    ],
)
def test_a_malformed_mail_setting_stops_start_up_with_one_line(
    manage: Run, env: dict[str, str], message: str
) -> None:
    line = one_line_error(manage("migrate", **env))
    assert line.startswith(message)
    assert "hunter2" not in line
