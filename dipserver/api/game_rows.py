"""The parts of a game's detail answer (``GET /api/v1/games/{id}``) that are built row by row: its
settings, each seat's public line and the viewer's own seat."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dipserver.api.permissions import Viewer
from dipserver.games import selectors
from dipserver.games.models import Phase, Power
from dipserver.games.turn import powers_to_act
from dipserver.games.variants import game_variant

# The game's settings as the detail answer gives them: the model's fields of the same names.
SETTINGS = (
    "press",
    "options",
    "phase_minutes",
    "deadline_zone",
    "grace_minutes",
    "vacation_days",
    "missed_limit",
    "min_reliability",
    "min_rating",
    "rated",
    "replacement_approval",
    "bots_fill_seats",
    "bots_play_disorder",
    "replacement_grace_minutes",
    "end_year",
    "commitment",
)


def power_rows(view: selectors.GameView, viewer: Viewer) -> list[dict[str, Any]]:
    """Each seat's public line: who plays it (when the viewer may see), its counts, whether it has ordered."""
    game = view.game
    snapshot = view.phase.snapshot if view.phase else {"units": [], "owners": {}}
    centres = Counter(snapshot["owners"].values())
    units = Counter(unit["power"] for unit in snapshot["units"])
    players = viewer.sees_players(game)
    seat = viewer.seat
    # Whether each power has orders to give and has given some, never which: the orders stay secret.
    open_phase = view.phase if view.phase is not None and view.phase.status == Phase.Status.OPEN else None
    # The same powers as ``waiting``: with the variant, Winter conversions (Wall of Ice rule 4) count too.
    acting = powers_to_act(snapshot, game_variant(game)) if open_phase else set()
    ordered = selectors.seats_with_orders(phase=open_phase) if open_phase else set()
    return [
        {
            "seat": p.id,
            "power": p.name or None,
            "player": (p.user.username if p.user else None)
            if players or (seat and seat.id == p.id)
            else None,
            "is_bot": bool(p.user and p.user.is_bot),
            "status": p.status,
            "ready": p.ready,
            "missed_phases": p.missed_phases,
            "seat_open": p.seat_open,
            "centres": centres.get(p.name, 0),
            "units": units.get(p.name, 0),
            "needs_orders": p.name in acting and p.status == Power.Status.ACTIVE,
            "has_orders": p.id in ordered,
        }
        for p in view.powers
    ]


def my_seat(viewer: Viewer) -> dict[str, Any]:
    seat = viewer.seat
    return {
        "seat": seat.id if seat else None,
        "power": (seat.name or None) if seat else None,
        "is_master": viewer.master,
        "draw_vote": seat.draw_vote if seat else None,
        "concede_to": (seat.concede_to or None) if seat else None,
        "vacation_days_left": seat.vacation_days_left if seat else None,
        "away_until": seat.away_until if seat else None,
    }
