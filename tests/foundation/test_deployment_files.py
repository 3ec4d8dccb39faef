"""docker-compose.yml and the Dockerfile (no Docker engine here, so they are checked by reading them)."""

from __future__ import annotations

import json
import runpy
from typing import Any

import pytest
import yaml
from gunicorn.config import Config
from gunicorn.workers.sync import SyncWorker

from .conftest import ROOT

DJANGO_SERVICES = ("web", "worker", "deliveries", "pictures", "beat")
GUNICORN_CONFIG = "dipserver/config/gunicorn.py"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_runs_the_seven_services_and_the_tls_proxy_on_request(compose: dict[str, Any]) -> None:
    services = compose["services"]
    django = {"web", "worker", "deliveries", "pictures", "beat"}
    assert set(services) == {"postgres", "redis", *django, "caddy"}
    assert [name for name, service in services.items() if "profiles" in service] == ["caddy"]
    assert services["caddy"]["profiles"] == ["tls"]  # plain `docker compose up` serves plain HTTP


def test_map_pictures_are_drawn_by_a_worker_of_their_own_one_at_a_time(compose: dict[str, Any]) -> None:
    command = compose["services"]["pictures"]["command"]
    assert command.startswith("celery -A dipserver.config worker")
    assert "--concurrency=1" in command and "-Q pictures" in command


@pytest.mark.parametrize(
    "service", ["postgres", "redis", "web", "worker", "deliveries", "pictures", "beat", "caddy"]
)
def test_every_service_has_a_health_check(compose: dict[str, Any], service: str) -> None:
    check = compose["services"][service]["healthcheck"]
    assert check["test"], service
    assert check["interval"] and check["retries"] >= 3


def test_database_lives_in_a_named_volume(compose: dict[str, Any]) -> None:
    assert "postgres-data" in compose["volumes"]
    assert "postgres-data:/var/lib/postgresql/data" in compose["services"]["postgres"]["volumes"]


@pytest.mark.parametrize("service", DJANGO_SERVICES)
def test_django_services_use_production_settings_and_real_services(
    compose: dict[str, Any], service: str
) -> None:
    env = compose["services"][service]["environment"]
    assert env["DJANGO_SETTINGS_MODULE"] == "dipserver.config.settings.production"
    assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"] == "redis://redis:6379/0"
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?"), "SECRET_KEY must be required, never defaulted"
    assert "DEBUG" not in env


