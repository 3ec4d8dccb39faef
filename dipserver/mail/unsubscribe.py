"""Signed one-click unsubscribe links: no login needed, and they never expire (old mails keep working).

A token names a user and a kind of mail; ``django.core.signing`` makes it unforgeable.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.urls import reverse

SALT = "dipserver.mail.unsubscribe"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: str


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def unsubscribe_read(token: str) -> Unsubscribe | None:
    """What a token asks for, or None when it is not one of ours (tampered, truncated, foreign key)."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("k"), str):
        return None
    return Unsubscribe(data["u"], data["k"])


def unsubscribe_url(user_id: int, kind: str) -> str:
    return site_url(reverse("unsubscribe", args=[unsubscribe_token(user_id, kind)]))


def site_url(path: str) -> str:
    """An absolute address on this site, for links in mails (``SITE_URL``)."""
    return settings.DIPSERVER_SITE_URL.rstrip("/") + path


def site_domain() -> str:
    """The site's host name (``SITE_URL``), for the Message-ID of its mails."""
    return urlsplit(settings.DIPSERVER_SITE_URL).hostname or "localhost"


def list_headers(url: str) -> dict[str, str]:
    """RFC 2369 ``List-Unsubscribe`` and RFC 8058 one-click ``List-Unsubscribe-Post``."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
