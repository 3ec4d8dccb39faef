"""What an owner may see of their webhooks: the hooks (never their secrets) and each one's delivery log."""

from __future__ import annotations

from django.db.models import QuerySet

from dipserver.accounts.models import User
from dipserver.webhooks.models import Delivery, Webhook


def webhooks_of(*, owner: User) -> QuerySet[Webhook]:
    return Webhook.objects.filter(owner=owner).select_related("game").order_by("id")


def deliveries_of(*, webhook: Webhook) -> QuerySet[Delivery]:
    """Newest first."""
    return Delivery.objects.filter(webhook=webhook).order_by("-id")
