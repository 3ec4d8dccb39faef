"""The outbox in the admin: what went out, what is still trying, and why it failed."""

from typing import TYPE_CHECKING

from django.contrib import admin

from dipserver.mail.models import Mail

if TYPE_CHECKING:
    _MailAdmin = admin.ModelAdmin[Mail]  # generic in the stubs only
else:
    _MailAdmin = admin.ModelAdmin


@admin.register(Mail)
class MailAdmin(_MailAdmin):
    list_display = (
        "id", "kind", "to", "subject", "created_at", "sent_at", "unconfirmed", "attempts", "last_error",
    )  # fmt: skip
    list_filter = ("kind", ("sent_at", admin.EmptyFieldListFilter), "unconfirmed")
    search_fields = ("key", "to", "subject")
    readonly_fields = (
        "key",
        "kind",
        "user",
        "to",
        "subject",
        "body",
        "headers",
        "picture",
        "created_at",
        "sent_at",
        "unconfirmed",
        "stage",
        "lease_until",
    )
