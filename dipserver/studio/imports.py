"""An SVG map given to a draft is read by a worker, never in the request.

The request does what is quick and refuses what it can at once: the caller is a game master with that
draft at that revision, the upload is sanitised and within its bounds (bytes, elements, depth, shapes:
``too_large`` 413, ``invalid_svg`` 422). It keeps the sanitised drawing as an ``SvgImport`` job, hands the
job to the broker once that row is committed, and answers with the job; the worker reads the shapes,
detects the borders and saves the draft (``services.draft_drawing_apply``), then marks the job done or
refused with the refusal's code and provinces. The studio polls the job.

Once only: an upload with the Idempotency-Key of an earlier one, or the same drawing for the same revision
of the same draft, is that earlier job (whatever became of it), and a worker claims a job by moving it from
queued to running in one ``UPDATE``, so a duplicate message finds it taken. A worker that died mid-way
(its message redelivered) may claim it again once ``STALE_AFTER`` has passed. A job whose message never
reached the broker (it was down) is sent again when it is polled ``RESEND_AFTER`` later.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from dipserver.studio.borders import MAX_SHAPES
from dipserver.studio.drawing import CleanSvg, sanitised
from dipserver.studio.errors import StudioError
from dipserver.studio.models import SvgImport
from dipserver.studio.selectors import is_game_master
from dipserver.studio.services import draft_drawing_apply, draft_svg_checked

logger = logging.getLogger(__name__)

RESEND_AFTER = dt.timedelta(seconds=30)
STALE_AFTER = dt.timedelta(minutes=10)  # past the task's time limit: its worker is gone

_sender: list[Callable[[int], Any]] = []


def sender_register(send: Callable[[int], Any]) -> None:
    """``send(job_id)`` hands a job to the broker (the task's ``delay``); the app registers it when ready."""
    _sender[:] = [send]


def svg_import_queue(*, user: Any, draft_id: int, svg: bytes, revision: int, key: str = "") -> SvgImport:
    """The job reading ``svg`` into the draft: a new one, handed to a worker, or the earlier job of the
    same upload. Refusals that need no shape read are raised here, before any job exists."""
    if key:
        earlier = SvgImport.objects.filter(owner=user, key=key).first()
        if earlier is not None:
            return _same_upload(earlier, draft_id)
    if not is_game_master(user):
        raise StudioError("Only game masters author variants", code="not_game_master")
    clean = sanitised(svg)
    if clean.shapes > MAX_SHAPES:
        raise StudioError(
            f"An SVG map has at most {MAX_SHAPES} shapes; this one has {clean.shapes}", code="too_large"
        )
    digest = hashlib.sha256(f"{revision}\n{clean.text}".encode()).hexdigest()
    # Sent again (its answer lost): the same job, even though the draft has moved on since.
    earlier = SvgImport.objects.filter(owner=user, draft_id=draft_id, digest=digest).first()
    if earlier is not None:
        return earlier
    draft = draft_svg_checked(user=user, draft_id=draft_id, revision=revision)
    try:
        with transaction.atomic():
            job = SvgImport.objects.create(
                owner=user,
                draft=draft,
                key=key,
                digest=digest,
                revision=revision,
                svg=clean.text,
                dropped=list(clean.dropped),
                sent_at=timezone.now(),
            )
    except IntegrityError:  # the same upload, sent twice at once: the other request made the job
        return SvgImport.objects.get(Q(draft=draft, digest=digest) | (Q(owner=user, key=key) & ~Q(key="")))
    _send(job.id)  # after the commit (no ATOMIC_REQUESTS): the worker finds the row
    job.refresh_from_db()  # a worker may have been quick (and tests run it at once)
    return job


def svg_import_of(user: Any, job_id: int) -> SvgImport:
    """The caller's own job (anyone else's is as missing as one that does not exist); one still queued
    long after it was sent is sent again (its message may have been lost)."""
    job = SvgImport.objects.filter(id=job_id, owner=user).first() if user.is_authenticated else None
    if job is None:
        raise StudioError(f"You have no SVG import {job_id}", code="not_found")
    now = timezone.now()
    if job.status == SvgImport.Status.QUEUED and job.sent_at is not None and job.sent_at < now - RESEND_AFTER:
        resent = SvgImport.objects.filter(id=job.id, status=SvgImport.Status.QUEUED, sent_at=job.sent_at)
        if resent.update(sent_at=now):  # one poller sends it, not each
            _send(job.id)
    return job


def svg_import_run(*, job_id: int, now: dt.datetime | None = None) -> str:
    """Read the job's drawing into its draft, if no other worker has it; its status afterwards."""
    now = now or timezone.now()
    claimable = Q(status=SvgImport.Status.QUEUED) | Q(
        status=SvgImport.Status.RUNNING, started_at__lt=now - STALE_AFTER
    )
    if not SvgImport.objects.filter(claimable, id=job_id).update(
        status=SvgImport.Status.RUNNING, started_at=now
    ):
        job = SvgImport.objects.filter(id=job_id).only("status").first()
        return job.status if job is not None else "missing"
    job = SvgImport.objects.select_related("owner").get(id=job_id)
    outcome: dict[str, Any] = {"status": SvgImport.Status.DONE, "error": None, "warnings": []}
    try:
        _, warnings = draft_drawing_apply(
            user=job.owner,
            draft_id=job.draft_id,
            clean=CleanSvg(job.svg, tuple(job.dropped)),
            revision=job.revision,
        )
        outcome["warnings"] = list(warnings)
    except StudioError as exc:
        outcome["status"], outcome["error"] = SvgImport.Status.FAILED, _error_data(exc)
    except Exception:  # a bug in reading shapes: the job says so rather than staying "running"
        logger.exception("SVG import %s failed", job_id)
        failure = StudioError("The map could not be read; it has been logged", code="import_failed")
        outcome["status"], outcome["error"] = SvgImport.Status.FAILED, _error_data(failure)
    SvgImport.objects.filter(id=job_id).update(**outcome, finished_at=timezone.now())
    return str(outcome["status"])


def _same_upload(earlier: SvgImport, draft_id: int) -> SvgImport:
    if earlier.draft_id != draft_id:
        raise StudioError(
            "This Idempotency-Key was used for an upload to another draft", code="idempotency_key_reused"
        )
    return earlier


def _send(job_id: int) -> None:
    if not _sender:
        raise RuntimeError("No sender for SVG imports: is dipserver.studio in INSTALLED_APPS?")
    try:
        _sender[0](job_id)
    except Exception:  # the broker is down: the job stays queued, and a poll sends it again
        logger.warning("SVG import %s could not be handed to the broker", job_id, exc_info=True)


def _error_data(exc: StudioError) -> dict[str, Any]:
    return {
        "code": exc.code,
        "message": str(exc),
        "provinces": list(exc.provinces),
        "problems": list(exc.problems),
    }
