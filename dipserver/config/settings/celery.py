"""Celery settings (read by ``dipserver.config.celery`` through the ``CELERY_`` namespace).

The beat schedule lives here and only here: periodic work is registered by adding an entry below.
"""

from __future__ import annotations

import os

from dipserver.config.env import VAR_DIR, broker_url_checked, flag, integer

# With no CELERY_BROKER_URL the broker is kombu's SQLAlchemy transport on a SQLite file under var/: it needs
# no server, so `./dip serve` works on a fresh machine, and each message is a row written and taken in a
# transaction (the filesystem transport once handed the worker a half-written message file, and the worker
# stopped). Production sets a redis:// URL.
CELERY_BROKER_FILE = VAR_DIR / "celery-broker.sqlite3"
EMBEDDED_BROKER_URL = f"sqla+sqlite:///{CELERY_BROKER_FILE}"
CELERY_BROKER_URL = broker_url_checked(os.environ.get("CELERY_BROKER_URL", "").strip() or EMBEDDED_BROKER_URL)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("sqla+sqlite://"):
    # Passed to SQLAlchemy's create_engine: the web server, the worker and beat write to one SQLite file,
    # each waiting up to 30 s for another's write instead of failing with "database is locked".
    CELERY_BROKER_TRANSPORT_OPTIONS = {"connect_args": {"timeout": 30}}
    VAR_DIR.mkdir(parents=True, exist_ok=True)
elif CELERY_BROKER_URL.startswith("filesystem://"):  # chosen explicitly (no longer the default)
    CELERY_BROKER_DIR = VAR_DIR / "celery-broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "queue"),
        "data_folder_out": str(CELERY_BROKER_DIR / "queue"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "control"):
        (CELERY_BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
# Tasks record their effects in the database, so no result backend is needed.
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"

# A task that hangs must not block a worker forever; the soft limit lets it clean up first.
CELERY_TASK_TIME_LIMIT = integer("CELERY_TASK_TIME_LIMIT", 300)
CELERY_TASK_SOFT_TIME_LIMIT = integer("CELERY_TASK_SOFT_TIME_LIMIT", 240)
# Tasks are idempotent (they reload rows and check state), so redelivery after a crash is safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Proves that beat and a worker are alive; /healthz and `check_services --heartbeat` read it.
    "worker-heartbeat": {"task": "dipserver.core.heartbeat", "schedule": 60.0},
    # The game server: queue phases whose deadline has passed, so each is processed within about a second
    # of it (deadlines stay in the database; nothing is queued ahead). A sweep that waited in the queue
    # behind a storm of phases is dropped after 2 s instead of running late: the next one is on its way.
    "games-phases-due-sweep": {
        "task": "dipserver.games.phases_due_sweep",
        "schedule": 1.0,
        "options": {"expires": 2.0},
    },
    # Deadline reminders by email, once per phase.
    "games-phase-reminders": {"task": "dipserver.games.phase_reminders_sweep", "schedule": 60.0},
}
# Sites (or test runs) that share one Redis keep apart by queue: producers and workers both use this one.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "").strip() or "celery"
# games (server developer): keep a worker's database connection across tasks instead of reconnecting for
# each one (Celery's Django fix-up closes it after every task unless this is set; ~15 % of a phase's time).
CELERY_DB_REUSE_MAX = integer("CELERY_DB_REUSE_MAX", 200)
# mail (notify): queue again the mails a failing mail server or a lost task message left unsent.
CELERY_BEAT_SCHEDULE["mail-outbox-sweep"] = {"task": "dipserver.mail.outbox_sweep", "schedule": 120.0}
# The daily press digest of the players who chose it (each player's is due a day after their last).
CELERY_BEAT_SCHEDULE["games-press-digest"] = {
    "task": "dipserver.games.press_digest_sweep",
    "schedule": 3600.0,
}
# Mail and webhook deliveries have their own queue and their own worker pool (`-Q deliveries`: the
# deliveries worker of serve and compose), so a slow or failing mail server or webhook receiver never
# stands in front of phase processing, and phases never wait for a delivery's slot. Named by the
# environment like the default queue, so sites (or test runs) sharing one Redis keep apart.
CELERY_DELIVERIES_QUEUE = os.environ.get("CELERY_DELIVERIES_QUEUE", "").strip() or "deliveries"
CELERY_TASK_ROUTES = {
    **{
        task: {"queue": CELERY_DELIVERIES_QUEUE}
        for task in (
            "dipserver.mail.send",
            "dipserver.mail.send_many",
            "dipserver.mail.outbox_sweep",
            "dipserver.webhooks.deliver",
            "dipserver.webhooks.deliver_many",
            "dipserver.webhooks.sweep",
        )
    },
    # Map pictures asked for through the API: drawn by a worker of their own (one process in serve and
    # compose), so a burst of uncached 3200-pixel maps neither holds a web process nor delays a phase.
    "dipserver.games.picture_draw": {"queue": "pictures"},
    # SVG maps uploaded to the variant studio: reading shapes and borders takes seconds of CPU, like a
    # picture, so the same pool does it, apart from the phases.
    "dipserver.studio.svg_import": {"queue": "pictures"},
}
# webhooks (notify): queue again the deliveries whose first task message was lost (a broker restart).
CELERY_BEAT_SCHEDULE["webhooks-sweep"] = {"task": "dipserver.webhooks.sweep", "schedule": 300.0}
# The outage guard (games.services.recovery): a deadline sweep that finds the last one this many minutes
# ago knows no deadline could be kept meanwhile, and (unless DIPSERVER_OUTAGE_EXTEND=false) moves the
# deadlines that passed during the outage on by its length. /healthz turns 503 when a phase is overdue by
# DIPSERVER_OVERDUE_SECONDS.
DIPSERVER_OUTAGE_MINUTES = integer("DIPSERVER_OUTAGE_MINUTES", 10)
DIPSERVER_OUTAGE_EXTEND = flag("DIPSERVER_OUTAGE_EXTEND", True)
DIPSERVER_OVERDUE_SECONDS = integer("DIPSERVER_OVERDUE_SECONDS", 120)
# /metrics answers staff, loopback, and a scraper sending `Authorization: Bearer <METRICS_TOKEN>` (if set).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
# The embedded broker keeps the messages it handed out; delete those taken over an hour ago (no-op on Redis).
CELERY_BEAT_SCHEDULE["embedded-broker-tidy"] = {
    "task": "dipserver.core.embedded_broker_tidy",
    "schedule": 3600.0,
}
# Sandboxes unused for a while: their owners are told, then they are deleted (dipserver.sandbox).
CELERY_BEAT_SCHEDULE["sandbox-cleanup"] = {"task": "dipserver.sandbox.cleanup_sweep", "schedule": 3600.0}
