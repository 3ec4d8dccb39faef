from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from dipserver.accounts.models import ApiToken, NotificationPreferences, User

if TYPE_CHECKING:
    _UserAdmin = UserAdmin[User]  # generic in the stubs only
    _TokenAdmin = admin.ModelAdmin[ApiToken]
else:
    _UserAdmin = UserAdmin
    _TokenAdmin = admin.ModelAdmin


@admin.register(User)
class AccountAdmin(_UserAdmin):
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Mail", {"fields": ("email_pending", "time_zone")}))


admin.site.register(NotificationPreferences)


@admin.register(ApiToken)
class ApiTokenAdmin(_TokenAdmin):
    """Tokens by user; only hashes are stored. Setting ``revoked_at`` here takes effect within 30 seconds."""

    list_display = ("name", "user", "created_at", "last_used_at", "expires_at", "revoked_at")
    list_filter = ("revoked_at",)
    readonly_fields = ("key_hash", "created_at", "last_used_at")
