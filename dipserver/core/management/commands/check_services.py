"""Fail fast, in one line, when the database or the Celery broker cannot be reached."""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandParser

from dipserver.core.embedded_broker import embedded_broker_prepared
from dipserver.core.health import broker_status, database_status, heartbeat_status, worker_status

SETTING_FOR = {"database": "DATABASE_URL", "broker": "CELERY_BROKER_URL", "worker": "the Celery worker/beat"}


class Command(BaseCommand):
    help = "Check that the database and the Celery broker answer (and, optionally, a recent heartbeat)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--heartbeat-within",
            type=int,
            metavar="SECONDS",
            help="also require a worker heartbeat (scheduled by beat) at most this many seconds old",
        )
        parser.add_argument(
            "--worker",
            metavar="NODENAME",
            help="also require this Celery worker (e.g. celery@$HOSTNAME) to answer through the broker "
            "that it reaches the database",
        )

    def handle(
        self,
        *args: object,
        heartbeat_within: int | None = None,
        worker: str | None = None,
        verbosity: int = 1,
        **options: object,
    ) -> None:
        statuses = [database_status(), broker_status()]
        if heartbeat_within is not None:
            statuses.append(heartbeat_status(timedelta(seconds=heartbeat_within)))
        if worker is not None:
            statuses.append(worker_status(worker))
        if statuses[1].ok:
            embedded_broker_prepared()  # the embedded broker's tables and queues, before anyone uses them
        failed = [s for s in statuses if not s.ok]
        for status in failed:
            # One line per unreachable service, in the same "dipserver: SETTING ..." form as config errors.
            self.stderr.write(
                f"dipserver: {SETTING_FOR[status.name]}: cannot reach {status.name}: {status.detail}"
            )
        if failed:
            raise SystemExit(2)
        if verbosity >= 1:
            self.stdout.write("; ".join(f"{s.name} ok ({s.detail})" for s in statuses))
