"""Emails to players about their games: phase results, deadline reminders, press, game started and ended,
a move to a newer version of its studio variant.

Services call ``notification_later("<name>", ...)`` inside their transaction; after the commit a Celery
task (``dipserver.games.notification_send``) runs the ``<name>`` function below, so no request ever waits
for a mail. Each function takes ids, reloads what it needs and puts one mail per recipient in the outbox
(``dipserver.mail.outbox``). A player gets a mail only with a confirmed address, the game not muted
(``Game.muted_by``) and that kind of mail switched on (``dipserver.accounts.selectors.preference_wants``).
Every mail's key names the event and the recipient, so a function that runs twice (a retried or
redelivered task) mails nobody twice. Phase results, a game's start and end and press are also recorded
as untold until their task has run, so one lost on its way to the broker is queued again
(``services.announcements``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from django.dispatch import Signal
from django.urls import reverse

from dipserver.accounts.models import User
from dipserver.accounts.selectors import preference_wants, preferences_of, user_zone
from dipserver.games.jobs import job_later
from dipserver.games.models import Game, Message, Phase, Power, Reminder
from dipserver.games.phase_names import game_phase_title
from dipserver.games.phase_news import phase_news
from dipserver.games.pictures import PHASE_PICTURE
from dipserver.games.press_channels import seen_by
from dipserver.games.selectors import orders_short, orders_state
from dipserver.games.turn import powers_to_act
from dipserver.games.version_news import version_news
from dipserver.mail.delivery import TIME_LEFT
from dipserver.mail.models import Mail
from dipserver.mail.outbox import Outgoing, mail_queue
from dipserver.mail.pictures import picture_ref
from dipserver.mail.unsubscribe import site_url

# What the task may run (it is given a name through the broker).
SENDERS = (
    "phase_results_send",
    "press_send",
    "deadline_reminder_send",
    "game_started_send",
    "game_ended_send",
    "version_changed_send",
)


# Sent (``name``: the sender, ``ids``: its arguments) in the worker once an event's mails are queued. The
# channels beside mail listen (``dipserver.webhooks``, ``dipserver.notices``), so games imports neither.
announced = Signal()
# Announced (not a sender: no mail) when a player reads press, ``ids`` the user and the messages read.
PRESS_READ = "press_read"

_muted: ContextVar[bool] = ContextVar("dipserver_notifications_muted", default=False)


@contextmanager
def notifications_muted() -> Iterator[None]:
    """Announce nothing that happens inside (the demo's seeded history is nobody's news)."""
    token = _muted.set(True)
    try:
        yield
    finally:
        _muted.reset(token)


def notifications_on() -> bool:
    """Whether what happens now is announced (not inside ``notifications_muted``)."""
    return not _muted.get()


def notification_later(name: str, **ids: int) -> None:
    """Run the sender ``name`` with ``ids`` in a worker once the current transaction commits."""
    if name not in SENDERS:
        raise ValueError(f"No notification called {name!r}")
    if not _muted.get():
        job_later("notification_send", name, ids)


def told_ids(name: str, ids: dict[str, Any]) -> dict[str, Any] | None:
    """What the sender and the channels beside it are called with: ``ids`` as queued, but for deadline
    reminders queued again from their ``Announcement`` row (``{"game_id": ...}``, the sweep that wrote them
    died before their mails were queued) the game's open phase and every seat whose player was reminded
    of its deadline (each channel stores by key: those told before hear nothing twice). None: nothing to
    tell (the phase is no longer open)."""
    if name != "deadline_reminder_send" or "game_id" not in ids:
        return ids
    phase = (
        Phase.objects.filter(id=Game.objects.filter(id=ids["game_id"]).values("current_phase_id")[:1])
        .filter(status=Phase.Status.OPEN, deadline__isnull=False)
        .values_list("id", "deadline")
        .first()
    )
    if phase is None or phase[1] is None:
        return None
    reminded = Reminder.objects.filter(phase_id=phase[0], deadline=phase[1]).values("user_id")
    seats = Power.objects.filter(game_id=ids["game_id"], user_id__in=reminded).order_by("id")
    power_ids = list(seats.values_list("id", flat=True))
    return {"phase_id": phase[0], "power_ids": power_ids} if power_ids else None


def _send(mails: list[Outgoing]) -> int:
    """Put the mails in the outbox (each sent by its own task); returns how many were new."""
    return len(mail_queue(mails)) if mails else 0


def _wanting(seats: Iterable[Power], kind: str, game: Game) -> list[Power]:
    """The seats of ``game`` whose player has a confirmed address, has not muted the game and wants mails
    of ``kind``."""
    seats = [s for s in seats if s.user is not None and s.user.email and s.user_id not in game.muted_by]
    if not seats:  # nobody to mail: no preferences to read (building even an empty query costs)
        return []
    wants = preferences_of(s.user_id for s in seats if s.user_id is not None)
    return [s for s in seats if s.user_id is not None and preference_wants(wants[s.user_id], kind)]


def _mail(kind: str, event: str, user: User, subject: str, body: str, picture: str = "") -> Outgoing:
    return Outgoing(f"{kind}:{event}:{user.id}", kind, user.email, subject, body, user.id, picture)


def _when(moment: dt.datetime | None, user: User) -> str:
    """A time as the player reads it: in their own time zone, with the zone's name."""
    if moment is None:
        return "no deadline"
    return moment.astimezone(user_zone(user)).strftime("%a %d %b %Y %H:%M %Z")


