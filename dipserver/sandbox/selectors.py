"""Reading sandboxes: who may see one, its steps, a power's orders read on a step (with their drawings),
the legal orders of a step, what the coming map changes
do, and what its map's picture is drawn from. Read-only.

A sandbox is its owner's; anyone else sees it only through its share link (``token``), read-only. To
everyone else it does not exist (a 404, never a 403 that would tell it does).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from dipserver.engine import InPlay, ModuleState, legal_options
from dipserver.games.coming import coming_for
from dipserver.games.mappers import board_of, order_drawing, position_of
from dipserver.games.pictures import phase_picture_args
from dipserver.games.turn import orders_read
from dipserver.games.variants import game_modules, game_variant
from dipserver.sandbox.errors import SandboxError
from dipserver.sandbox.models import Sandbox, Step
from dipserver.sandbox.standin import standin_game, standin_phase


def sandbox_seen(*, sandbox_id: int, user: Any, token: str | None = None) -> tuple[Sandbox, bool]:
    """The sandbox and whether ``user`` owns it (may change it); a visitor needs its share token."""
    sandbox = Sandbox.objects.filter(id=sandbox_id).first()
    if sandbox is not None:
        if user is not None and user.is_authenticated and sandbox.owner_id == user.id:
            return sandbox, True
        if token and sandbox.share_token and secrets_equal(token, sandbox.share_token):
            return sandbox, False
    raise SandboxError(f"There is no sandbox {sandbox_id} that you may see", code="not_found")


def sandbox_shared(token: str) -> Sandbox:
    """The sandbox a share link names."""
    sandbox = Sandbox.objects.filter(share_token=token).exclude(share_token="").first() if token else None
    if sandbox is None:
        raise SandboxError(
            "This share link does not name a sandbox (it may have been withdrawn)", code="not_found"
        )
    return sandbox


def secrets_equal(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def sandboxes_of(user: Any) -> QuerySet[Sandbox]:
    return Sandbox.objects.filter(owner=user).order_by("-used_at", "-id")


def steps_of(sandbox: Sandbox) -> list[Step]:
    """The sandbox's steps for its tree: without their positions, orders and results (read one by one)."""
    heavy = ("snapshot", "orders", "results", "events", "skipped", "outcome")
    return list(Step.objects.filter(sandbox=sandbox).defer(*heavy).order_by("number"))


def step_of(sandbox: Sandbox, number: int) -> Step:
    step = Step.objects.filter(sandbox=sandbox, number=number).first()
    if step is None:
        raise SandboxError(f"This sandbox has no step {number}", code="not_found")
    return step


def powers_of(sandbox: Sandbox) -> list[dict[str, str]]:
    variant = game_variant(standin_game(sandbox))
    return [{"name": key, "display_name": p.name, "colour": p.colour} for key, p in variant.powers.items()]


def step_options(sandbox: Sandbox, step: Step, power: str) -> dict[str, Any]:
    """Every legal order of ``power`` in the step's phase, as a game's options endpoint gives them."""
    variant = game_variant(standin_game(sandbox))
    if power not in variant.powers:
        raise SandboxError(f"{variant.name} has no power {power!r}", code="not_found")
    snapshot = step.snapshot
    modules = game_modules(standin_game(sandbox))
    state = (snapshot.get("modules") or {}).get("state")
    in_play = (
        InPlay(modules, ModuleState.from_data(state) if state else ModuleState()) if modules.any else None
    )
    board = board_of(variant, snapshot)
    return legal_options(board, position_of(snapshot), power, modules=in_play).to_data()


def step_coming(sandbox: Sandbox, step: Step, power: str) -> list[dict[str, Any]]:
    """What the coming map changes do to ``power``'s units and centres at the step (the game's own rows)."""
    return coming_for(game=standin_game(sandbox, step), power=power)


def step_picture_args(sandbox: Sandbox, step: Step) -> dict[str, Any]:
    """What ``render_svg`` takes to draw the step: its orders and results once it is played."""
    game = standin_game(sandbox, step)
    return phase_picture_args(game, standin_phase(sandbox, step))


def step_tree(steps: list[Step]) -> list[dict[str, Any]]:
    """Each step's place in the tree: its parent, the steps played from it and the step it was branched
    from (read from ``steps`` alone: no query per step)."""
    number = {step.id: step.number for step in steps}
    return [
        {
            "number": step.number,
            "phase": step.phase,
            "status": step.status,
            "parent": number.get(step.parent_id) if step.parent_id else None,
            "branched_from": number.get(step.branched_from_id) if step.branched_from_id else None,
            "children": [s.number for s in steps if s.parent_id == step.id],
        }
        for step in steps
    ]


@dataclass(frozen=True)
class OrderLine:
    """One order text as read on a step: kept (``normalised``, and how the map draws it) or why not."""

    text: str
    valid: bool
    normalised: str | None
    reason: str | None
    drawing: dict[str, Any] | None = None


def step_orders_read(*, sandbox: Sandbox, step: Step, power: str, texts: Sequence[str]) -> list[OrderLine]:
    """``power``'s order ``texts`` read on the step's map as a game's orders are, each with its verdict and,
    when valid, its drawing (as a game's orders answer carries it)."""
    game = standin_game(sandbox, step)
    snapshot = step.snapshot
    modules = snapshot.get("modules")
    board, position = board_of(game_variant(game), snapshot), position_of(snapshot)
    read = orders_read(
        list(texts),
        board,
        position,
        power,
        modules=game_modules(game),
        module_state=ModuleState.from_data(modules["state"]) if modules else None,
    )
    by_number = {line.number: line for line in read}
    out = []
    for number, text in enumerate(texts, start=1):
        line = by_number.get(number)
        if line is None or (line.order is None and line.error is None):
            out.append(OrderLine(text, False, None, "Not an order (blank)."))
        elif line.error is not None:
            out.append(OrderLine(text, False, None, line.error))
        else:
            drawing = order_drawing(power, line.order, position, board, line.stored or text)
            out.append(OrderLine(text, True, line.stored, None, drawing))
    return out
