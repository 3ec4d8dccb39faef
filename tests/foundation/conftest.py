"""Fixtures for the foundation tests: running the project's commands as a person would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Variables that would make a child process see this run's configuration instead of its own.
_CONFIG_VARS = (
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CACHE_URL",
    "BEHIND_TLS_PROXY",
    "TRUSTED_PROXY_COUNT",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "CSRF_TRUSTED_ORIGINS",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DIPSERVER_VAR_DIR",
    "DJANGO_READ_DOT_ENV_FILE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by browser tests for their own process; production checks refuse it
)

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a fresh shell: none of our settings, runtime files in a temp folder."""
    env = {k: v for k, v in os.environ.items() if k not in _CONFIG_VARS}
    env["DIPSERVER_VAR_DIR"] = str(tmp_path / "var")
    return env


@pytest.fixture
def manage(clean_env: dict[str, str]) -> Run:
    """Run ``manage.py`` in a subprocess: ``manage("check", settings="production", SECRET_KEY=...)``."""

    def run(
        *args: str, settings: str = "local", timeout: float = 60, **env: str
    ) -> subprocess.CompletedProcess[str]:
        full_env = {**clean_env, "DJANGO_SETTINGS_MODULE": f"dipserver.config.settings.{settings}", **env}
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """Assert that a command failed with exactly one line on stderr and no traceback; return the line."""
    assert result.returncode != 0, result
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]
