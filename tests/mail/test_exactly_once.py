"""Each mail reaches its server exactly once, through a real SMTP server on loopback that answers late or
refuses: the attempt is written down before sending, the mail sent outside any transaction, and a server
that took the message but answered after ``EMAIL_TIMEOUT`` does not get it again. Every attempt carries the
mail's own Message-ID, on the site's domain."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from dipserver.mail.delivery import STAGE_DATA, STAGE_SENDING, Delivery, mail_deliver
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue
from dipserver.mail.tasks import mail_send, mails_due_queue
from tests.mail.conftest import Inbox

pytestmark = pytest.mark.django_db
TIMEOUT = 1  # EMAIL_TIMEOUT in these tests, seconds
LATE = 2.5  # how long the late server takes to answer the end of DATA


class LateInbox(Inbox):
    """Keeps every message it is given, then answers after ``delay`` seconds, with ``answers`` in turn
    (then 250); ``while_holding`` runs in a thread while it holds a message, before it answers."""

    delay: float = 0.0
    answers: list[str]
    while_holding: Any = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await super().handle_DATA(server, session, envelope)
        if self.while_holding is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.while_holding)
        await asyncio.sleep(self.delay)
        return self.answers.pop(0) if self.answers else "250 Message accepted for delivery"


@pytest.fixture
def late_smtp(smtp_settings, settings) -> LateInbox:
    settings.EMAIL_TIMEOUT = TIMEOUT
    inbox = LateInbox(port=smtp_settings.port)
    inbox.answers = []
    inbox.start()
    yield inbox
    inbox.stop()


@pytest.fixture
def queued(django_capture_on_commit_callbacks):
    """Put a mail in the outbox; its task sends it on commit (eager), unless ``send`` is false."""

    def queue(key: str = "game_started:1:user:1", *, send: bool = True) -> Mail:
        with django_capture_on_commit_callbacks(execute=send):
            (mail_id,) = mail_queue(
                [Outgoing(key, Mail.Kind.GAME_STARTED, "ann@example.org", "Started", "Go.")]
            )
        return Mail.objects.get(id=mail_id)

    return queue


def received_after(inbox: Inbox, seconds: float) -> int:
    time.sleep(seconds)  # the late server finishes its answers
    return len(inbox.received)


def test_a_server_that_answers_250_after_the_timeout_gets_the_mail_once(queued, late_smtp, celery_conf):
    celery_conf(task_eager_propagates=False)  # eager retries would run at once, as a worker's would
    late_smtp.delay = LATE

    mail = queued()  # sent by the task as it is queued (eager)

    assert received_after(late_smtp, LATE) == 1
    mail.refresh_from_db()
    assert mail.sent_at is not None and mail.unconfirmed and mail.attempts == 1
    assert mail.last_error.startswith("Sent, unconfirmed (not sent again)")
    assert mail_send(mail.id) == Delivery.ALREADY_SENT
    assert mails_due_queue(now=timezone.now() + dt.timedelta(days=2)) == []
    assert received_after(late_smtp, 0.5) == 1


def test_a_server_that_answers_in_time_gets_the_mail_once_confirmed(queued, late_smtp):
    late_smtp.delay = TIMEOUT / 4

    mail = queued()

    assert len(late_smtp.received) == 1
    mail.refresh_from_db()
    assert mail.sent_at is not None and not mail.unconfirmed and mail.last_error == ""


def test_a_clear_refusal_of_the_message_is_tried_again_with_the_same_message_id(queued, late_smtp):
    late_smtp.answers = ["451 4.3.0 Try again later"]
    mail = queued(send=False)

    assert mail_deliver(mail_id=mail.id) == Delivery.FAILED
    mail.refresh_from_db()
    assert mail.sent_at is None and "451" in mail.last_error and mail.stage == ""
    assert mail_deliver(mail_id=mail.id) == Delivery.SENT

    first, second = late_smtp.received
    assert first["Message-ID"] == second["Message-ID"]
    assert str(first["Message-ID"]).endswith("@dip.example.org>")  # the site's domain (SITE_URL)


def test_every_mail_has_its_own_message_id(queued, late_smtp):
    queued("one")
    queued("two")
    assert len({str(m["Message-ID"]) for m in late_smtp.received}) == 2


def test_an_attempt_that_died_while_giving_the_server_the_message_is_not_sent_again(queued, late_smtp):
    mail = queued(send=False)  # the row as a dead attempt left it
    Mail.objects.filter(id=mail.id).update(stage=STAGE_DATA, lease_until=timezone.now(), attempts=1)

    assert mail_deliver(mail_id=mail.id) == Delivery.ALREADY_SENT

    assert late_smtp.received == []
    mail.refresh_from_db()
    assert mail.sent_at is not None and mail.unconfirmed and "ended while the server" in mail.last_error


def test_an_attempt_that_died_before_the_message_was_given_is_sent_again(queued, late_smtp):
    mail = queued(send=False)
    Mail.objects.filter(id=mail.id).update(stage=STAGE_SENDING, lease_until=timezone.now(), attempts=1)

    assert mail_deliver(mail_id=mail.id) == Delivery.SENT

    assert len(late_smtp.received) == 1
    mail.refresh_from_db()
    assert mail.attempts == 2 and not mail.unconfirmed


def test_a_mail_being_sent_is_not_sent_by_a_second_attempt(queued, late_smtp):
    mail = queued(send=False)
    Mail.objects.filter(id=mail.id).update(
        stage=STAGE_SENDING, lease_until=timezone.now() + dt.timedelta(minutes=5), attempts=1
    )

    assert mail_deliver(mail_id=mail.id) == Delivery.IN_FLIGHT

    assert late_smtp.received == []


@pytest.mark.django_db(transaction=True)
def test_no_transaction_is_held_while_the_server_takes_its_time(late_smtp):
    """On SQLite (one writer at a time) a write to the same outbox row, made while the server holds the
    message, goes through at once: the sender holds no lock."""
    late_smtp.delay = TIMEOUT / 2
    mail = Mail.objects.create(  # stored, not yet queued
        key="k", kind=Mail.Kind.GAME_STARTED, to="ann@example.org", subject="S", body="B",
        next_attempt_at=timezone.now(),
    )  # fmt: skip
    took: list[float] = []

    def write_meanwhile() -> None:
        started = time.monotonic()
        try:
            Mail.objects.filter(id=mail.id).update(subject="Started (edited)")
            took.append(time.monotonic() - started)
        finally:
            connection.close()

    late_smtp.while_holding = write_meanwhile
    sender = threading.Thread(target=lambda: (mail_deliver(mail_id=mail.id), connection.close()))
    sender.start()
    sender.join(10)

    assert len(late_smtp.received) == 1
    assert len(took) == 1 and took[0] < 0.5, took
    assert Mail.objects.get(id=mail.id).sent_at is not None


def test_the_mails_queued_together_go_to_the_broker_as_one_task(smtp, django_capture_on_commit_callbacks):
    mails = [
        Outgoing(f"game_started:1:user:{n}", Mail.Kind.GAME_STARTED, f"p{n}@example.org", "S", "B")
        for n in range(7)
    ]
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert len(mail_queue(mails)) == 7
    assert len(sent) == 1
    assert len(smtp.received) == 7


def test_mails_queued_again_store_and_send_nothing_twice(smtp, django_capture_on_commit_callbacks):
    mails = [
        Outgoing(f"game_started:1:user:{n}", Mail.Kind.GAME_STARTED, f"p{n}@example.org", "S", "B")
        for n in range(3)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        mail_queue(mails[:2])
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert len(mail_queue(mails)) == 1  # the third only
    assert len(sent) == 1
    assert Mail.objects.count() == 3 and len(smtp.received) == 3
