"""The unread count in every page's header and title (a template context processor)."""

from __future__ import annotations

from typing import Any, cast

from django.http import HttpRequest

from dipserver.accounts.models import User
from dipserver.notices.models import Notification


def unread_notifications(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    count = Notification.objects.filter(user=cast(User, user), read_at__isnull=True).count()
    return {"unread_notifications": count}
