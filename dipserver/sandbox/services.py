"""Writing sandboxes: opening one (from a variant's start, a studio draft or a game's phase), giving
orders, playing a step, branching, editing the position, sharing, copying, deleting, and the clean-up of
idle ones.

Every phase is played by the game server's own adapter (``dipserver.games.turn.turn_play``, the engine's
``play_phase``) on the step's snapshot, and orders are read by the engine's reader as a game's are: the
sandbox adds no rule of its own. A sandbox never writes to a game.

Locks: a write that numbers or changes steps locks the ``Sandbox`` row first, then reads its steps (the
one order, so two writes of one sandbox take turns).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from dipserver.engine import Variant, new_secret, open_modules
from dipserver.games.mappers import board_of, modules_json, snapshot_from
from dipserver.games.models import Game, Order, Phase
from dipserver.games.services.games import end_year_checked
from dipserver.games.turn import turn_play
from dipserver.games.variants import (
    game_modules,
    game_timeline,
    game_variant,
    geometry_of,
    options_checked,
    source_of,
    studio_files_pinned,
    variant_pinned,
)
from dipserver.sandbox.errors import SandboxError
from dipserver.sandbox.models import Sandbox, Step
from dipserver.sandbox.positions import owners_set, unit_checked
from dipserver.sandbox.selectors import OrderLine, step_orders_read
from dipserver.sandbox.standin import standin_game
from dipserver.studio.errors import StudioError
from dipserver.studio.selectors import draft_of
from dipserver.studio.services import draft_clean

MAX_SANDBOXES = 200  # per owner: a sandbox is cheap, but not free
MAX_STEPS = 1000  # per sandbox
SECRET_LENGTH = 64


# --- opening ------------------------------------------------------------------------------------------


def sandbox_from_variant(
    *,
    owner: Any,
    slug: str,
    options: Mapping[str, Any] | None = None,
    secret: str | None = None,
    powers: int | None = None,
    seed: str | None = None,
    title: str = "",
) -> Sandbox:
    """A sandbox at the variant's start, with the options a new game takes (checked as a game's are)."""
    _room_for_one_more(owner)
    secret = _secret_checked(secret)
    variant, board = variant_pinned(slug=slug, secret=secret, powers=powers, seed=seed)
    sandbox = Sandbox(
        owner=owner,
        title=_title(title, f"{variant.name} from the start"),
        variant=variant.slug,
        variant_version=variant.version,
        board=board,
        secret=secret,
        source=Sandbox.Source.VARIANT,
        used_at=timezone.now(),
    )
    return _opened_at_start(sandbox, variant, {**source_of(slug).default_options, **(options or {})})


def sandbox_from_draft(
    *, owner: Any, draft_id: int, revision: int | None = None, secret: str | None = None, title: str = ""
) -> Sandbox:
    """A sandbox at the start of ``owner``'s studio draft as it is saved (at ``revision`` when given: the
    one the editor shows). The draft must check clean, as publishing requires; its files are archived as a
    studio version's are and pinned, and its drawing is pinned in ``board["geometry"]``, so later edits of
    the draft never change the sandbox. Another's draft is as missing as one that does not exist."""
    _room_for_one_more(owner)
    draft = draft_of(owner, draft_id)
    if revision is not None and draft.revision != revision:
        raise StudioError(
            f"The draft was saved since (revision {draft.revision}, not {revision}): load it again",
            code="stale_revision",
        )
    report = draft_clean(draft, "trying it in a sandbox")
    secret = _secret_checked(secret)
    variant = studio_files_pinned(draft.slug, report.files, report.version or "", f"draft {draft.slug}")
    sandbox = Sandbox(
        owner=owner,
        title=_title(title, f"{variant.name} (draft, revision {draft.revision})"),
        variant=variant.slug,
        variant_version=variant.version,
        board={} if draft.geometry is None else {"geometry": draft.geometry},
        secret=secret,
        source=Sandbox.Source.DRAFT,
        origin={"draft": draft.id, "slug": draft.slug, "revision": draft.revision},
        used_at=timezone.now(),
    )
    return _opened_at_start(sandbox, variant, dict(source_of(draft.slug).default_options))


