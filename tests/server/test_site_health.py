"""/healthz turns 503 when a phase is overdue (no worker or no beat keeps the deadlines); /metrics gives
the site's figures in the Prometheus format to staff, loopback and a scraper with the token."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from dipserver.core.models import TaskFailure
from dipserver.core.tasks import task_failure_count
from dipserver.games.models import Game, Phase
from dipserver.games.tasks import notification_send
from dipserver.mail.models import Mail
from dipserver.webhooks.models import Delivery, Webhook


def _deadline(game: Game, ago: dt.timedelta) -> None:
    Phase.objects.filter(id=game.current_phase_id).update(deadline=timezone.now() - ago)


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in\n{text}"
    return float(found.group(1))


class TestHealth:
    def test_a_phase_overdue_beyond_the_allowance_fails_the_check(
        self, client: Client, game, settings
    ) -> None:
        settings.DIPSERVER_OVERDUE_SECONDS = 120
        _deadline(game, dt.timedelta(minutes=10))
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["phases"] == {
            "name": "phases",
            "ok": False,
            "detail": "1 phases overdue, the oldest by 600s",
        }

    def test_a_phase_just_due_is_not_overdue(self, client: Client, game) -> None:
        _deadline(game, dt.timedelta(seconds=5))  # the sweep will have it within a second
        response = client.get("/healthz")
        assert response.status_code == 200
        assert response.json()["phases"]["ok"] is True

    def test_a_paused_game_is_never_overdue(self, client: Client, game) -> None:
        _deadline(game, dt.timedelta(hours=2))
        Game.objects.filter(id=game.id).update(status=Game.Status.PAUSED)
        assert client.get("/healthz").status_code == 200


class TestMetrics:
    def test_loopback_reads_the_metrics(self, client: Client, game) -> None:
        response = client.get("/metrics")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/plain")
        text = response.content.decode()
        for name in (
            "dipserver_phases_due",
            "dipserver_phases_overdue",
            "dipserver_phases_processed_recently",
            "dipserver_broker_up",
        ):
            _metric(text, name)
        assert 'dipserver_phase_processing_delay_seconds{quantile="0.99"}' in text
        assert 'dipserver_mail_outbox{state="waiting"}' in text
        assert 'dipserver_webhook_deliveries{status="failed"}' in text

    def test_others_are_refused(self, client: Client) -> None:
        assert client.get("/metrics", REMOTE_ADDR="203.0.113.5").status_code == 403

    def test_a_scraper_with_the_token_reads_them(self, client: Client, settings, db) -> None:
        settings.METRICS_TOKEN = "s3cret-token"
        remote = {"REMOTE_ADDR": "203.0.113.5"}
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong", **remote).status_code == 403
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token", **remote).status_code == 200

    def test_due_and_overdue_phases_are_counted(self, client: Client, game, settings) -> None:
        settings.DIPSERVER_OVERDUE_SECONDS = 120
        _deadline(game, dt.timedelta(minutes=10))
        text = client.get("/metrics").content.decode()
        assert (_metric(text, "dipserver_phases_due"), _metric(text, "dipserver_phases_overdue")) == (1, 1)

    def test_processing_delay_is_measured_from_the_deadline(self, client: Client, game) -> None:
        now = timezone.now()
        Phase.objects.filter(id=game.current_phase_id).update(
            status=Phase.Status.PROCESSED, deadline=now - dt.timedelta(seconds=3), processed_at=now
        )
        text = client.get("/metrics").content.decode()
        assert _metric(text, 'dipserver_phase_processing_delay_seconds{quantile="1.0"}') == pytest.approx(3)
        assert _metric(text, "dipserver_phases_processed_recently") == 1

    def test_a_failing_task_is_counted(self, client: Client, db) -> None:
        # Run as a worker runs it (the error recorded, not raised here).
        assert notification_send.apply(args=("no_such_notification", {}), throw=False).failed()
        assert TaskFailure.objects.get(task="dipserver.games.notification_send").failures == 1
        task_failure_count("dipserver.games.phase_process", "connection lost", retry=True)
        text = client.get("/metrics").content.decode()
        assert _metric(text, 'dipserver_task_failures_total{task="dipserver.games.notification_send"}') == 1
        assert _metric(text, 'dipserver_task_retries_total{task="dipserver.games.phase_process"}') == 1

    def test_deliveries_and_mails_waiting_are_counted(self, client: Client, users) -> None:
        hook = Webhook.objects.create(owner=users[0], url="http://127.0.0.1:9/", secret="whsec_test")
        for n, status in enumerate(["pending", "pending", "failed", "delivered"]):
            Delivery.objects.create(webhook=hook, key=f"k{n}", kind="press", payload={}, status=status)
        now = timezone.now()
        Mail.objects.create(
            key="m1", kind="press", to="a@example.org", subject="s", body="b", next_attempt_at=now
        )
        Mail.objects.create(
            key="m2", kind="press", to="a@example.org", subject="s", body="b", next_attempt_at=now, attempts=2
        )
        text = client.get("/metrics").content.decode()
        assert _metric(text, 'dipserver_webhook_deliveries{status="pending"}') == 2
        assert _metric(text, 'dipserver_webhook_deliveries{status="failed"}') == 1
        assert _metric(text, 'dipserver_mail_outbox{state="waiting"}') == 1
        assert _metric(text, 'dipserver_mail_outbox{state="retrying"}') == 1
