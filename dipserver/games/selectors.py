"""Reads. Each does a fixed number of queries however many units, orders or phases a game has."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from dipserver.engine.board import Board
from dipserver.engine.timeline import (
    HOOK_WORDS,
    TERRAIN_OF,
    Change,
    Hook,
    TimelineError,
    event_text,
    schedule,
)
from dipserver.engine.types import Phase as EnginePhase
from dipserver.games.errors import GameError
from dipserver.games.mappers import board_of
from dipserver.games.models import Game, Message, Order, Phase, Power, PressMark
from dipserver.games.turn import powers_to_act
from dipserver.games.variants import game_timeline, game_variant, timeline_options


@dataclass(frozen=True)
class GameView:
    game: Game
    powers: list[Power]
    phase: Phase | None  # the current phase, snapshot included
    phase_names: list[str]  # every phase so far, in order
    waiting: list[str]  # powers that must order and have not


def game_list(*, user: Any = None) -> QuerySet[Game]:
    """Games, newest first, with their current phase; a non-superuser game master sees only theirs."""
    games = Game.objects.select_related("current_phase").defer("current_phase__snapshot")
    if user is not None and not user.is_superuser:
        games = games.filter(masters=user)
    return games


def game_get(*, game_id: int) -> GameView:
    """A whole game as a player sees it: four queries, whatever its size."""
    game = (
        Game.objects.select_related("current_phase")
        .prefetch_related(Prefetch("powers", queryset=Power.objects.select_related("user").order_by("id")))
        .filter(id=game_id)
        .first()
    )
    if game is None:
        raise GameError(f"There is no game {game_id}")
    powers = list(game.powers.all())
    names = list(Phase.objects.filter(game=game).order_by("index").values_list("name", flat=True))
    return GameView(game, powers, game.current_phase, names, powers_waiting(game=game, powers=powers))


def phase_get(*, game_id: int, index: int) -> Phase:
    phase = Phase.objects.filter(game_id=game_id, index=index).first()
    if phase is None:
        raise GameError(f"Game {game_id} has no phase number {index}")
    return phase


def powers_waiting(*, game: Game, powers: list[Power] | None = None) -> list[str]:
    """Active powers with a decision to make in the open phase and no orders yet."""
    phase = game.current_phase
    if phase is None or phase.status != Phase.Status.OPEN:
        return []
    powers = list(game.powers.order_by("id")) if powers is None else powers
    ordered = set(Order.objects.filter(phase=phase).values_list("power_id", flat=True).distinct())
    acting = powers_to_act(phase.snapshot, game_variant(game))
    return [
        p.name for p in powers if p.name in acting and p.status == Power.Status.ACTIVE and p.id not in ordered
    ]


def phase_board(*, game: Game, phase: Phase) -> Board:
    """The board of a phase as it stood (the game's pinned variant seen through the phase's map)."""
    return board_of(game_variant(game), phase.snapshot)


def supply_rows(*, game: Game, phase: Phase) -> list[str]:
    """Everyone's supply as the phase opened, one line per unit, in words; empty without supply lines."""
    report = (phase.snapshot.get("modules") or {}).get("supply")
    if not report:
        return []
    board = phase_board(game=game, phase=phase)
    rows = []
    for province, line in report["units"].items():
        unit = f"{board.province_name(province)} ({line['power']})"
        if line["supplied"]:
            rows.append(f"{unit}: supplied from {board.province_name(line['source'])}")
        else:
            marks = line.get("marks", 0)
            rows.append(f"{unit}: out of supply ({marks} failed check{'s' if marks != 1 else ''})")
    return rows


def timeline_rows(*, game: Game) -> list[dict[str, Any]]:
    """What the variant's timeline changes when, for this game's options. In a random game the drawn years
    stay secret until the game ends: those rows have ``year`` None."""
    _, timeline = game_timeline(game)
    try:
        slots = schedule(timeline, timeline_options(game), game.secret)
    except TimelineError as exc:
        raise GameError(str(exc)) from exc
    hidden = game.options.get("mode") == "random" and game.status != Game.Status.FINISHED
    rows: list[dict[str, Any]] = []
    for (year, hook), changes in sorted(slots.items(), key=lambda kv: (kv[0][0], list(Hook).index(kv[0][1]))):
        for change in changes:
            if hidden and change.entry:
                when = "random year (revealed at the end)"
                rows.append(
                    {"year": None, "hook": when, "change": str(change.change), "province": change.province}
                )
                continue
            rows.append(
                {"year": year, "hook": str(hook), "change": str(change.change), "province": change.province}
            )
    return rows