def _game_link(game: Game) -> str:
    return site_url(reverse("game", args=[game.id]))


def _map_link(phase: Phase) -> str:
    """The phase's picture, its orders and results drawn (the API's PNG, small enough for a mail)."""
    return site_url(reverse("api:map-png", args=[phase.game_id, phase.index])) + "?width=800"


def _stamp(moment: dt.datetime | None) -> str:
    return f"{moment.timestamp():.0f}" if moment is not None else "-"


def phase_results_send(*, phase_id: int) -> int:
    """Tell every player what happened in the phase, the map changes that followed, and what is due
    next; and each game master of the game who does not play in it (with the next deadline)."""
    news = phase_news(phase_id)  # read once for the mail and the channels beside it
    phase, game, following = news.phase, news.game, news.following
    seats = _wanting(news.seats, Mail.Kind.PHASE_PROCESSED, game)
    masters = _masters_wanting(game, {s.user_id for s in news.seats}, Mail.Kind.PHASE_PROCESSED)
    if not seats and not masters:
        return 0
    lines = _results_lines(phase)
    acting: set[str] = set()
    going_on = following is not None and game.status != "finished"
    if game.status == "finished":
        lines.append(f"The game is over: {game.get_result_display()} {', '.join(game.winners)}".rstrip())
        lines.append(f"The game secret (check the random map changes): {game.secret}")
    elif following is not None:
        lines.append(f"Next: {game_phase_title(game, following.name)}")
        acting = powers_to_act(following.snapshot) if following.status == Phase.Status.OPEN else set()
    subject = f"[{game.name}] {game_phase_title(game, phase.name)} processed"
    links = f"\n\nThe game: {_game_link(game)}\nThe map: {_map_link(phase)}\n"
    event = f"phase:{phase.id}:{_stamp(phase.processed_at)}"
    picture = picture_ref(PHASE_PICTURE, phase.id)  # drawn when the mail is sent: the row stays small
    mails = []
    for seat in seats:
        assert seat.user is not None
        due = ""
        if going_on and following is not None:
            todo = "Your orders are due" if seat.name in acting else "Nothing to order for you; it ends"
            due = f"\n{todo} {_when(following.deadline, seat.user)}."
        body = "\n".join(lines) + due + links
        mails.append(_mail(Mail.Kind.PHASE_PROCESSED, event, seat.user, subject, body, picture))
    for master in masters:
        due = f"\nThe next deadline: {_when(following.deadline, master)}." if going_on and following else ""
        body = "\n".join(lines) + due + "\nYou receive this as a game master of the game." + links
        mails.append(_mail(Mail.Kind.PHASE_PROCESSED, event, master, subject, body, picture))
    return _send(mails)


