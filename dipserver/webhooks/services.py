"""Making and removing webhooks, and storing the deliveries an event owes them (sent by ``tasks``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from dipserver.accounts.models import User
from dipserver.core.inserts import models_inserted_once
from dipserver.games.models import Game, Power
from dipserver.notices.events import NEWS_KINDS, Notice
from dipserver.webhooks.addresses import address_checked, target_of
from dipserver.webhooks.errors import WebhookError
from dipserver.webhooks.models import Delivery, Webhook
from dipserver.webhooks.payloads import payload_of
from dipserver.webhooks.signature import secret_new

MAX_WEBHOOKS = 20
KINDS = list(NEWS_KINDS)


def _masters(user: User, game: Game) -> bool:
    return user.is_superuser or game.masters.filter(id=user.id).exists()


def webhook_create(
    *, owner: User, url: str, game_id: int | None = None, name: str = "", kinds: Iterable[str] = ()
) -> tuple[Webhook, str]:
    """A new webhook and its signing secret (shown to the owner this once). On one game, a player's hook
    hears what their seat hears, a game master's (without a seat) what anyone may know of the game;
    without a game, it hears every game the owner plays."""
    address_checked(target_of(url))
    kinds = sorted(set(kinds))
    if unknown := [k for k in kinds if k not in KINDS]:
        raise WebhookError(f"No such kind of news: {', '.join(unknown)}.", code="bad_kind")
    view = Webhook.View.PLAYER
    if game_id is not None:
        game = Game.objects.filter(id=game_id).first()
        if game is None:
            raise WebhookError(f"There is no game {game_id}.", code="not_found")
        if not Power.objects.filter(game=game, user=owner).exists():
            if not _masters(owner, game):
                raise WebhookError("Only the game's players and masters hear its news.", code="not_yours")
            view = Webhook.View.GAME
    with transaction.atomic():
        User.objects.select_for_update().filter(id=owner.id).first()  # counts one owner's hooks at a time
        if Webhook.objects.filter(owner=owner).count() >= MAX_WEBHOOKS:
            raise WebhookError(
                f"At most {MAX_WEBHOOKS} webhooks; remove one first.", code="too_many_webhooks"
            )
        secret = secret_new()
        hook = Webhook.objects.create(
            owner=owner, game_id=game_id, view=view, name=name, url=url.strip(), secret=secret, kinds=kinds
        )
    return hook, secret


def webhook_of(*, owner: User, webhook_id: int) -> Webhook:
    hook = Webhook.objects.filter(owner=owner, id=webhook_id).first()
    if hook is None:
        raise WebhookError(f"You have no webhook {webhook_id}.", code="not_found")
    return hook


def webhook_delete(*, webhook: Webhook) -> None:
    """Remove the hook and its log; a delivery still queued finds nothing and sends nothing."""
    webhook.delete()


def _hears(hook: Webhook, notice: Notice) -> bool:
    if hook.kinds and notice.kind not in hook.kinds:
        return False
    if hook.view == Webhook.View.GAME:
        return notice.user_id is None and hook.game_id == notice.game_id
    return notice.user_id == hook.owner_id and hook.game_id in (None, notice.game_id)


def deliveries_store(notices: list[Notice]) -> list[int]:
    """One delivery per notice and webhook that hears it, unless stored before; the ids of the new ones.
    Two statements whatever the number of notices: the hooks that may hear them, and the deliveries
    (``core.inserts``: one INSERT, the keys stored before skipped)."""
    users = {n.user_id for n in notices if n.user_id is not None}
    games = {n.game_id for n in notices if n.user_id is None}
    if not users and not games:
        return []
    hooks = list(
        Webhook.objects.filter(
            Q(view=Webhook.View.PLAYER, owner_id__in=users) | Q(view=Webhook.View.GAME, game_id__in=games)
        ).order_by()
    )
    rows = []
    for notice in notices:
        for hook in (h for h in hooks if _hears(h, notice)):
            key = f"{notice.key}:hook:{hook.id}"
            rows.append(Delivery(webhook=hook, key=key, kind=notice.kind, payload=payload_of(notice, key)))
    return [delivery_id for (delivery_id,) in models_inserted_once(rows, unique=("key",), returning=("id",))]
