"""What each game event tells each reader, for the channels beside mail (webhooks, the in-site inbox).

``notices_of(name, ids)`` takes the event as ``dipserver.games.notifications`` announces it (the sender's
name and its ids) and returns one :class:`Notice` per player in the game, whatever their mail settings
(marked ``muted`` for a player who muted the game), plus one for the game as someone without a seat sees
it (``user_id`` None: what a game master's webhook gets). Press is told as each reader sees it
(``press_channels``): anonymous press names no sender, and a game-wide notice carries public press only.
Each notice's ``key`` names the event and the reader the same way a mail's does, so a channel that stores
it by key stores it once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from dipserver.accounts.models import User
from dipserver.accounts.selectors import user_zone
from dipserver.games.models import Game, Message, Phase, Power
from dipserver.games.phase_news import phase_news, shared_read
from dipserver.games.press_channels import seen_by, seen_publicly
from dipserver.mail.models import Mail
from dipserver.mail.unsubscribe import site_url

Kind = Mail.Kind  # the kinds of news are the kinds of game mail
# What a notification (and a webhook delivery) may be about: every kind of mail but the account's.
NEWS_KINDS = tuple(k.value for k in Kind if k != Kind.ACCOUNT)


@dataclass(frozen=True)
class Notice:
    key: str  # the event and the reader
    kind: str  # a Kind value
    game_id: int
    game_name: str
    user_id: int | None  # None: the game as seen without a seat
    title: str
    text: str
    url: str
    facts: dict[str, Any] = field(default_factory=dict)  # the structured fields of webhook payloads
    muted: bool = False  # the reader muted the game: the inbox leaves it out, webhooks deliver it


def _stamp(moment: dt.datetime | None) -> str:
    return f"{moment.timestamp():.0f}" if moment is not None else "-"


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _when(moment: dt.datetime | None, user: User | None) -> str:
    if moment is None:
        return "no deadline"
    zone = user_zone(user) if user is not None else dt.UTC
    return moment.astimezone(zone).strftime("%a %d %b %Y %H:%M %Z")


def _link(game: Game) -> str:
    return site_url(reverse("game", args=[game.id]))


def _readers(game: Game, seats: Iterable[Power] | None = None) -> list[Power]:
    """The seats with a player, in a fixed order."""
    chosen = seats if seats is not None else Power.objects.filter(game=game).select_related("user")
    return sorted((s for s in chosen if s.user_id is not None), key=lambda s: (s.name, s.id))


def _notice(
    kind: str,
    event: str,
    game: Game,
    user: User | None,
    title: str,
    text: str,
    *,
    link: str | None = None,  # the game's page, when the caller made it once for all its notices
    **facts: Any,
) -> Notice:
    reader = str(user.id) if user is not None else "game"
    return Notice(
        f"{kind}:{event}:{reader}",
        kind,
        game.id,
        game.name,
        user.id if user else None,
        title,
        text,
        link if link is not None else _link(game),
        facts,
        muted=user is not None and user.id in game.muted_by,
    )


def phase_processed(*, phase_id: int) -> list[Notice]:
    from dipserver.games.services.common import game_phase_title
    from dipserver.games.turn import powers_to_act

    news = phase_news(phase_id)  # read once for the mail and every channel beside it
    phase, game, following = news.phase, news.game, news.following
    lines = [f"Map change: {event}" for event in phase.events]
    facts: dict[str, Any] = {"phase": phase.name, "results": phase.results, "map_changes": phase.events}
    acting: set[str] = set()
    if game.status == Game.Status.FINISHED:
        lines.append(f"The game is over: {game.get_result_display()} {', '.join(game.winners)}".rstrip())
    elif following is not None:
        lines.append(f"Next: {game_phase_title(game, following.name)}")
        facts |= {"next_phase": following.name, "deadline": _iso(following.deadline)}
        acting = powers_to_act(following.snapshot) if following.status == Phase.Status.OPEN else set()
    title = f"[{game.name}] {game_phase_title(game, phase.name)} processed"
    event = f"phase:{phase.id}:{_stamp(phase.processed_at)}"
    summary = f"{len(phase.results)} orders adjudicated."
    link = _link(game)  # one URL for every reader's notice
    text = "\n".join([summary, *lines])
    out = [_notice(Kind.PHASE_PROCESSED, event, game, None, title, text, link=link, **facts)]
    for seat in _readers(game, news.seats):
        due = []
        if following is not None and game.status != Game.Status.FINISHED:
            todo = "Your orders are due" if seat.name in acting else "Nothing to order for you; it ends"
            due = [f"{todo} {_when(following.deadline, seat.user)}."]
        text = "\n".join([summary, *lines, *due])
        out.append(
            _notice(
                Kind.PHASE_PROCESSED,
                event,
                game,
                seat.user,
                title,
                text,
                link=link,
                **facts,
                to_order=seat.name in acting,
            )
        )
    return out


def press_received(*, message_id: int) -> list[Notice]:
    message = Message.objects.select_related("game", "sender").filter(id=message_id).first()
    if message is None:
        return []
    game = message.game
    seats = Power.objects.filter(game=game).exclude(name="").select_related("user")
    if message.sender_id is not None:
        seats = seats.exclude(pk=message.sender_id)
    if message.recipients:
        seats = seats.filter(name__in=message.recipients)
    views = [(s.user, seen_by(message, s)) for s in _readers(game, seats)]
    if not message.recipients:
        views.insert(0, (None, seen_publicly(message)))
    out = []
    for user, seen in views:
        sender = (seen.sender or "anonymous").title()
        to = "everyone" if not seen.recipients else ", ".join(n.title() for n in seen.recipients)
        title = f"[{game.name}] {'Public press' if not seen.recipients else 'Press'} from {sender}"
        facts: dict[str, Any] = {
            "sender": seen.sender,
            "recipients": seen.recipients,
            "channel": seen.channel,
        }
        text = f"To: {to}\n\n{message.body}"
        out.append(_notice(Kind.PRESS, f"message:{message.id}", game, user, title, text, **facts))
    return out


def press_key(message_id: int, user_id: int) -> str:
    """The key of a reader's notice of a message (as ``press_received`` makes it)."""
    return f"{Kind.PRESS}:message:{message_id}:{user_id}"


