"""Bots in-process: the reference bot's transport over Django's test client (no sockets)."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

from dipserver.bot import ApiClient, Bot, Reply


class TestClientTransport:
    __test__ = False  # a helper, not a test class, though test modules import it

    def __init__(self) -> None:
        self.client = Client()

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()}
        data = "" if body is None else json.dumps(body)
        answer = self.client.generic(method, path, data, content_type="application/json", **extra)
        kind = answer.headers.get("Content-Type", "")
        parsed = (
            json.loads(answer.content) if answer.content and kind.startswith("application/json") else None
        )
        return Reply(answer.status_code, parsed, {k.lower(): v for k, v in answer.headers.items()})


def bots_for_a_new_game(variant: str, count: int, *, seed: int = 1, **settings: Any) -> list[Bot]:
    """``count`` bots, registered through the API; the first creates the game, the rest join it."""
    bots = []
    for i in range(count):
        api = ApiClient(TestClientTransport())
        api.log_in(f"{variant}-bot{i}", "bot password 123")
        bots.append(Bot(api, f"{variant}-bot{i}", seed=seed))
    game_id = bots[0].join_or_create(variant, **settings)
    for bot in bots[1:]:
        bot.join(game_id)
    return bots
