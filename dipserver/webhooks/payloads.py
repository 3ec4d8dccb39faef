"""A notice as the JSON a webhook receives: ``content`` (Discord) and ``text`` (Slack) carry the message
as people read it, Discord's ``embeds`` a titled card; ``event``, ``game``, ``title``, ``body`` and
``facts`` are the same news for programs, as written. Discord and Slack ignore the fields they do not know.

What players write (press, game and user names) reaches other people's channels, so it is never read as
markup there: Discord is told to ping nobody (``allowed_mentions``) and its markdown is escaped with
backslashes (no ``@everyone``, no ``<@123>``, no disguised ``[text](http://…)`` link), and Slack's control
characters ``& < >`` are escaped, so no ``<!channel>`` and no disguised ``<http://…|text>`` link can be
formed.
"""

from __future__ import annotations

from typing import Any

from dipserver.notices.events import Notice

CONTENT_LIMIT = 2000  # Discord refuses more than 2000 characters of content
TITLE_LIMIT, DESCRIPTION_LIMIT = 256, 4096  # a Discord embed's
TEXT_LIMIT = 4000  # Slack shortens longer text itself; ours stays readable
# The characters of Discord's markdown, masked links, mentions and headings (a backslash before one shows
# it as it is). An address written out stays a link, but shows where it goes.
DISCORD_MARKUP = frozenset("\\*_~`|>[]()<#-@")
SLACK_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _fitted(pieces: list[str], limit: int) -> str:
    """The pieces joined, cut at ``limit`` characters (with an ellipsis) but never inside a piece."""
    out, used = [], 0
    for piece in pieces:
        if used + len(piece) > limit - 1:
            out.append("…")
            break
        out.append(piece)
        used += len(piece)
    return "".join(out)


def discord_text(text: str, limit: int) -> str:
    return _fitted(["\\" + c if c in DISCORD_MARKUP else c for c in text], limit)


def slack_text(text: str, limit: int) -> str:
    return _fitted([SLACK_ESCAPES.get(c, c) for c in text], limit)


def payload_of(notice: Notice, key: str) -> dict[str, Any]:
    message = f"{notice.title}\n{notice.text}"
    link = f"\n{notice.url}"  # the site's own address, as it is
    return {
        "content": discord_text(message, CONTENT_LIMIT - len(link)) + link,
        "allowed_mentions": {"parse": []},
        "text": slack_text(message, TEXT_LIMIT - len(link)) + slack_text(link, len(link) + 1),
        "username": "dipserver",
        "embeds": [
            {
                "title": discord_text(notice.title, TITLE_LIMIT),
                "description": discord_text(notice.text, DESCRIPTION_LIMIT),
                "url": notice.url,
            }
        ],
        "event": notice.kind,
        "delivery": key,
        "game": {"id": notice.game_id, "name": notice.game_name, "url": notice.url},
        "title": notice.title,
        "body": notice.text,
        "facts": notice.facts,
    }
