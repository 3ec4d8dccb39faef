"""Sign-up: a new login, signed in at once; an email address is optional (and encouraged), and is used once
its owner follows the link mailed to it. Signing in and out are the accounts app's views."""

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from dipserver.accounts.services import email_change_request

if TYPE_CHECKING:
    from dipserver.accounts.models import User

    # Generic in the stubs only: Django's UserCreationForm is not subscriptable at run time.
    _UserCreationForm = UserCreationForm[User]
else:
    _UserCreationForm = UserCreationForm


class SignupForm(_UserCreationForm):
    # Not the model's field: the address waits for confirmation (``accounts.services.email_change_request``).
    email = forms.EmailField(
        label="Email (optional)",
        required=False,
        help_text="For phase results, deadline reminders and press, and to reset a forgotten password. "
        "We mail you a link to confirm it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    # The stubs leave out BaseUserCreationForm.Meta (model, fields, field_classes), which Django has.
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username",)
        widgets = {"username": forms.TextInput(attrs={"autocomplete": "username", "autofocus": True})}


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if email_change_request(user=user, email=form.cleaned_data["email"]):
            messages.info(
                request, f"We have mailed a link to {user.email_pending}: follow it to get mail there."
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        wanted = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure())
        return redirect(wanted if wanted and safe else "lobby")
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})
