"""Whether the broker lost its messages: a sentinel message kept in a queue that no worker reads.

Redis started again without its data (or a new, empty broker) holds none of the task messages that were
queued before: the phases they were to process and the announcements they were to tell would wait for
the five-minute re-queue. The deadline sweep asks here every second; the sentinel still being there
proves that nothing queued before it was lost, and finding it gone (or never put) tells the sweep to
queue again at once what the database says is in flight. The answer costs one broker round trip (the
queue's length); a missing sentinel is put back, so a loss is reported once.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.entity import Queue

logger = logging.getLogger(__name__)

SUFFIX = ".sentinel"


def sentinel_queue_name() -> str:
    """The site's own sentinel queue, beside its task queue (sites sharing a Redis keep apart)."""
    from dipserver.config.celery import app

    return f"{app.conf.task_default_queue}{SUFFIX}"


def broker_lost_messages() -> bool:
    """True when the site's sentinel is gone: whatever was queued before may be lost. It is put back.

    With tasks run in-process (tests) there is no broker to lose anything: False. A broker that cannot be
    reached is the sweep's own failure, not a loss: False, logged.
    """
    from dipserver.config.celery import app

    if app.conf.task_always_eager:
        return False
    name = sentinel_queue_name()
    try:
        with app.connection_for_write() as conn:
            return sentinel_missing(conn, name)
    except Exception as exc:  # kombu raises transport-specific errors; none of them means a loss
        logger.warning("cannot check the broker's sentinel %s: %s", name, exc)
        return False


def sentinel_missing(conn: Any, name: str) -> bool:
    """On the kombu connection ``conn``: whether the queue ``name`` holds no message; if so, put one."""
    queue = Queue(name, routing_key=name, durable=True, auto_delete=False)  # type: ignore[no-untyped-call]
    channel = conn.default_channel
    if channel.queue_declare(queue=name, durable=True, auto_delete=False).message_count:
        return False
    conn.Producer(channel).publish(
        {"sentinel": name}, exchange="", routing_key=name, declare=[queue], retry=False
    )
    return True
