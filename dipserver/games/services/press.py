"""Press: messages between powers, within what the game's press setting allows, and read markers.

Channels and what each power sees of a message are defined in ``dipserver.games.press_channels``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from dipserver.games import notifications
from dipserver.games.errors import GameError
from dipserver.games.models import Game, Message, Power, PressMark
from dipserver.games.press_channels import ANONYMOUS
from dipserver.games.selectors import channel_existing, press_seen
from dipserver.games.services.announcements import announcement_later
from dipserver.games.services.common import game_locked, powers_locked, seat_of

IDEMPOTENCY_KEY_MAX = 255


@dataclass(frozen=True)
class Posted:
    message: Message
    replayed: bool  # the idempotency key had been used for this very message: nothing new was posted


def message_send(
    *, game_id: int, user: Any, body: str, recipients: Sequence[str] = (), now: dt.datetime | None = None
) -> Message:
    """Send press; no recipients means public press to every power. Emails go out after commit."""
    return press_post(game_id=game_id, user=user, body=body, recipients=recipients, now=now).message


@transaction.atomic
def press_post(
    *,
    game_id: int,
    user: Any,
    body: str,
    recipients: Sequence[str] = (),
    idempotency_key: str = "",
    now: dt.datetime | None = None,
) -> Posted:
    """Send press, once per ``idempotency_key`` (scoped to the sending power): a retry with the key of a
    message already posted gets that message back, even after the game has moved on; the same key with
    another body or other recipients is refused. Emails go out after commit, and never for a retry."""
    game = game_locked(game_id)
    powers = powers_locked(game)
    seat = seat_of(powers, user)
    text = body.strip()
    wanted = sorted({r.strip().upper() for r in recipients})
    if idempotency_key:
        earlier = posted_with(seat, idempotency_key)
        if earlier is not None:
            return Posted(_same_request(earlier, text, wanted), replayed=True)
    _check_sendable(game, seat, powers, text, wanted)
    phase_name = game.current_phase.name if game.current_phase is not None else ""
    fields = {"phase_name": phase_name, "recipients": wanted, "body": text}
    try:
        with transaction.atomic():  # a savepoint: a concurrent retry may have won the key's slot
            message = Message.objects.create(
                game=game, sender=seat, anonymous=game.press == Game.Press.ANONYMOUS,
                idempotency_key=idempotency_key, **fields,
            )  # fmt: skip
    except IntegrityError:  # (where the game lock does not serialize: SQLite's deferred transactions)
        earlier = posted_with(seat, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise
        return Posted(_same_request(earlier, text, wanted), replayed=True)
    announcement_later("press_send", game_id=game.id, message_id=message.id, now=now)
    return Posted(message, replayed=False)


def posted_with(seat: Power, key: str) -> Message | None:
    """The message ``seat`` posted with idempotency key ``key``, if any."""
    return Message.objects.filter(sender=seat, idempotency_key=key).first()


def _same_request(earlier: Message, text: str, wanted: list[str]) -> Message:
    if earlier.body != text or earlier.recipients != wanted:
        raise GameError(
            "This Idempotency-Key was already used for a different message; use a new key for new press",
            code="idempotency_key_reused",
        )
    return earlier


def _check_sendable(game: Game, seat: Power, powers: list[Power], text: str, wanted: list[str]) -> None:
    if not text:
        raise GameError("A message needs some text")
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
        raise GameError(f"{game.name} is not in play", code="not_in_play")
    if game.press == Game.Press.GUNBOAT:
        raise GameError(f"{game.name} is a gunboat game: no press")
    if wanted and game.press == Game.Press.PUBLIC:
        raise GameError(f"{game.name} allows public press only; send it to everyone")
    if ANONYMOUS.upper() in wanted:
        raise GameError("Anonymous press cannot be answered: nobody may learn who sent it")
    names = {p.name for p in powers}
    unknown = [r for r in wanted if r not in names or r == seat.name]
    if unknown:
        raise GameError(f"Cannot send press to {', '.join(unknown)}")


@dataclass(frozen=True)
class ReadMark:
    channel: str  # the channel's id, as the channel list gives it
    last_read: int  # the id of the last message read there


@transaction.atomic
def press_mark_read(*, game_id: int, user: Any, channel: str, up_to: int | None = None) -> ReadMark:
    """Mark ``user``'s press in ``channel`` read up to message ``up_to`` (by default the newest there);
    returns the channel's id and its marker, which never moves back (a late request from an old tab
    changes nothing). Refused, with the same words whoever sent what: a channel ``user`` does not have
    (``unknown_channel``), a message that is not in it (``not_in_channel``)."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise GameError(f"There is no game {game_id}", code="not_found")
    # The seat's row, locked: two marks of one power take turns (no key lock: press rows may point at it).
    user_id = getattr(user, "id", None)
    if user_id is None:  # an anonymous user must not match a vacant seat by ``user_id IS NULL``
        raise GameError("You are not playing in this game", code="not_a_player")
    seat = Power.objects.select_for_update(no_key=True).filter(game=game, user_id=user_id).first()
    if seat is None:
        raise GameError("You are not playing in this game", code="not_a_player")
    name = channel_existing(game=game, seat=seat, channel=channel)
    here = [s.message.id for s in press_seen(game=game, seat=seat) if s.channel == name]
    if up_to is None:
        up_to = here[-1] if here else 0
    elif up_to not in here:
        raise GameError(f"Message {up_to} is not in your {name} press", code="not_in_channel")
    mark, _ = PressMark.objects.get_or_create(power=seat, channel=name)
    if up_to > mark.last_read:
        mark.last_read = up_to
        mark.save(update_fields=["last_read", "updated_at"])
    # The inbox's news of this press is read with it (one read state): its listener marks it, in here.
    read = [i for i in here if i <= mark.last_read]
    ids = {"user_id": user_id, "message_ids": read}
    notifications.announced.send(sender=notifications.PRESS_READ, ids=ids)
    return ReadMark(name, mark.last_read)
