"""Press channels: how one power sees each message it may read, and how channels are named.

A channel is the set of powers a message travels between, named from the reader's side: ``public`` for
press to everyone, else the *other* powers, sorted and joined by commas (``ENGLAND`` for a two-way talk,
``ENGLAND,FRANCE`` for a group). The reader is never part of a channel's name or recipients, so a reply to
a channel goes to exactly the powers it names.

Anonymous press (sent in an anonymous game, flagged on the message for good) that reaches a power in
private lands in that power's one ``anonymous`` channel, whoever sent it, and shows the reader only
itself as recipient: the co-recipients would narrow down the sender (a message to six of seven powers names
the seventh). Nothing a reader sees of it, channel, recipients, unread count or read mark, depends on
who sent it. The sender sees its own message as usual, in the channel of the powers it wrote to.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipserver.games.errors import GameError
from dipserver.games.models import Message, Power

PUBLIC = "public"  # the channel everyone reads
ANONYMOUS = "anonymous"  # where private anonymous press reaches its recipients


@dataclass(frozen=True)
class SeenMessage:
    """A message as one power sees it."""

    message: Message
    channel: str
    sender: str | None  # None: hidden (anonymous press from someone else), or a seat since removed
    recipients: list[str]  # empty: public
    mine: bool  # the reader sent it


def reaches(message: Message, seat: Power) -> bool:
    """Whether ``seat`` may read ``message``: public press, press it sent, press addressed to it."""
    return not message.recipients or message.sender_id == seat.id or seat.name in message.recipients


def seen_by(message: Message, seat: Power) -> SeenMessage:
    """``message`` (one ``seat`` may read, its sender loaded) as ``seat`` sees it."""
    mine = message.sender_id == seat.id
    sender_name = message.sender.name if message.sender is not None else None
    sender = sender_name if mine or not message.anonymous else None
    if not message.recipients:
        return SeenMessage(message, PUBLIC, sender, [], mine)
    if message.anonymous and not mine:
        return SeenMessage(message, ANONYMOUS, None, [seat.name], mine)
    others = {*message.recipients, sender_name or ""} - {seat.name, ""}
    return SeenMessage(message, channel_id(others), sender, list(message.recipients), mine)


def seen_publicly(message: Message) -> SeenMessage:
    """Public press as someone without a seat sees it: the sender hidden when anonymous."""
    sender = None if message.anonymous or message.sender is None else message.sender.name
    return SeenMessage(message, PUBLIC, sender, [], mine=False)


def channel_id(powers: set[str] | list[str]) -> str:
    """The id of the channel with ``powers`` (the reader left out): ``public`` when there are none."""
    names = sorted({p.upper() for p in powers})
    return ",".join(names) if names else PUBLIC


def channel_powers(channel: str) -> list[str]:
    """The powers a channel id names: none for ``public`` and ``anonymous``."""
    return [] if channel in (PUBLIC, ANONYMOUS) else channel.split(",")


def channel_parsed(text: str) -> str:
    """A channel as a client may spell it (any case, any order, spaces and commas between names) -> its
    id; a request that names no channel at all is refused."""
    name = text.strip()
    if name.lower() in (PUBLIC, ANONYMOUS):
        return name.lower()
    names = {n.strip() for n in name.split(",") if n.strip()}
    if not names:
        raise GameError("Say which channel: 'public' or the powers you talk with", code="unknown_channel")
    return channel_id(names)