def _opened_at_start(sandbox: Sandbox, variant: Variant, options: dict[str, Any]) -> Sandbox:
    """Save ``sandbox`` with its first step at the variant's start, its ``options`` checked as a new
    game's are (rule modules opened on the start)."""
    _, timeline = game_timeline(standin_game(sandbox))
    sandbox.options = options_checked(timeline, options)
    sandbox.end_year = end_year_checked(variant, None)
    snapshot = snapshot_from(variant.map_state, variant.start)
    modules = game_modules(standin_game(sandbox))
    if modules.any:
        opened = open_modules(variant, variant.map_state, variant.start, modules, secret=sandbox.secret)
        snapshot["modules"] = modules_json(opened)
    with transaction.atomic():
        sandbox.save()
        Step.objects.create(sandbox=sandbox, number=0, snapshot=snapshot)
    return sandbox


def sandbox_from_game(
    *, owner: Any, game_id: int, index: int | None = None, secret: str | None = None, title: str = ""
) -> Sandbox:
    """A sandbox at a game's phase (``index``; the current one by default) as ``owner`` sees it: the
    position, and the orders anyone may read (a processed phase's, or the owner's own in the open one,
    never another power's). A running game's secret stays secret: the sandbox draws from its own."""
    _room_for_one_more(owner)
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise SandboxError(f"There is no game {game_id}", code="not_found")
    phases = Phase.objects.filter(game=game)
    phase = phases.filter(index=index).first() if index is not None else game.current_phase
    if phase is None:
        raise SandboxError(
            f"{game.name} has no phase {index}" if index is not None else f"{game.name} has not started yet",
            code="not_found" if index is not None else "not_started",
        )
    finished = game.status == Game.Status.FINISHED
    own_secret = _secret_checked(secret) if (secret or not finished) else game.secret
    board = dict(game.board)
    if game.board:  # a generated board is rebuilt from its deal, whatever the sandbox's own secret
        board.setdefault("seed", game.board.get("seed") or game.secret)
    if game.studio_version_id is not None:  # a studio version's drawing, frozen as a draft's is
        board["geometry"] = geometry_of(game)
    sandbox = Sandbox(
        owner=owner,
        title=_title(title, f"{game.name}, {phase.name}"),
        variant=game.variant,
        variant_version=game.variant_version,
        options=game.options,
        board=board,
        secret=own_secret,
        end_year=game.end_year,
        source=Sandbox.Source.GAME,
        origin={"game": game.id, "phase": phase.index, "name": phase.name, "game_name": game.name},
        used_at=timezone.now(),
    )
    game_variant(standin_game(sandbox))  # the pinned variant must rebuild before anything is stored
    with transaction.atomic():
        sandbox.save()
        Step.objects.create(
            sandbox=sandbox,
            number=0,
            snapshot=_public_snapshot(phase.snapshot, finished),
            orders=_visible_orders(game, phase, owner),
        )
    return sandbox


def _visible_orders(game: Game, phase: Phase, viewer: Any) -> dict[str, list[str]]:
    """What ``viewer`` may read of the phase's orders: everyone's once processed, else only their own."""
    if phase.status == Phase.Status.PROCESSED:
        return {power: list(texts) for power, texts in phase.orders.items()}
    seat = game.powers.filter(user=viewer).exclude(name="").first() if viewer.is_authenticated else None
    if seat is None:
        return {}
    mine = list(Order.objects.filter(phase=phase, power=seat).values_list("text", flat=True))
    return {seat.name: mine} if mine else {}


def _public_snapshot(snapshot: Mapping[str, Any], finished: bool) -> dict[str, Any]:
    """The snapshot without what the players may not know while the game runs: the Snow Storms ordered for
    a later draw and the module orders refused (other powers' orders)."""
    copied = dict(snapshot)
    modules = copied.get("modules")
    if modules and not finished:
        state = {k: v for k, v in (modules.get("state") or {}).items() if k != "storms"}
        copied["modules"] = {**modules, "state": state, "refused": []}
    return copied


def sandbox_copy(*, sandbox: Sandbox, owner: Any) -> Sandbox:
    """A copy of every step of ``sandbox`` (the owner's own, or one shared with them), owned by ``owner``."""
    _room_for_one_more(owner)
    with transaction.atomic():
        copy = Sandbox.objects.create(
            owner=owner,
            title=_title(f"Copy of {sandbox.title}", "Copy"),
            **sandbox.pinned(),
            source=Sandbox.Source.COPY,
            origin={**sandbox.origin, "copy_of": sandbox.id},
            used_at=timezone.now(),
        )
        steps = list(sandbox.steps.order_by("number"))
        made: dict[int, Step] = {}
        for step in steps:  # parents come first: a step is always numbered after its parent
            made[step.id] = Step.objects.create(
                sandbox=copy,
                number=step.number,
                parent=made.get(step.parent_id) if step.parent_id else None,
                branched_from=made.get(step.branched_from_id) if step.branched_from_id else None,
                status=step.status,
                **step.phase_fields(),
                outcome=step.outcome,
            )
    return copy


