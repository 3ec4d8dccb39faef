"""The reference bot: plays through the REST API only, choosing seeded random orders from the options
endpoint. ``python -m dipserver.bot --help``. It imports nothing from the server (no Django)."""

from dipserver.bot.client import ApiClient, ApiError, HttpTransport, Reply, Transport
from dipserver.bot.player import Bot, choose_orders, play

__all__ = ["ApiClient", "ApiError", "Bot", "HttpTransport", "Reply", "Transport", "choose_orders", "play"]
