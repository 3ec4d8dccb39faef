"""The account page (address, time zone, which mails), the address confirmation link, and unsubscribe."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from dipserver.accounts.calendar import calendar_address
from dipserver.accounts.confirmation import ConfirmationError
from dipserver.accounts.selectors import preferences_of
from dipserver.accounts.services import (
    TooManyMails,
    account_settings_save,
    email_change_request,
    email_confirm,
    notifications_off,
    notifications_on,
)
from dipserver.mail.models import Mail
from dipserver.mail.unsubscribe import unsubscribe_read
from dipserver.web.account_forms import AccountForm
from dipserver.web.account_tokens import tokens_and_vacation
from dipserver.web.account_webhooks import webhooks_shown

if TYPE_CHECKING:
    from dipserver.accounts.models import User


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_page(request: HttpRequest) -> HttpResponse:
    user = cast("User", request.user)
    preferences = preferences_of([user.id])[user.id]
    initial = AccountForm.initial_for(
        email=user.email_pending or user.email, time_zone=user.time_zone, preferences=preferences
    )
    form = AccountForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        account_settings_save(
            user=user, time_zone=form.cleaned_data["time_zone"], preferences=form.preferences()
        )
        wanted = form.cleaned_data["email"]
        changed = wanted != (user.email_pending or user.email) or "resend" in request.POST
        try:
            if changed and email_change_request(user=user, email=wanted):
                messages.info(request, f"We have mailed a link to {wanted}: follow it to use that address.")
        except TooManyMails as exc:
            messages.error(request, str(exc))
        messages.success(request, "Your settings are saved.")
        return redirect("account")
    context = {
        "form": form,
        "account": user,
        "calendar_url": calendar_address(user),
        "webhooks": webhooks_shown(user),
        **tokens_and_vacation(user),
    }
    return render(request, "web/account.html", context)


@require_http_methods(["GET", "HEAD"])
def email_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """Follow the link mailed to a new address: it becomes the account's email (no login needed)."""
    try:
        user = email_confirm(token=token)
    except ConfirmationError as exc:
        return render(request, "web/email_confirm.html", {"problem": str(exc)}, status=400)
    return render(request, "web/email_confirm.html", {"email": user.email})


@csrf_exempt  # the signed token is the permission; mail clients post List-Unsubscribe-Post without a form
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link stops, with one button; POST (the button, or a mail client's one-click
    ``List-Unsubscribe-Post``) stops it. ``again`` undoes it."""
    wanted = unsubscribe_read(token)
    kinds = dict(Mail.Kind.choices)
    if wanted is None or wanted.kind not in kinds:
        return render(request, "web/unsubscribe.html", {"problem": "This link is not valid."}, status=400)
    context = {"kind": kinds[wanted.kind].lower(), "token": token, "done": False, "again": False}
    if request.method == "POST":
        again = request.POST.get("again") == "1"
        change = notifications_on if again else notifications_off
        if not change(user_id=wanted.user_id, kind=wanted.kind):
            return render(request, "web/unsubscribe.html", {"problem": "This account is gone."}, status=404)
        context |= {"done": not again, "again": again}
    return render(request, "web/unsubscribe.html", context)
