"""A notice as the JSON a webhook receives: ``content`` (Discord) and ``text`` (Slack) carry the message
as people read it, Discord's ``embeds`` a titled card; ``event``, ``game``, ``title``, ``body`` and
``facts`` are the same news for programs. Discord and Slack ignore the fields they do not know."""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import Notice

CONTENT_LIMIT = 1900  # Discord refuses more than 2000 characters of content


def payload_of(notice: Notice, key: str) -> dict[str, Any]:
    message = f"{notice.title}\n{notice.text}\n{notice.url}"
    if len(message) > CONTENT_LIMIT:
        message = message[: CONTENT_LIMIT - 1] + "…"
    return {
        "content": message,
        "text": message,
        "username": "dipserver",
        "embeds": [{"title": notice.title[:256], "description": notice.text[:4000], "url": notice.url}],
        "event": notice.kind,
        "delivery": key,
        "game": {"id": notice.game_id, "name": notice.game_name, "url": notice.url},
        "title": notice.title,
        "body": notice.text,
        "facts": notice.facts,
    }
