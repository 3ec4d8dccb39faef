"""Reads. Each does a fixed number of queries however many units, orders or phases a game has."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, QuerySet

from dipserver.engine import HOOK_WORDS, TERRAIN_OF, Board, Change, Hook, TimelineError, event_text, schedule
from dipserver.engine import Phase as EnginePhase
from dipserver.games.errors import GameError
from dipserver.games.mappers import NOT_DRAWN, board_of, order_drawing
from dipserver.games.models import Game, Message, Order, Phase, Power, PressMark
from dipserver.games.phase_boards import phase_board as open_phase_board
from dipserver.games.press_channels import (
    ANONYMOUS,
    PUBLIC,
    SeenMessage,
    channel_parsed,
    channel_powers,
    reaches,
    seen_by,
    seen_publicly,
)
from dipserver.games.turn import orders_read, powers_to_act, units_to_order
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
        raise GameError(f"There is no game {game_id}", code="not_found")
    powers = list(game.powers.all())
    names = list(Phase.objects.filter(game=game).order_by("index").values_list("name", flat=True))
    return GameView(game, powers, game.current_phase, names, powers_waiting(game=game, powers=powers))


def phase_get(*, game_id: int, index: int) -> Phase:
    phase = Phase.objects.filter(game_id=game_id, index=index).first()
    if phase is None:
        raise GameError(f"Game {game_id} has no phase number {index}", code="not_found")
    return phase


def seats_with_orders(*, phase: Phase) -> set[int]:
    """The seats (power ids) that have stored at least one order in the phase."""
    return set(Order.objects.filter(phase=phase).values_list("power_id", flat=True).distinct())


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


def powers_not_ready(*, game: Game) -> list[str]:
    """Active powers with a decision to make in the open phase that have not said they are ready
    (the phase is processed early once none is left), as ``orders_ready_set`` counts them."""
    phase = game.current_phase
    if phase is None or phase.status != Phase.Status.OPEN:
        return []
    acting = powers_to_act(phase.snapshot, game_variant(game))
    return [
        p.name
        for p in game.powers.order_by("id")
        if p.name in acting and p.status == Power.Status.ACTIVE and not p.ready
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
    """Press a power may read (public plus its own), as it sees it (``press_channels``); without a power,
    the public press."""
    if power is None:
        rows = Message.objects.filter(game=game, recipients=[]).select_related("sender").order_by("id")
        seen = [seen_publicly(m) for m in rows]
    else:
        seen = press_seen(game=game, seat=power)
    return [
        {"phase": s.message.phase_name, "from": s.sender or "", "to": s.recipients, "body": s.message.body}
        for s in seen
    ]


def press_public(*, game: Game, since: int = 0) -> list[SeenMessage]:
    """Public press as a spectator sees it, oldest first: never private press; anonymous senders hidden."""
    rows = Message.objects.filter(game=game, recipients=[], id__gt=since).select_related("sender")
    return [seen_publicly(m) for m in rows.order_by("id")]


def games_watchable(*, variant: str = "", status: str = "", exclude_user: Any = None) -> QuerySet[Game]:
    """Games in play (or paused) that anyone may watch, newest first; filtered by variant and status."""
    games = Game.objects.filter(status__in=(Game.Status.ACTIVE, Game.Status.PAUSED))
    if status:
        games = games.filter(status=status)
    if variant:
        games = games.filter(variant=variant)
    if exclude_user is not None and exclude_user.is_authenticated:  # theirs are under "My games"
        games = games.exclude(powers__user=exclude_user).exclude(masters=exclude_user)
    return games.select_related("current_phase").defer("current_phase__snapshot").order_by("-id")


def press_seen(*, game: Game, seat: Power) -> list[SeenMessage]:
    """The press ``seat`` may read, oldest first, as it sees it: one query."""
    rows = Message.objects.filter(game=game).select_related("sender").order_by("id")
    return [seen_by(m, seat) for m in rows if reaches(m, seat)]


@dataclass(frozen=True)
class Channel:
    id: str  # ``public``, ``anonymous`` or the other powers' names joined by commas
    recipients: list[str]  # whom press sent here reaches (never the reader): none for public
    can_send: bool  # the game's press setting lets the reader post here now
    unread: int  # messages others sent here that the reader has not read
    last_read: int  # the reader's read marker here: the id of the last message read (0: none)


def press_channels(*, game: Game, seat: Power, since: int | None = None) -> list[Channel]:
    """Every channel ``seat`` has: the ones the game's press setting opens (public; in full and anonymous
    press one per other power, and in anonymous press the ``anonymous`` inbox), then every group that has
    press, so a channel stays listed once it has messages. Unread counts run from the read markers, or from
    ``since`` (a message id the client keeps) when given. Three queries."""
    seen = press_seen(game=game, seat=seat)
    marks = press_marks(seat=seat)
    ids = _opened_channels(game, seat)
    ids += sorted({s.channel for s in seen} - set(ids))
    unread: dict[str, int] = {}
    for s in seen:
        if not s.mine and s.message.id > (since if since is not None else marks.get(s.channel, 0)):
            unread[s.channel] = unread.get(s.channel, 0) + 1
    return [Channel(c, channel_powers(c), _may_send(game, c), unread.get(c, 0), marks.get(c, 0)) for c in ids]


def channel_existing(*, game: Game, seat: Power, channel: str) -> str:
    """The id of one of ``seat``'s channels, spelt as a client may (``channel_parsed``); refused with
    ``unknown_channel`` when ``seat`` has no such channel (the same words whoever sent what)."""
    name = channel_parsed(channel)
    if name not in {c.id for c in press_channels(game=game, seat=seat)}:
        raise GameError(
            f"You have no press channel {name!r}: GET the game's channels for yours", code="unknown_channel"
        )
    return name


def _opened_channels(game: Game, seat: Power) -> list[str]:
    if game.press == Game.Press.GUNBOAT:
        return []
    opened = [PUBLIC]
    if game.press in (Game.Press.FULL, Game.Press.ANONYMOUS):
        if game.press == Game.Press.ANONYMOUS:
            opened.append(ANONYMOUS)
        others = Power.objects.filter(game=game).exclude(name="").exclude(id=seat.id).order_by("name")
        opened += [p.name for p in others]
    return opened


def _may_send(game: Game, channel: str) -> bool:
    """Whether the reader may post to ``channel`` now: while the game is in play, to public press unless
    gunboat, to powers in full and anonymous press; never to the ``anonymous`` inbox (nobody to answer)."""
    if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED) or game.press == Game.Press.GUNBOAT:
        return False
    if channel == PUBLIC:
        return True
    return channel != ANONYMOUS and game.press != Game.Press.PUBLIC


def press_marks(*, seat: Power) -> dict[str, int]:
    """Channel -> the id of the last message ``seat`` has read there (channels never marked: absent)."""
    return dict(PressMark.objects.filter(power=seat).values_list("channel", "last_read"))


def seats_unfinished(*, user: Any) -> QuerySet[Power]:
    """The user's seats in games not over, with their vacation left (the account page and API)."""
    return (
        Power.objects.filter(user=user)
        .exclude(game__status=Game.Status.FINISHED)
        .select_related("game")
        .order_by("game_id")
    )


