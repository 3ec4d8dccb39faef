"""The settings modules, loaded the way the real commands load them (in a fresh process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT, Run, one_line_error

# Each starts manage.py (or a server) in a process of its own: run by .ci/run's second stage.
pytestmark = pytest.mark.slow

GOOD_PRODUCTION = {
    "SECRET_KEY": "k3y-" + "x" * 48,
    "ALLOWED_HOSTS": "dip.example.org",
}


def test_local_defaults_need_no_configuration(manage: Run) -> None:
    result = manage("check")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_local_defaults_use_sqlite_under_var_and_the_transactional_embedded_broker(
    manage: Run, clean_env: dict[str, str]
) -> None:
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['NAME']); print(s.CELERY_BROKER_URL)",
    )
    assert result.returncode == 0, result.stderr
    database, broker = result.stdout.split()
    assert database == f"{clean_env['DIPSERVER_VAR_DIR']}/db.sqlite3"
    # kombu's SQLAlchemy transport on a SQLite file beside the database: messages are rows, written and
    # taken in transactions (the filesystem transport once handed the worker a half-written file).
    assert broker == f"sqla+sqlite:///{clean_env['DIPSERVER_VAR_DIR']}/celery-broker.sqlite3"


def test_database_and_broker_urls_come_from_the_environment(manage: Run) -> None:
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['ENGINE'], d['HOST'], d['NAME'], s.CELERY_BROKER_URL)",
        DATABASE_URL="postgres://dip@db.internal:5432/dipserver",
        CELERY_BROKER_URL="redis://cache:6379/2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "dipserver.core.postgresql",  # Django's PostgreSQL backend, its health check cheaper
        "db.internal",
        "dipserver",
        "redis://cache:6379/2",
    ]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"DATABASE_URL": "postgres//x"},
            "dipserver: DATABASE_URL is not a valid database URL: 'postgres//x'",
        ),
        ({"CELERY_BROKER_URL": "rabbit"}, "dipserver: CELERY_BROKER_URL is not a valid broker URL: 'rabbit'"),
        ({"DEBUG": "perhaps"}, "dipserver: DEBUG must be true or false, not 'perhaps'"),
    ],
)
def test_a_malformed_setting_stops_start_up_with_one_line(
    manage: Run, env: dict[str, str], message: str
) -> None:
    line = one_line_error(manage("migrate", **env))
    assert line.startswith(message)


class TestProductionSettings:
    def test_load_with_a_real_key_and_pass_the_deployment_checks(self, manage: Run) -> None:
        result = manage(
            "check", "--deploy", "--fail-level", "ERROR", settings="production", **GOOD_PRODUCTION
        )
        assert result.returncode == 0, result.stderr

    def test_refuse_a_missing_secret_key(self, manage: Run) -> None:
        env = {**GOOD_PRODUCTION, "SECRET_KEY": ""}
        line = one_line_error(manage("check", settings="production", **env))
        assert line == "dipserver: SECRET_KEY must be set in the environment"

    def test_refuse_the_development_secret_key(self, manage: Run) -> None:
        from dipserver.config.env import DEV_SECRET_KEY

        env = {**GOOD_PRODUCTION, "SECRET_KEY": DEV_SECRET_KEY}
        line = one_line_error(manage("check", settings="production", **env))
        assert line.startswith("dipserver: SECRET_KEY is the development key")

    def test_refuse_a_short_secret_key(self, manage: Run) -> None:
        env = {**GOOD_PRODUCTION, "SECRET_KEY": "short"}
        line = one_line_error(manage("check", settings="production", **env))
        assert line.startswith("dipserver: SECRET_KEY is too short")

    def test_refuse_debug(self, manage: Run) -> None:
        line = one_line_error(manage("check", settings="production", DEBUG="true", **GOOD_PRODUCTION))
        assert line.startswith("dipserver: DEBUG must be off with production settings")

    def test_require_allowed_hosts(self, manage: Run) -> None:
        env = {**GOOD_PRODUCTION, "ALLOWED_HOSTS": ""}
        line = one_line_error(manage("check", settings="production", **env))
        assert line.startswith("dipserver: ALLOWED_HOSTS must name the host")

    def test_harden_cookies_and_static_files(self, manage: Run) -> None:
        result = manage(
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s;"
            "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
            "s.STORAGES['staticfiles']['BACKEND'])",
            settings="production",
            **GOOD_PRODUCTION,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == [
            "False",
            "True",
            "True",
            "whitenoise.storage.CompressedManifestStaticFilesStorage",
        ]

    def test_let_no_webhook_reach_loopback(self, manage: Run) -> None:
        result = manage(
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s; print(s.DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK)",
            settings="production",
            **GOOD_PRODUCTION,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["False"]


def test_unreachable_database_is_reported_in_one_line(manage: Run) -> None:
    # Port 9 (discard) on loopback has no PostgreSQL: the connection is refused at once.
    line = one_line_error(manage("check_services", DATABASE_URL="postgres://dip@127.0.0.1:9/dipserver"))
    assert line.startswith("dipserver: DATABASE_URL: cannot reach database: postgresql:")


def test_unreachable_broker_is_reported_in_one_line(manage: Run) -> None:
    line = one_line_error(manage("check_services", CELERY_BROKER_URL="redis://127.0.0.1:9/0"))
    assert line.startswith("dipserver: CELERY_BROKER_URL: cannot reach broker: redis://127.0.0.1:9/0")


def test_check_services_reports_what_it_reached(manage: Run, clean_env: dict[str, str]) -> None:
    result = manage("check_services")
    assert result.returncode == 0, result.stderr
    broker = f"sqla+sqlite:///{clean_env['DIPSERVER_VAR_DIR']}/celery-broker.sqlite3"
    assert result.stdout.strip() == f"database ok (sqlite); broker ok ({broker})"


def test_production_health_check_is_exempt_from_the_https_redirect(manage: Run) -> None:
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        # The container's check (what this process reaches); the database has no tables here, so the
        # whole site's /healthz would say 503 (not a redirect either).
        "from django.test import Client;"
        "r = Client().get('/healthz?scope=process', HTTP_HOST='dip.example.org');"
        "print(r.status_code, Client().get('/', HTTP_HOST='dip.example.org').status_code)",
        settings="production",
        **GOOD_PRODUCTION,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "301"]


@pytest.mark.parametrize("program", ["worker", "beat"])
def test_celery_worker_and_beat_stop_in_one_line_on_a_bad_setting(
    clean_env: dict[str, str], program: str
) -> None:
    env = {**clean_env, "DATABASE_URL": "postgres//x"}
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "dipserver.config", program],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert one_line_error(result).startswith(
        "dipserver: DATABASE_URL is not a valid database URL: 'postgres//x'"
    )


class TestServerEntryPoints:
    """gunicorn/uvicorn import wsgi.py/asgi.py: they must default to production, never to local DEBUG."""

    @pytest.mark.parametrize("module", ["wsgi", "asgi"])
    def test_default_to_production_settings(self, clean_env: dict[str, str], module: str) -> None:
        probe = f"import os, dipserver.config.{module}; print(os.environ['DJANGO_SETTINGS_MODULE'])"
        result = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**clean_env, **GOOD_PRODUCTION},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "dipserver.config.settings.production"

    def test_refuse_to_start_without_production_secrets(self, clean_env: dict[str, str]) -> None:
        result = subprocess.run(
            [sys.executable, "-c", "import dipserver.config.wsgi"],
            cwd=ROOT,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 2
        assert one_line_error(result) == "dipserver: SECRET_KEY must be set in the environment"
