"""The site's own bots in seats: bot accounts (``User.is_bot``) that play through the REST API exactly as
a person's program does, driven by the reference bot (``dipserver.bot``: its public ``Bot``), over an
in-process HTTP transport (httpx's WSGI transport onto this site's own WSGI application) with a token of
their own made for the run and revoked after it.

A game master fills a forming game's empty seats with bots (where the game allows it) or hands a power in
civil disorder to one; when a phase opens in a game where a bot has held a seat, ``bots_play_later`` queues
the task that has every bot seat order once the transaction commits (the turn itself: ``bot_turns``).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from dipserver.games.errors import GameError
from dipserver.games.models import Game, Power
from dipserver.games.services.common import game_locked, powers_locked
from dipserver.games.services.games import game_join
from dipserver.games.services.seats import seat_hand_over
from dipserver.games.variants import game_variant
from dipserver.players.tasks import house_bots_play

log = logging.getLogger(__name__)
BOT_NAME = "bot-{}"  # the site's bots: bot-1, bot-2, ... (one per seat of a game)


def house_bots(count: int, *, besides: set[int]) -> list[Any]:
    """``count`` of the site's bot accounts none of whose ids is in ``besides``, made when missing."""
    users = get_user_model()
    found: list[Any] = []
    number = 1
    while len(found) < count:
        bot, made = users.objects.get_or_create(username=BOT_NAME.format(number), defaults={"is_bot": True})
        if made:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        if not bot.is_bot:
            raise GameError(f"The account {bot.username} is not a bot; rename it to let bots play")
        if bot.id not in besides:
            found.append(bot)
        number += 1
    return found


def game_fill_with_bots(*, game_id: int) -> Game:
    """A game master starts a forming game now, bots in the seats still empty (where the game allows)."""
    with transaction.atomic():
        game = game_locked(game_id)
        if not game.bots_fill_seats:
            raise GameError(f"{game.name} was not created to take bots in its seats", code="no_bots")
        if game.status != Game.Status.FORMING:
            raise GameError(f"{game.name} has already started", code="already_started")
        seats = powers_locked(game)
        empty = len(game_variant(game).powers) - len(seats)
        for bot in house_bots(empty, besides={s.user_id for s in seats if s.user_id}):
            game_join(game_id=game.id, user=bot)
    return Game.objects.get(id=game_id)


def seat_to_bot(*, game_id: int, power_id: int) -> Power:
    """A game master hands a power in civil disorder to a bot until a person takes it over."""
    seat = Power.objects.filter(id=power_id, game_id=game_id).first()
    if seat is None:
        raise GameError(f"There is no seat {power_id} in game {game_id}", code="not_found")
    if not seat.seat_open:
        raise GameError(f"{seat.name.title()} is not in civil disorder", code="seat_not_open")
    taken = set(Power.objects.filter(game_id=game_id, user__isnull=False).values_list("user_id", flat=True))
    [bot] = house_bots(1, besides=taken)
    handed = seat_hand_over(game_id=game_id, power_id=power_id, user=bot)
    Power.objects.filter(id=power_id).update(seat_open=True)  # still offered to a person
    handed.seat_open = True
    return handed


def disorder_to_bots(game: Game, power_ids: list[int]) -> None:
    """Powers that just fell into civil disorder (a ``games.endings`` hook, in the processing
    transaction): where the game says so, a bot plays each until a person takes the seat."""
    if not game.bots_play_disorder:
        return
    for power_id in power_ids:
        seat_to_bot(game_id=game.id, power_id=power_id)


def bots_play_later(game: Game) -> None:
    """A phase opened (a ``games.endings`` hook): once committed, the game's bot seats order."""
    if game.bots_seated:
        transaction.on_commit(functools.partial(_queue, game.id))


def _queue(game_id: int) -> None:
    try:
        house_bots_play.delay(game_id)
    except Exception:  # the broker is down: the bots miss this phase and hold, like an absent player
        log.exception("could not queue the bots of game %s", game_id)