def _results_lines(phase: Phase) -> list[str]:
    """Each order and its outcome, the map changes, and the powers that sent no orders."""
    lines = [
        f"{r['power']}: {r['order']} — {r['outcome']}" + (f" ({r['reason']})" if r["reason"] else "")
        for r in phase.results
    ]
    lines += [f"Map change: {event}" for event in phase.events]
    missed = _missed(phase)
    if missed:
        lines.append(f"No orders from: {', '.join(name.title() for name in missed)}.")
    return lines


def _masters_wanting(game: Game, players: set[int | None], kind: str) -> list[User]:
    """The game's masters who do not play in it (players hear as players), with a confirmed address, the
    game not muted and mails of ``kind`` on."""
    quiet = {*players, *game.muted_by}
    masters = [u for u in game.masters.all() if u.email and u.id not in quiet]
    if not masters:
        return []
    wants = preferences_of(u.id for u in masters)
    return [u for u in masters if preference_wants(wants[u.id], kind)]


def _missed(phase: Phase) -> list[str]:
    """The powers that had to order in the phase and sent no order, in order of name: the phase's record
    of the orders it was played with (``Phase.orders``, each power that sent any) says who sent some."""
    return sorted(powers_to_act(phase.snapshot) - phase.orders.keys())


def press_send(*, message_id: int) -> int:
    """Mail press to each recipient with an address: who sent it (``Anonymous`` for anonymous press, whatever
    the game's press setting has become since), to whom, and the text. Anonymous press names only the
    reader among its recipients, as the API shows it (``press_channels``)."""
    message = Message.objects.select_related("game", "sender").filter(id=message_id).first()
    if message is None:
        return 0
    game = message.game
    seats = Power.objects.filter(game=game).exclude(name="").select_related("user")
    if message.sender_id is not None:
        seats = seats.exclude(pk=message.sender_id)
    if message.recipients:
        seats = seats.filter(name__in=message.recipients)
    return _send([_press_mail(message, s) for s in _wanting(seats, Mail.Kind.PRESS, game)])


def _press_mail(message: Message, seat: Power) -> Outgoing:
    seen = seen_by(message, seat)
    game = message.game
    kind = "Public press" if not seen.recipients else "Press"
    subject = f"[{game.name}] {kind} from {(seen.sender or 'Anonymous').title()}"
    to = "everyone" if not seen.recipients else ", ".join(n.title() for n in seen.recipients)
    body = (
        f"To: {to}\nChannel: {seen.channel}\n\n{message.body}\n\nReply on the game page: {_game_link(game)}\n"
    )
    assert seat.user is not None  # _wanting keeps only seats with a player
    return _mail(Mail.Kind.PRESS, f"message:{message.id}", seat.user, subject, body)


def deadline_reminder_send(*, phase_id: int, power_ids: list[int], now: dt.datetime | None = None) -> int:
    """Remind the given powers whose orders are missing or incomplete ("2 of 3 units have orders"); a
    power that has ordered every unit since it was chosen hears nothing. The subject's time left is
    counted when the mail is sent, and a mail that cannot be sent before the deadline is dropped
    (``dipserver.mail.delivery``: the outbox is where a mail waits). ``now``, when the sweep chose them,
    is the channels' beside mail (the inbox and webhooks tell it)."""
    phase = Phase.objects.select_related("game").defer("snapshot").get(id=phase_id)
    if phase.status != Phase.Status.OPEN or phase.deadline is None:
        return 0
    seats = _wanting(
        Power.objects.filter(id__in=power_ids).select_related("user"), Mail.Kind.DEADLINE_REMINDER, phase.game
    )
    if not seats:
        return 0
    short = orders_short(phase.id, [s.id for s in seats])
    mails = [_reminder_mail(phase, seat, *short[seat.id]) for seat in seats if seat.id in short]
    return _send(mails)