# --- the owner's settings -----------------------------------------------------------------------------


def sandbox_update(*, sandbox: Sandbox, title: str | None = None, shared: bool | None = None) -> Sandbox:
    """Rename, share (a read-only link with an unguessable token) or stop sharing (the old link dies)."""
    fields = ["used_at", "cleanup_noticed_at"]
    if title is not None:
        sandbox.title = _title(title, sandbox.title)
        fields.append("title")
    if shared is not None and shared != bool(sandbox.share_token):
        sandbox.share_token = secrets.token_urlsafe(24) if shared else ""
        fields.append("share_token")
    sandbox.used_at, sandbox.cleanup_noticed_at = timezone.now(), None
    sandbox.save(update_fields=fields)
    return sandbox


def sandbox_delete(*, sandbox: Sandbox) -> None:
    sandbox.delete()


def sandbox_touch(sandbox: Sandbox) -> None:
    """Its owner opened it: the clean-up's clock starts again (and any notice is withdrawn)."""
    Sandbox.objects.filter(id=sandbox.id).update(used_at=timezone.now(), cleanup_noticed_at=None)


# --- steps --------------------------------------------------------------------------------------------


def step_orders_set(*, sandbox: Sandbox, number: int, power: str, texts: Sequence[str]) -> list[OrderLine]:
    """Replace ``power``'s orders for an open step with the valid ones of ``texts``, each read on the step's
    map as a game's orders are; every line comes back with its verdict."""
    with transaction.atomic():
        locked = _locked(sandbox)
        step = _open_step(locked, number)
        variant = game_variant(standin_game(locked))
        if power not in variant.powers:
            raise SandboxError(
                f"{variant.name} has no power {power!r}; its powers are {', '.join(variant.powers)}",
                code="refused",
            )
        lines = step_orders_read(sandbox=locked, step=step, power=power, texts=texts)
        accepted = [line.normalised for line in lines if line.valid and line.normalised]
        orders = {p: t for p, t in step.orders.items() if p != power}
        if accepted:
            orders[power] = accepted
        step.orders = dict(sorted(orders.items()))
        step.save(update_fields=["orders"])
        _used(locked)
    return lines


def step_play(*, sandbox: Sandbox, number: int) -> Step:
    """Adjudicate an open step with its orders (a power without orders holds, or as the rules say) and
    add the position that follows as a new step; the played step keeps its orders and results."""
    with transaction.atomic():
        locked = _locked(sandbox)
        step = _open_step(locked, number)
        if step.outcome:
            raise SandboxError("This game is over: there is nothing more to play", code="conflict")
        turn = turn_play(
            variant=game_variant(standin_game(locked)),
            options=locked.options,
            secret=locked.secret,
            snapshot=step.snapshot,
            order_texts=step.orders,
            end_year=locked.end_year,
        )
        step.status, step.orders = Step.Status.PLAYED, turn.orders
        step.results, step.events, step.skipped = turn.results, turn.events, turn.skipped
        step.save(update_fields=["status", "orders", "results", "events", "skipped"])
        outcome = (
            {"result": turn.result, "winners": list(turn.winners), "reason": turn.reason} if turn.over else {}
        )
        child = _new_step(locked, parent=step, snapshot=turn.next_snapshot, outcome=outcome)
        _used(locked)
    return child


def step_branch(*, sandbox: Sandbox, number: int) -> Step:
    """A new open step beside ``number``: the same position and orders, to try again differently."""
    with transaction.atomic():
        locked = _locked(sandbox)
        step = _step(locked, number)
        branch = _new_step(
            locked,
            parent=step.parent,
            snapshot=step.snapshot,
            orders=step.orders,
            branched_from=step,
            outcome=step.outcome,
        )
        _used(locked)
    return branch


