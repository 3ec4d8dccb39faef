"""A real SMTP server on loopback (aiosmtpd) that the site sends to, and helpers to read what it got."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Inbox:
    """What the SMTP server received, parsed; ``port`` is where it listens (or will listen)."""

    port: int
    received: list[EmailMessage] = field(default_factory=list)
    controller: Controller | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.received.append(message)
        return "250 Message accepted for delivery"

    def start(self) -> None:
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.received if m["X-Envelope-To"] == address]

    def one_to(self, address: str) -> EmailMessage:
        mails = self.to(address)
        assert len(mails) == 1, [m["Subject"] for m in mails]
        return mails[0]


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def links_in(message: EmailMessage) -> list[str]:
    """The paths of the links in a mail's text, to follow with the test client."""
    return [urlsplit(url).path for url in re.findall(r"https?://\S+", text_of(message))]


def unsubscribe_path(message: EmailMessage) -> str:
    header = str(message["List-Unsubscribe"]).strip()  # a long header is folded onto its own line
    assert header.startswith("<") and header.endswith(">"), header
    return urlsplit(header[1:-1]).path


@pytest.fixture
def smtp_settings(settings: Any) -> Iterator[Inbox]:
    """The site's mail goes to a port on loopback; the test decides when a server listens there."""
    inbox = Inbox(port=free_port())
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", inbox.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 10
    settings.DEFAULT_FROM_EMAIL = "dipserver <games@dip.example.org>"
    settings.DIPSERVER_SITE_URL = "https://dip.example.org"
    yield inbox
    inbox.stop()


@pytest.fixture
def smtp(smtp_settings: Inbox) -> Inbox:
    """A real SMTP server listening on loopback for the whole test."""
    smtp_settings.start()
    return smtp_settings
