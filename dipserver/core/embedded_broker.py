"""Upkeep of the embedded broker (kombu's SQLAlchemy transport on SQLite, ``./dip serve``'s default).

``embedded_broker_prepared`` (run by ``check_services``, serve's first step) creates the transport's tables
and the site's queues before any process uses them: the transport creates both on first use, and a web
process and a worker starting together once raced to create the same queue (a UNIQUE error, a 500).

The transport keeps every message it has handed to a worker, marked invisible, for ever: the deadline sweep
alone sends 86,400 a day. Beat runs ``embedded_broker_tidied`` hourly; it deletes the messages taken more
than ``KEEP_TAKEN`` ago (a task runs at most ``CELERY_TASK_TIME_LIMIT``, 5 minutes, so none of them is
still at work). With another broker it does nothing.
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy
from django.conf import settings

KEEP_TAKEN = dt.timedelta(hours=1)


def embedded_broker_tidied(*, taken_before: dt.datetime | None = None) -> int:
    """Delete the messages taken before ``taken_before`` (default: ``KEEP_TAKEN`` ago); how many."""
    url: str = settings.CELERY_BROKER_URL
    if not url.startswith("sqla+"):
        return 0
    options: dict[str, object] = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}))
    table = str(options.pop("message_tablename", "kombu_message"))  # the transport's documented option
    options.pop("queue_tablename", None)
    # The transport stamps a message (``timestamp``, local time without a zone) when a worker takes it.
    before = taken_before or dt.datetime.now() - KEEP_TAKEN
    engine = sqlalchemy.create_engine(url.removeprefix("sqla+"), **options)
    try:
        messages = sqlalchemy.table(table, sqlalchemy.column("visible"), sqlalchemy.column("timestamp"))
        statement = messages.delete().where(
            messages.c.visible == sqlalchemy.false(), messages.c.timestamp < before
        )
        with engine.begin() as connection:
            return int(connection.execute(statement).rowcount)
    except sqlalchemy.exc.OperationalError:  # no table yet: the broker has never been used
        return 0
    finally:
        engine.dispose()


def queue_names() -> list[str]:
    """The task queues: the default one and every queue a route names."""
    from dipserver.config.celery import app

    routes: dict[str, dict[str, str]] = getattr(settings, "CELERY_TASK_ROUTES", {}) or {}
    names = [app.conf.task_default_queue, *(route.get("queue", "") for route in routes.values())]
    return sorted({name for name in names if name})


def embedded_broker_prepared() -> list[str]:
    """Declare the site's queues on the embedded broker (its tables are created with the first); the
    queues declared, none with another broker."""
    from dipserver.config.celery import app

    if not str(app.conf.broker_url).startswith("sqla+") or app.conf.task_always_eager:
        return []
    names = queue_names()
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        for name in names:
            channel.queue_declare(queue=name, durable=True, auto_delete=False)
    return names