def test_web_checks_services_migrates_then_runs_gunicorn(compose: dict[str, Any]) -> None:
    web = compose["services"]["web"]
    command = web["command"]
    steps = [
        "manage.py check_services",
        "manage.py migrate --noinput",
        f"gunicorn -c {GUNICORN_CONFIG} dipserver.config.wsgi:application",
    ]
    positions = [command.find(step) for step in steps]
    assert -1 not in positions and positions == sorted(positions), command
    assert web["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert web["depends_on"]["redis"]["condition"] == "service_healthy"
    # What the container reaches: the worker and beat wait for it, so it cannot ask for their heartbeat.
    assert "/healthz?scope=process" in " ".join(web["healthcheck"]["test"])


def test_worker_and_beat_run_celery_on_the_project_app(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["worker"]["command"].startswith("celery -A dipserver.config worker")
    assert services["beat"]["command"].startswith("celery -A dipserver.config beat")
    assert "check_services" in services["beat"]["healthcheck"]["test"]


def test_deliveries_have_a_worker_of_their_own(compose: dict[str, Any]) -> None:
    """Mail and webhooks never take a slot of the worker that processes phases."""
    services = compose["services"]
    assert services["worker"]["command"].split("-Q ")[1].split()[0] == "celery"
    deliveries = services["deliveries"]["command"]
    assert deliveries.startswith("celery -A dipserver.config worker")
    assert deliveries.split("-Q ")[1].split()[0] == "deliveries" and "-n deliveries@%h" in deliveries
    check = " ".join(services["deliveries"]["healthcheck"]["test"])
    assert "manage.py check_services --worker deliveries@$$HOSTNAME" in check


def test_the_worker_health_check_asks_the_worker_itself_about_the_database(compose: dict[str, Any]) -> None:
    check = " ".join(compose["services"]["worker"]["healthcheck"]["test"])
    assert "manage.py check_services --worker celery@$$HOSTNAME" in check  # $$: compose's escape for $


def test_image_collects_static_files_and_does_not_run_as_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    assert "USER dipserver" in dockerfile


def test_the_image_bundles_the_pages_scripts_before_collecting_them() -> None:
    """esbuild runs in a node stage (node stays out of the image); its static/dist/ is copied in before
    collectstatic, and a local static/dist/ never reaches the context."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM node:" in dockerfile and "RUN npm ci" in dockerfile
    assert "RUN node scripts/build_scripts.mjs" in dockerfile
    copied = dockerfile.index("COPY --from=scripts /app/static/dist static/dist")
    assert copied < dockerfile.index("collectstatic --noinput")
    assert "static/dist" in (ROOT / ".dockerignore").read_text().split()


def test_docker_context_leaves_out_local_state() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "var", ".env"} <= set(ignored)


def test_the_image_and_the_benchmarks_run_gunicorn_with_the_one_config_file() -> None:
    """The Dockerfile's command, docker-compose's (above) and the HTTP benchmarks all start gunicorn with
    dipserver/config/gunicorn.py, so what the benchmarks measure is what production runs."""
    command = ["gunicorn", "-c", GUNICORN_CONFIG, "dipserver.config.wsgi:application"]
    assert f"CMD {json.dumps(command)}" in (ROOT / "Dockerfile").read_text()
    for script in ("bench_api.py", "load_api.py", "bench_page.py"):
        assert GUNICORN_CONFIG in (ROOT / "scripts" / script).read_text(), script


def test_the_gunicorn_config_file_sets_only_gunicorn_settings() -> None:
    imported = {"os", "annotations"}
    names = {k: v for k, v in runpy.run_path(str(ROOT / GUNICORN_CONFIG)).items() if k[0] != "_"}
    names = {k: v for k, v in names.items() if k not in imported}
    config = Config()
    assert set(names) <= set(config.settings), set(names) - set(config.settings)
    for name, value in names.items():
        config.set(name, value)  # gunicorn validates each value
    assert config.bind == ["0.0.0.0:8000"] and issubclass(config.worker_class, SyncWorker)
    assert config.worker_class_str == "dipserver.core.http_worker.JsonErrorWorker"  # JSON refusals
    assert config.accesslog is None  # a tenth of an order PUT's CPU; the proxy in front logs requests


def test_the_tls_proxy_serves_https_for_the_domain_and_forwards_to_web(compose: dict[str, Any]) -> None:
    caddy = compose["services"]["caddy"]
    assert caddy["image"].startswith("caddy:2")
    assert {"80:80", "443:443"} <= set(caddy["ports"])
    assert caddy["environment"]["DOMAIN"].startswith("${DOMAIN:-")
    assert caddy["depends_on"]["web"]["condition"] == "service_healthy"
    mounts = {volume.split(":")[1]: volume.split(":")[0] for volume in caddy["volumes"]}
    assert mounts["/data"] == "caddy-data" and "caddy-data" in compose["volumes"]  # certificates kept
    caddyfile = (ROOT / mounts["/etc/caddy/Caddyfile"]).read_text()
    site = [line.strip() for line in caddyfile.splitlines() if line.strip() and line[0] not in "#\t"]
    assert site[0] == "{$DOMAIN:localhost} {"
    assert "reverse_proxy web:8000" in caddyfile


@pytest.mark.parametrize("setting", ["SECURE_COOKIES", "SECURE_SSL_REDIRECT"])
def test_behind_tls_the_https_settings_follow_the_one_switch(compose: dict[str, Any], setting: str) -> None:
    """BEHIND_TLS_PROXY=true alone turns secure cookies and the redirect on (HSTS follows in the
    settings); each may still be set on its own."""
    env = compose["services"]["web"]["environment"]
    assert env["BEHIND_TLS_PROXY"] == "${BEHIND_TLS_PROXY:-false}"
    assert env[setting] == f"${{{setting}:-${{BEHIND_TLS_PROXY:-false}}}}"