def change_words(row: dict[str, Any]) -> str:
    """A timeline row in the engine's words: "1903, after the Autumn retreats: BAR becomes impassable"."""
    change, province = Change(row["change"]), row["province"] or "every province"
    if change in TERRAIN_OF:
        what = event_text({"kind": "terrain", "province": province, "to": TERRAIN_OF[change]})
    elif change == Change.SC_LOSS_ALL:
        what = "every supply centre but a few stops being one"
    elif change == Change.SC_GAIN:
        what = f"{province} becomes a supply centre"
    else:  # the centre's owner is known only when it happens; the engine's event names it then
        what = f"{province} stops being a supply centre"
    return f"{row['year']}, {HOOK_WORDS[Hook(row['hook'])]}: {what}"


def next_map_change(*, game: Game) -> str:
    """The first map change still to come, in words ("1903, after the Autumn retreats: BAR becomes
    impassable")."""
    if game.current_phase is None:
        return ""
    now = EnginePhase.parse(game.current_phase.name)
    for row in timeline_rows(game=game):
        if row["year"] is not None and row["year"] >= now.year:
            return change_words(row)
    return ""


def messages_for(*, game: Game, power: Power | None) -> list[dict[str, Any]]:
    """Press a power may read (public plus its own), senders hidden in anonymous games."""
    messages = Message.objects.filter(game=game).select_related("sender").order_by("id")
    anonymous = game.press == Game.Press.ANONYMOUS
    shown = []
    for m in messages:
        mine = power is not None and (m.sender_id == power.id or power.name in m.recipients)
        if m.recipients and not mine:
            continue
        sender = "" if anonymous or m.sender is None else m.sender.name
        shown.append({"phase": m.phase_name, "from": sender, "to": m.recipients, "body": m.body})
    return shown


PUBLIC = "public"  # the press channel everyone reads


def visible_messages(*, game: Game, seat: Power) -> list[Message]:
    """Public press plus messages ``seat`` sent or that name it, oldest first, senders loaded."""
    rows = Message.objects.filter(game=game).select_related("sender").order_by("id")
    return [m for m in rows if not m.recipients or m.sender_id == seat.id or seat.name in m.recipients]


def channel_of(message: Message, seat: Power) -> str:
    """A message's channel as ``seat`` sees it: public, the one other power in a two-way talk, or every
    power in a larger one, by name and joined with commas."""
    if not message.recipients:
        return PUBLIC
    if message.sender_id == seat.id and len(message.recipients) == 1:
        other: str = message.recipients[0]  # a JSON list of power names
        return other
    if message.sender is not None and message.recipients == [seat.name]:
        return message.sender.name
    return ",".join(sorted({*message.recipients, message.sender.name if message.sender else ""} - {""}))


def press_marks(*, seat: Power) -> dict[str, int]:
    """Channel -> the id of the last message ``seat`` has read there (channels never marked: absent)."""
    return dict(PressMark.objects.filter(power=seat).values_list("channel", "last_read"))


def press_unread(*, game: Game, seat: Power, since: int | None = None) -> dict[str, int]:
    """Channel -> how many messages others sent there that ``seat`` has not read: newer than its read
    marker in that channel, or than ``since`` (a message id the client keeps) when given. Two queries."""
    marks = {} if since is not None else press_marks(seat=seat)
    unread: dict[str, int] = {}
    for m in visible_messages(game=game, seat=seat):
        if m.sender_id == seat.id:
            continue
        channel = channel_of(m, seat)
        if m.id > (since if since is not None else marks.get(channel, 0)):
            unread[channel] = unread.get(channel, 0) + 1
    return unread
