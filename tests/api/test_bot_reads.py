"""What the bot reads over the API before it orders: the options, the phase's board, the map's graph (once
a game) and the timeline; and what it does on a server without the graph."""

from __future__ import annotations

from typing import Any

import pytest

from dipserver.bot import Reply
from dipserver.games.models import Order, Power
from tests.api.bots import TestClientTransport, bots_for_a_new_game

THROTTLES = {"login": "1000/min", "register": "1000/min", "writes": "10000/min"}


class _Recording(TestClientTransport):
    """Keeps the paths asked for; ``without`` answers 404 as a server without that endpoint would."""

    def __init__(self, without: str = "") -> None:
        super().__init__()
        self.paths: list[str] = []
        self.without = without

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        self.paths.append(f"{method} {path}")
        if self.without and path.endswith(self.without):
            return Reply(404, {"error": {"code": "not_found", "message": "Not found."}})
        return super().request(method, path, body, headers)


def _recording(bot, without: str = "") -> _Recording:
    recording = _Recording(without)
    recording.client = bot.api.transport.client  # the same session and login
    bot.api.transport = recording
    return recording


def _units(seat: Power) -> int:
    snapshot = seat.game.current_phase.snapshot
    return sum(1 for unit in snapshot["units"] if unit["power"] == seat.name)


@pytest.mark.django_db
def test_the_bot_reads_the_board_the_graph_and_the_timeline_before_it_orders(settings):
    settings.DIPSERVER_API_THROTTLES = THROTTLES
    bots = bots_for_a_new_game("standard", 7)
    recording = _recording(bots[0])
    assert bots[0].step() is True
    game = f"/api/v1/games/{bots[0].game_id}"
    asked = [p for p in recording.paths if p.startswith("GET")]
    assert {
        f"GET {game}/graph",
        f"GET {game}/phases/0",
        f"GET {game}/timeline",
        f"GET {game}/options",
    } <= set(asked)
    seat = Power.objects.get(game_id=bots[0].game_id, user__username=bots[0].username)
    assert Order.objects.filter(power=seat).count() == _units(seat) and seat.ready


@pytest.mark.django_db
def test_without_the_graph_endpoint_the_bot_plays_random_legal_orders(settings):
    settings.DIPSERVER_API_THROTTLES = THROTTLES
    bots = bots_for_a_new_game("standard", 7)
    _recording(bots[0], without="/graph")
    assert bots[0].step() is True and bots[0].smart is False
    seat = Power.objects.get(game_id=bots[0].game_id, user__username=bots[0].username)
    assert Order.objects.filter(power=seat).count() == _units(seat) and seat.ready
