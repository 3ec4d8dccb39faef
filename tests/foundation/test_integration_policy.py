"""Integration tests are left out of the default run, skip on a machine without the services, and FAIL
(never skip) when CI is set, so CI cannot go green without really talking to PostgreSQL and Redis."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT

# Each runs pytest in a process of its own: run by .ci/run's second stage.
pytestmark = pytest.mark.slow


def _pytest(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # SQLite and the in-memory broker: exactly the "services missing" situation.
    env = {**env, "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.test"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_default_run_deselects_integration_tests(clean_env: dict[str, str]) -> None:
    result = _pytest(clean_env, "tests/integration/test_services.py")
    assert result.returncode == 5, result.stdout  # nothing selected
    assert "deselected" in result.stdout


def test_without_services_they_skip_on_a_developer_machine(clean_env: dict[str, str]) -> None:
    env = {k: v for k, v in clean_env.items() if k != "CI"}
    result = _pytest(env, "-m", "integration", "-rs", "tests/integration/test_services.py")
    assert result.returncode == 0, result.stdout
    assert "DATABASE_URL must point at PostgreSQL for integration tests (got sqlite)" in result.stdout


def test_without_services_they_fail_under_ci(clean_env: dict[str, str]) -> None:
    result = _pytest({**clean_env, "CI": "true"}, "-m", "integration", "tests/integration/test_services.py")
    assert result.returncode == 1, result.stdout
    assert "integration service unavailable (CI is set, so this fails)" in result.stdout
    assert " skipped" not in result.stdout
