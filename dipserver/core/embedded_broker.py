"""Upkeep of the embedded broker (kombu's SQLAlchemy transport on SQLite, ``./dip serve``'s default).

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