def _reminder_mail(phase: Phase, seat: Power, done: int, units: int) -> Outgoing:
    assert seat.user is not None  # _wanting keeps only seats with a player
    title = game_phase_title(phase.game, phase.name)
    state = orders_state(done, units)
    subject = f"[{phase.game.name}] {title}: deadline in {TIME_LEFT}, {state}"
    unordered = "" if done == 0 else f"{state.capitalize()}; a unit without an order holds.\n"
    body = (
        f"Your orders as {seat.name.title()} for {title} are due {_when(phase.deadline, seat.user)}.\n"
        f"{unordered}Order on the game page: {_game_link(phase.game)}\n"
    )
    event = f"phase:{phase.id}:{_stamp(phase.deadline)}"
    mail = _mail(Mail.Kind.DEADLINE_REMINDER, event, seat.user, subject, body)
    return replace(mail, deadline=phase.deadline)


def game_started_send(*, game_id: int) -> int:
    """Tell each player which power they play and when the first orders are due."""
    game = Game.objects.select_related("current_phase").get(id=game_id)
    phase = game.current_phase
    if phase is None:
        return 0
    seats = _wanting(Power.objects.filter(game=game).select_related("user"), Mail.Kind.GAME_STARTED, game)
    subject = f"[{game.name}] The game has started"
    mails = []
    for seat in seats:
        assert seat.user is not None
        body = (
            f"{game.name} has started and you play {seat.name.title()}.\n"
            f"Orders for {game_phase_title(game, phase.name)} are due {_when(phase.deadline, seat.user)}.\n\n"
            f"The game: {_game_link(game)}\n"
        )
        mails.append(
            _mail(
                Mail.Kind.GAME_STARTED, f"game:{game.id}:{_stamp(game.started_at)}", seat.user, subject, body
            )
        )
    return _send(mails)


def game_ended_send(*, game_id: int) -> int:
    """Tell each player how the game ended; in random mode, the secret that checks the map changes."""
    game = Game.objects.get(id=game_id)
    if game.status != Game.Status.FINISHED:
        return 0
    seats = _wanting(Power.objects.filter(game=game).select_related("user"), Mail.Kind.GAME_ENDED, game)
    result = f"{game.get_result_display()}" + (
        f": {', '.join(w.title() for w in game.winners)}" if game.winners else ""
    )
    lines = [f"{game.name} is over. {result}."]
    if game.options.get("mode") == "random":
        lines.append(
            f"The random map changes were drawn from the secret {game.secret}; it hashes to the "
            f"commitment published at the start, {game.commitment}."
        )
    body = "\n".join(lines) + f"\n\nThe game: {_game_link(game)}\n"
    subject = f"[{game.name}] The game is over: {result}"
    event = f"game:{game.id}:{_stamp(game.finished_at)}"
    return _send([_mail(Mail.Kind.GAME_ENDED, event, s.user, subject, body) for s in seats if s.user])


def version_changed_send(*, change_id: int) -> int:
    """Tell every player that the game plays a newer version of its studio variant from now on (from
    which phase, and what changes on the map), and each game master of the game who does not play in it,
    but the one who gave it."""
    news = version_news(change_id)
    if news is None:
        return 0
    game, kind = news.game, Mail.Kind.VERSION_CHANGED
    seats = _wanting(news.seats, kind, game)
    players = {s.user_id for s in news.seats} | {news.change.by_id}
    masters = _masters_wanting(game, players, kind)
    told, link = "\n".join(news.lines), f"\n\nThe game: {_game_link(game)}\n"
    event = f"version:{news.change.id}"
    mails = [_mail(kind, event, s.user, news.title, told + link) for s in seats if s.user is not None]
    mastered = f"{told}\nYou receive this as a game master of the game.{link}"
    mails += [_mail(kind, event, master, news.title, mastered) for master in masters]
    return _send(mails)