def orders_short(phase_id: int, power_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Of the given powers, those owing the phase more order lines than they have given (none, or for
    some of their units only): power id -> (lines given, lines owed). Two queries and the snapshot."""
    owed = units_to_order(Phase.objects.values_list("snapshot", flat=True).get(id=phase_id))
    names = dict(Power.objects.filter(id__in=list(power_ids)).values_list("id", "name"))
    given = dict(
        Order.objects.filter(phase_id=phase_id, power_id__in=list(names))
        .values("power_id")
        .annotate(lines=Count("id"))
        .values_list("power_id", "lines")
    )
    short = {p: (given.get(p, 0), owed.get(name, 0)) for p, name in names.items()}
    return {p: (done, units) for p, (done, units) in short.items() if done < units}


def orders_state(done: int, units: int) -> str:
    """How far a power's orders are, as a reminder says it."""
    return "no orders yet" if done == 0 else f"{done} of {units} units have orders"


def open_seats(*, exclude_user: Any = None) -> list[Power]:
    """Seats offered to a replacement in games in play, their games, current phases and players (a bot
    may play one meanwhile) loaded, the games' oldest first; without the games ``exclude_user`` already
    plays in."""
    seats = (
        Power.objects.filter(seat_open=True, game__status__in=(Game.Status.ACTIVE, Game.Status.PAUSED))
        .exclude(status=Power.Status.ELIMINATED)
        .select_related("game", "game__current_phase", "user")
        .order_by("game_id", "name")
    )
    if exclude_user is not None and exclude_user.is_authenticated:
        seats = seats.exclude(game__powers__user=exclude_user)
    return list(seats[:100])


def orders_drawn(*, game: Game, phase_id: int, power: str, texts: list[str]) -> list[dict[str, Any]]:
    """How the map draws each of ``power``'s stored order ``texts`` for the open phase (read again on its
    board, as they were when stored; ``shape`` ``none`` for one that no longer reads)."""
    view = open_phase_board(game, phase_id)
    lines = orders_read(
        texts, view.board, view.position, power, modules=view.modules, module_state=view.module_state
    )
    by_number = {line.number: line for line in lines}
    drawn = []
    for number, text in enumerate(texts, start=1):
        line = by_number.get(number)
        order = None if line is None else line.order
        drawn.append(
            NOT_DRAWN if order is None else order_drawing(power, order, view.position, view.board, text)
        )
    return drawn
