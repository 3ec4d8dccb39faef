"""Thin Celery tasks: they take ids and delegate to services, which decide whether there is work."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, InternalError, OperationalError
from django.utils import timezone

from dipserver.core.broker_sentinel import broker_lost_messages
from dipserver.games import notifications
from dipserver.games.jobs import job_register
from dipserver.games.phase_news import phase_news, reads_shared
from dipserver.games.pictures import phase_png_drawn
from dipserver.games.services.announcements import (
    PHASE_RESULTS,
    announcement_told,
    announcements_due_sweep,
    announcements_pending,
    phase_results_resumed,
)
from dipserver.games.services.phases import Processed, phase_reminders_sweep
from dipserver.games.services.phases import phase_process as phase_process_service
from dipserver.games.services.phases import phases_due_sweep as sweep_service
from dipserver.games.services.recovery import in_flight_requeued, outage_guard


@shared_task(name="dipserver.games.phases_due_sweep", trail=False)  # type: ignore[untyped-decorator]  # Celery ships no type hints
def phases_due_sweep() -> int:
    """Periodic (beat, every second): after an outage, move on the deadlines it ate; if the broker lost its
    messages, count what it held as not queued; then queue every phase whose deadline has passed and is not
    queued yet, and the announcements whose message was lost (``services.recovery``)."""
    now = timezone.now()
    outage_guard(now=now)
    if broker_lost_messages():
        in_flight_requeued(before=now)
    announcements_due_sweep()
    return len(sweep_service())


@shared_task(name="dipserver.games.phase_reminders_sweep", trail=False)  # type: ignore[untyped-decorator]  # Celery ships no type hints
def phase_reminders() -> int:
    """Periodic (beat): email the powers that have not ordered when their deadline is near."""
    return phase_reminders_sweep(hours=getattr(settings, "DIPSERVER_REMINDER_HOURS", 24))


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.games.phase_process",
    trail=False,
    # A dropped database connection rolls the whole phase back, so trying again is safe. (InterfaceError:
    # the connection was already closed when the task began to use it; InternalError: among others, a
    # database that is read-only for a while, e.g. during a failover.)
    autoretry_for=(OperationalError, InterfaceError, InternalError),
    retry_backoff=2,
    max_retries=5,
)
def phase_process(phase_id: int) -> str:
    """Process one phase if it is still open and due. Safe to run twice: the second run finds it done, and
    queues its results if they are due and still untold (the first run died before the broker had them)."""
    outcome = phase_process_service(phase_id=phase_id)
    if outcome is Processed.NOT_DUE:
        phase_results_resumed(phase_id)
    return str(outcome)


@shared_task(  # type: ignore[untyped-decorator]  # Celery ships no type hints
    name="dipserver.games.notification_send",
    trail=False,
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    max_retries=5,
)
def notification_send(name: str, ids: dict[str, int]) -> int:
    """Put the mails of one event in the outbox (``notifications.<name>(**ids)``); safe to run twice."""
    if name not in notifications.SENDERS:
        raise ValueError(f"No notification called {name!r}")
    pending = announcements_pending(name, ids)  # before telling: a row written meanwhile is another event's
    told = notifications.told_ids(name, ids)
    queued, processed_at = 0, None
    if told is not None:
        with reads_shared():  # the mail and the channels beside it tell the same facts: read once
            queued = int(getattr(notifications, name)(**told))
            notifications.announced.send(sender=name, ids=told)
            if name == PHASE_RESULTS:  # the results told: of the phase as processed then
                processed_at = phase_news(ids["phase_id"]).phase.processed_at
    # Every channel has its rows: not to be queued again by the sweep.
    announcement_told(name=name, ids=ids, rows=pending, processed_at=processed_at)
    return queued


@shared_task(name="dipserver.games.press_digest_sweep", trail=False)  # type: ignore[untyped-decorator]
def press_digest_sweep() -> int:
    """Periodic (beat, hourly): the daily press digest of each player who chose it, when it is due."""
    from dipserver.games.press_digest import press_digests_send

    return press_digests_send()


@shared_task(name="dipserver.games.picture_draw", trail=False)  # type: ignore[untyped-decorator]
def picture_draw(game_id: int, index: int, width: int | None, key: str) -> bool:
    """Draw a phase's PNG into the picture cache (the ``pictures`` queue: a pool of its own, bounded)."""
    return phase_png_drawn(game_id=game_id, index=index, width=width, key=key)


def jobs_register() -> None:
    """Tell the services how their jobs reach a worker (``games.jobs``); the app calls this when ready.
    The names are looked up at each call, so a test may patch a task's ``delay``."""
    job_register("phase_process", lambda phase_id: phase_process.delay(phase_id))
    job_register("notification_send", lambda name, ids: notification_send.delay(name, ids))
    job_register("picture_draw", lambda *args: picture_draw.delay(*args))