def step_setup(
    *,
    sandbox: Sandbox,
    number: int,
    place: Sequence[Mapping[str, Any]] = (),
    remove: Sequence[str] = (),
    owners: Mapping[str, str | None] | None = None,
) -> Step:
    """Edit an open step's position: remove the units in ``remove`` (provinces), place the units of
    ``place`` (``{"power", "type", "location"}``: a unit already in that province is replaced) and set the
    owners of centres (``{"PAR": "FRANCE"}``, ``None``: nobody). Orders of units no longer there are kept
    and judged when played, as the reader judges any order."""
    with transaction.atomic():
        locked = _locked(sandbox)
        step = _open_step(locked, number)
        if step.snapshot["phase"].endswith("R") and (place or remove):
            raise SandboxError(
                "Units are placed and removed in a movement or adjustment phase, not during retreats",
                code="refused",
            )
        variant = game_variant(standin_game(locked))
        board = board_of(variant, step.snapshot)
        snapshot = dict(step.snapshot)
        units = {u["location"].split("/")[0]: u for u in snapshot["units"]}
        for location in remove:
            if units.pop(str(location).upper().split("/")[0], None) is None:
                raise SandboxError(f"There is no unit in {location} to remove", code="refused")
        for unit in place:
            checked = unit_checked(board, variant.powers, unit)
            units[checked["location"].split("/")[0]] = checked
        snapshot["units"] = sorted(units.values(), key=lambda u: u["location"])
        snapshot["owners"] = owners_set(snapshot, variant.powers, owners or {})
        step.snapshot = snapshot
        step.save(update_fields=["snapshot"])
        _used(locked)
    return step


# --- clean-up -----------------------------------------------------------------------------------------


def sandboxes_cleanup(now: dt.datetime | None = None) -> tuple[int, int]:
    """Idle sandboxes: tell the owner of each one unused for ``DIPSERVER_SANDBOX_IDLE_DAYS`` that it will
    be deleted, then delete those still unused ``DIPSERVER_SANDBOX_NOTICE_DAYS`` after the notice. Opening
    one withdraws its notice. Returns (noticed, deleted)."""
    now = now or timezone.now()
    idle = now - dt.timedelta(days=settings.DIPSERVER_SANDBOX_IDLE_DAYS)
    warned = now - dt.timedelta(days=settings.DIPSERVER_SANDBOX_NOTICE_DAYS)
    due = Sandbox.objects.filter(used_at__lt=idle, cleanup_noticed_at__lt=warned)
    deleted = len(due.values_list("id", flat=True))
    due.delete()
    noticed = Sandbox.objects.filter(used_at__lt=idle, cleanup_noticed_at__isnull=True).update(
        cleanup_noticed_at=now
    )
    return noticed, deleted


# --- helpers ------------------------------------------------------------------------------------------


def _locked(sandbox: Sandbox) -> Sandbox:
    found = Sandbox.objects.select_for_update().filter(id=sandbox.id).first()
    if found is None:
        raise SandboxError("This sandbox has been deleted", code="not_found")
    return found


def _step(sandbox: Sandbox, number: int) -> Step:
    step = Step.objects.filter(sandbox=sandbox, number=number).first()
    if step is None:
        raise SandboxError(f"This sandbox has no step {number}", code="not_found")
    return step


def _open_step(sandbox: Sandbox, number: int) -> Step:
    step = _step(sandbox, number)
    if step.status == Step.Status.PLAYED:
        raise SandboxError(
            f"Step {number} has been played: branch it to try it again differently", code="step_played"
        )
    return step


def _new_step(
    sandbox: Sandbox,
    *,
    parent: Step | None,
    snapshot: Mapping[str, Any],
    orders: Mapping[str, Any] | None = None,
    branched_from: Step | None = None,
    outcome: Mapping[str, Any] | None = None,
) -> Step:
    top = Step.objects.filter(sandbox=sandbox).aggregate(top=Max("number"))["top"]
    number = 0 if top is None else top + 1
    if number >= MAX_STEPS:
        raise SandboxError(
            f"A sandbox holds at most {MAX_STEPS} steps: copy it or start another", code="full"
        )
    return Step.objects.create(
        sandbox=sandbox,
        number=number,
        parent=parent,
        branched_from=branched_from,
        snapshot=dict(snapshot),
        orders=dict(orders or {}),
        outcome=dict(outcome or {}),
    )


def _used(sandbox: Sandbox) -> None:
    sandbox_touch(sandbox)


def _room_for_one_more(owner: Any) -> None:
    if Sandbox.objects.filter(owner=owner).count() >= MAX_SANDBOXES:
        raise SandboxError(f"You have {MAX_SANDBOXES} sandboxes: delete one first", code="full")


def _secret_checked(secret: str | None) -> str:
    if secret is None or secret == "":
        return new_secret()
    if not secret.strip() or len(secret) > SECRET_LENGTH:
        raise SandboxError(f"A secret is 1 to {SECRET_LENGTH} characters, not blank", code="refused")
    return secret


def _title(title: str, default: str) -> str:
    title = (title or "").strip()
    return (title or default)[:100]