def deadline_soon(*, phase_id: int, power_ids: list[int], now: dt.datetime | None = None) -> list[Notice]:
    """The seats reminded whose orders are still missing or incomplete: how far they are, and when due."""
    from dipserver.games.selectors import orders_short, orders_state
    from dipserver.games.services.common import game_phase_title

    phase = Phase.objects.select_related("game").defer("snapshot").get(id=phase_id)
    if phase.status != Phase.Status.OPEN or phase.deadline is None:
        return []
    game = phase.game
    seats = _readers(game, Power.objects.filter(id__in=power_ids, game=game).select_related("user"))
    short = orders_short(phase.id, [s.id for s in seats]) if seats else {}
    phase_title = game_phase_title(game, phase.name)
    event = f"phase:{phase.id}:{_stamp(phase.deadline)}"
    return [
        _notice(
            Kind.DEADLINE_REMINDER,
            event,
            game,
            s.user,
            f"[{game.name}] {phase_title}: the deadline is near, {orders_state(*short[s.id])}",
            f"Your orders as {s.name.title()} for {phase_title} are due {_when(phase.deadline, s.user)}.",
            phase=phase.name,
            deadline=_iso(phase.deadline),
            power=s.name,
        )
        for s in seats
        if s.id in short
    ]


def game_started(*, game_id: int) -> list[Notice]:
    from dipserver.games.services.common import game_phase_title

    game = Game.objects.select_related("current_phase").get(id=game_id)
    phase = game.current_phase
    if phase is None:
        return []
    event = f"game:{game.id}:{_stamp(game.started_at)}"
    title = f"[{game.name}] The game has started"
    first = f"Orders for {game_phase_title(game, phase.name)} are due"
    facts = {"phase": phase.name, "deadline": _iso(phase.deadline)}
    out = [
        _notice(
            Kind.GAME_STARTED, event, game, None, title, f"{first} {_when(phase.deadline, None)}.", **facts
        )
    ]
    for seat in _readers(game):
        text = f"You play {seat.name.title()}. {first} {_when(phase.deadline, seat.user)}."
        out.append(_notice(Kind.GAME_STARTED, event, game, seat.user, title, text, **facts, power=seat.name))
    return out


def game_ended(*, game_id: int) -> list[Notice]:
    game = Game.objects.get(id=game_id)
    if game.status != Game.Status.FINISHED:
        return []
    result = game.get_result_display() + (
        f": {', '.join(w.title() for w in game.winners)}" if game.winners else ""
    )
    lines = [f"{game.name} is over. {result}."]
    facts: dict[str, Any] = {"result": game.result, "winners": game.winners}
    if game.options.get("mode") == "random":
        lines.append(
            f"The random map changes were drawn from the secret {game.secret} (commitment {game.commitment})."
        )
        facts |= {"secret": game.secret, "commitment": game.commitment}
    title = f"[{game.name}] The game is over: {result}"
    event = f"game:{game.id}:{_stamp(game.finished_at)}"
    readers: list[User | None] = [None, *(s.user for s in _readers(game))]
    return [_notice(Kind.GAME_ENDED, event, game, u, title, "\n".join(lines), **facts) for u in readers]


def version_changed(*, change_id: int) -> list[Notice]:
    """The game plays a newer version of its studio variant: every player and the game as seen without a
    seat hear the same news (from which phase, and what changes)."""
    from dipserver.games.version_news import version_news

    news = version_news(change_id)
    if news is None:
        return []
    game, text, link = news.game, "\n".join(news.lines), _link(news.game)
    readers: list[User | None] = [None, *(s.user for s in _readers(game, news.seats))]
    event = f"version:{news.change.id}"
    return [
        _notice(Kind.VERSION_CHANGED, event, game, u, news.title, text, link=link, **news.facts)
        for u in readers
    ]


# The mail sender each event is announced by (``notifications.SENDERS``) -> what it tells every reader.
EVENTS: dict[str, Callable[..., list[Notice]]] = {
    "phase_results_send": phase_processed,
    "press_send": press_received,
    "deadline_reminder_send": deadline_soon,
    "game_started_send": game_started,
    "game_ended_send": game_ended,
    "version_changed_send": version_changed,
}


def notices_of(name: str, ids: dict[str, Any]) -> list[Notice]:
    """The notices of one announced event; none for an event this module does not know."""
    build = EVENTS.get(name)
    if build is None:
        return []
    # The inbox and webhooks hear the same event in one task: its notices are built once for both.
    return shared_read(("notices", name, repr(sorted(ids.items()))), lambda: build(**ids))
