"""What the deadline sweep does before queuing: notice an outage, and notice a broker that lost its messages.

**The outage guard.** Beat sends the sweep every second; each run records that it ran (a ``WorkerHeartbeat``
row, written at most every ``ALIVE_EVERY``). A run that finds the last one older than the setting
``DIPSERVER_OUTAGE_MINUTES`` knows that no deadline could be kept meanwhile (beat or every worker was down,
or the database): the deadlines of open phases in active games that passed during that gap, and that
nobody had asked to process early (ready, "process now": queued at or after their deadline), are moved on
by the gap's length, so that nobody loses a turn to the site (``DIPSERVER_OUTAGE_EXTEND=false`` turns this
off and processes them at once). Lock order: the heartbeat row, then the phases (by the UPDATE).

**Lost messages.** When ``core.broker_sentinel`` reports that the broker lost what it held (Redis started
again empty), the phases queued before and still open are marked not queued, and every untold announcement
due now: the sweeps that follow in the same run queue each once, under their own locks.
"""

from __future__ import annotations

import datetime as dt
import logging
import socket

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from dipserver.core.models import WorkerHeartbeat
from dipserver.games.models import Announcement, Game, Phase

logger = logging.getLogger(__name__)

SWEEP_ALIVE = "phases-due-sweep"  # the WorkerHeartbeat row the sweep keeps
LOSS_CLAIMED = "broker-loss"  # the row whose UPDATE claims a loss, so one sweep alone requeues for it
ALIVE_EVERY = dt.timedelta(seconds=5)
LOSS_CLAIM_GAP = dt.timedelta(seconds=10)


def outage_after() -> dt.timedelta:
    return dt.timedelta(minutes=getattr(settings, "DIPSERVER_OUTAGE_MINUTES", 10))


def sweep_alive_at() -> dt.datetime | None:
    """When the deadline sweep last recorded that it ran (None: never)."""
    return WorkerHeartbeat.objects.filter(name=SWEEP_ALIVE).values_list("beat_at", flat=True).first()


def outage_guard(*, now: dt.datetime | None = None) -> dt.timedelta | None:
    """Record that the sweep runs; after an outage longer than ``outage_after()``, move the deadlines that
    passed during it on by its length. Returns the outage's length when there was one. One short query
    when the sweep ran within ``ALIVE_EVERY``."""
    now = now or timezone.now()
    last = sweep_alive_at()
    if last is not None and now - last < ALIVE_EVERY:
        return None
    with transaction.atomic():
        row = WorkerHeartbeat.objects.select_for_update().filter(name=SWEEP_ALIVE).first()
        if row is None:
            _first_alive(now)
            return None
        if now - row.beat_at < ALIVE_EVERY:  # another sweep recorded it meanwhile
            return None
        gap, started = now - row.beat_at, row.beat_at
        row.beat_at, row.hostname = now, socket.gethostname()
        row.save(update_fields=["beat_at", "hostname"])
        if gap < outage_after():
            return None
        moved = _deadlines_moved(started, now) if getattr(settings, "DIPSERVER_OUTAGE_EXTEND", True) else 0
    logger.warning(
        "no deadline sweep ran for %ds (an outage since %s): %d deadlines that passed meanwhile moved on "
        "by as long",
        gap.total_seconds(),
        started.isoformat(timespec="seconds"),
        moved,
    )
    return gap


def _first_alive(now: dt.datetime) -> None:
    try:
        with transaction.atomic():
            WorkerHeartbeat.objects.create(name=SWEEP_ALIVE, beat_at=now, hostname=socket.gethostname())
    except IntegrityError:  # another sweep's first run
        pass


def _deadlines_moved(started: dt.datetime, now: dt.datetime) -> int:
    """Open phases of active games whose deadline fell within the outage and that nobody asked to process
    early (ready, "process now": queued at or after the deadline) get it moved on by the outage's length."""
    not_asked = Q(queued_at__isnull=True) | Q(queued_at__lt=F("deadline"))
    return Phase.objects.filter(
        not_asked,
        status=Phase.Status.OPEN,
        game__status=Game.Status.ACTIVE,
        deadline__gt=started,
        deadline__lte=now,
    ).update(deadline=F("deadline") + (now - started))


def in_flight_requeued(*, before: dt.datetime) -> tuple[int, int] | None:
    """The broker lost its messages: the phases queued before ``before`` and still open count as not
    queued, and every untold announcement is due at ``before``; the sweeps that follow queue them. Claimed
    (one sweep per loss); None when another sweep claimed it. Returns (phases, announcements)."""
    if not _loss_claimed(before):
        return None
    with transaction.atomic():
        # Rows locked by a phase being processed are skipped: that task settles them.
        phases = list(
            Phase.objects.select_for_update(skip_locked=True)
            .filter(status=Phase.Status.OPEN, queued_at__lt=before)
            .order_by("id")
            .values_list("id", flat=True)
        )
        Phase.objects.filter(id__in=phases).update(queued_at=None, requeue_at=None)
        results = Phase.objects.filter(announce_due__gt=before).update(announce_due=before)
        rows = Announcement.objects.filter(due__gt=before).update(due=before)
    logger.warning(
        "the broker lost its messages: %d phases and %d announcements queued again",
        len(phases),
        results + rows,
    )
    return len(phases), results + rows


def _loss_claimed(at: dt.datetime) -> bool:
    claimed = WorkerHeartbeat.objects.filter(name=LOSS_CLAIMED, beat_at__lt=at - LOSS_CLAIM_GAP).update(
        beat_at=at, hostname=socket.gethostname()
    )
    if claimed:
        return True
    try:
        with transaction.atomic():
            WorkerHeartbeat.objects.create(name=LOSS_CLAIMED, beat_at=at, hostname=socket.gethostname())
    except IntegrityError:  # the row exists and another sweep claimed this loss
        return False
    return True
