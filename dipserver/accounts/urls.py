"""Signing in and out, and password reset and change: Django's own views and tokens (the reset mail is
put in the outbox, ``forms.QueuedPasswordResetForm``); the deadlines feed and a new address for it."""

from django.contrib.auth import views as auth_views
from django.urls import path

from dipserver.accounts import views
from dipserver.accounts.forms import QueuedPasswordResetForm

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"
    ),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("calendar/renew/", views.calendar_renew, name="calendar-renew"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="calendar-feed"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
