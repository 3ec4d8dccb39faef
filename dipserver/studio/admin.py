"""The site admins' view of the studio: published versions, read only, with an action to unpublish them
(through the same service as the API). Drafts are their owners' and stay out of the admin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from dipserver.studio.errors import StudioError
from dipserver.studio.models import VariantVersion
from dipserver.studio.services import version_unpublish

if TYPE_CHECKING:  # the stubs' ModelAdmin is generic; Django's own is not subscriptable
    _VersionAdmin = admin.ModelAdmin[VariantVersion]
else:
    _VersionAdmin = admin.ModelAdmin


@admin.register(VariantVersion)
class VariantVersionAdmin(_VersionAdmin):
    list_display = ["slug", "number", "name", "author", "published", "published_at", "unpublished_at"]
    list_filter = ["published"]
    search_fields = ["slug", "name", "author__username"]
    fields = ("slug", "number", "name", "author", "version", "published", "published_at", "unpublished_at")
    readonly_fields = fields
    actions = ["unpublish"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # versions are published from drafts in the studio

    def has_delete_permission(self, request: HttpRequest, obj: VariantVersion | None = None) -> bool:
        return False  # games pin them: unpublish instead

    @admin.action(description="Unpublish (no new game may pin it; its games play on)")
    def unpublish(self, request: HttpRequest, versions: QuerySet[VariantVersion]) -> None:
        for version in versions:
            try:
                version_unpublish(user=request.user, version_id=version.id)
            except StudioError as exc:
                self.message_user(request, f"{version}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{version}: unpublished", messages.SUCCESS)
