from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from dipserver.accounts.models import NotificationPreferences, User

if TYPE_CHECKING:
    _UserAdmin = UserAdmin[User]  # generic in the stubs only
else:
    _UserAdmin = UserAdmin


@admin.register(User)
class AccountAdmin(_UserAdmin):
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Mail", {"fields": ("email_pending", "time_zone")}))


admin.site.register(NotificationPreferences)
