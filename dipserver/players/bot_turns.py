"""A bot seat's turn: every house bot seated in a game orders for the open phase through the REST API, as a
person's program does, over an in-process HTTP transport (httpx's WSGI transport onto this site's own WSGI
application) with a token of its own made for the run and revoked after it. The task
``dipserver.players.house_bots_play`` runs it; ``house_bots`` seats the bots and queues that task.
"""

from __future__ import annotations

from typing import Any

import httpx
from django.conf import settings
from django.core.wsgi import get_wsgi_application

from dipserver.accounts.tokens import token_create, token_revoke
from dipserver.bot import ApiClient, Bot, Reply
from dipserver.games.models import Power


class WsgiTransport:
    """The bot's transport onto this site's WSGI application, in process (no socket, no network)."""

    def __init__(self) -> None:
        host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h not in ("*", "")), "localhost")
        scheme = "https" if getattr(settings, "SECURE_SSL_REDIRECT", False) else "http"
        app = httpx.WSGITransport(app=get_wsgi_application())
        self.client = httpx.Client(transport=app, base_url=f"{scheme}://{host}")

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        answer = self.client.request(
            method, path, json=body, headers={"Accept": "application/json", **(headers or {})}
        )
        kind = answer.headers.get("content-type", "")
        data = answer.json() if answer.content and kind.startswith("application/json") else None
        return Reply(answer.status_code, data, {k.lower(): v for k, v in answer.headers.items()})


def bots_play(*, game_id: int) -> int:
    """Every bot seat of the game orders for the open phase through the API; how many acted."""
    seats = Power.objects.filter(game_id=game_id, user__is_bot=True).select_related("user")
    acted = 0
    for seat in seats:
        if seat.status == Power.Status.ELIMINATED or seat.user is None:
            continue
        token, secret = token_create(user=seat.user, name=f"house bot, game {game_id}", expires_in_days=1)
        try:
            api = ApiClient(WsgiTransport())
            api.token = secret
            bot = Bot(api, seat.user.username, seed=game_id)
            bot.game_id = game_id
            acted += bool(bot.step())
        finally:
            token_revoke(token=token)
    return acted
