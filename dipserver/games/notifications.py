"""Emails to players. Called from ``transaction.on_commit`` so nobody hears of something that rolled back.

Each function takes ids, reloads what it needs and sends one message per recipient; with the console
backend (development) the mails are printed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from dipserver.games.models import Message, Phase, Power
from dipserver.games.press_channels import seen_by


def _from() -> str:
    return getattr(settings, "DEFAULT_FROM_EMAIL", "dipserver@localhost")


def _send(mails: list[EmailMessage]) -> int:
    if not mails:
        return 0
    with get_connection() as connection:
        return connection.send_messages(mails) or 0


def phase_results_send(*, phase_id: int) -> int:
    """Tell every player with an email what happened in the phase and what comes next."""
    from dipserver.games.services.common import game_phase_title

    emails = _emails_of_phase(phase_id)
    if not emails:
        return 0
    phase = Phase.objects.select_related("game").defer("snapshot").get(id=phase_id)
    game = phase.game
    lines = [
        f"{r['power']}: {r['order']} — {r['outcome']}" + (f" ({r['reason']})" if r["reason"] else "")
        for r in phase.results
    ]
    lines += [f"Map change: {event}" for event in phase.events]
    following = (
        Phase.objects.filter(game=game).order_by("-index").values_list("name", flat=True).first() or ""
    )
    if game.status == "finished":
        lines.append(f"The game is over: {game.get_result_display()} {', '.join(game.winners)}".rstrip())
        lines.append(f"The game secret (check the random map changes): {game.secret}")
    elif following:
        lines.append(f"Next: {game_phase_title(game, following)}")
    body = "\n".join(lines)
    subject = f"[{game.name}] {game_phase_title(game, phase.name)} processed"
    return _send([EmailMessage(subject, body, _from(), [email]) for email in emails])


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
    return _send([_press_mail(message, s, s.user.email) for s in seats if s.user and s.user.email])


def _press_mail(message: Message, seat: Power, email: str) -> EmailMessage:
    seen = seen_by(message, seat)
    game = message.game
    kind = "Public press" if not seen.recipients else "Press"
    subject = f"[{game.name}] {kind} from {(seen.sender or 'Anonymous').title()}"
    to = "everyone" if not seen.recipients else ", ".join(n.title() for n in seen.recipients)
    body = f"To: {to}\nChannel: {seen.channel}\n\n{message.body}"
    return EmailMessage(subject, body, _from(), [email])


def deadline_reminder_send(*, phase_id: int, power_ids: list[int], hours: int) -> int:
    from dipserver.games.services.common import game_phase_title

    phase = Phase.objects.select_related("game").get(id=phase_id)
    seats = Power.objects.filter(id__in=power_ids).select_related("user")
    title = game_phase_title(phase.game, phase.name)
    subject = f"[{phase.game.name}] {title}: deadline in {hours} hours, no orders yet"
    body = f"Your orders for {title} are due at {phase.deadline:%Y-%m-%d %H:%M} UTC."
    return _send(
        [EmailMessage(subject, body, _from(), [s.user.email]) for s in seats if s.user and s.user.email]
    )


def _emails_of_phase(phase_id: int) -> list[str]:
    """Every player's address in the phase's game: one query, and none of the phase's JSON."""
    seats = Power.objects.filter(game__phases__id=phase_id, user__isnull=False)
    return [email for email in seats.values_list("user__email", flat=True) if email]
