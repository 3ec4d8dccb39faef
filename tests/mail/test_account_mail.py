"""Sign-up with an address, its confirmation link, changing it, and password reset, through a real SMTP
server on loopback: each mail is received, parsed, and its link followed with the test client."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import signing

from dipserver.accounts.confirmation import SALT
from dipserver.mail.models import Mail
from tests.mail.conftest import links_in, text_of

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-1"


def signup(client, username: str, email: str):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_signup_mails_a_link_that_confirms_the_address(smtp, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = signup(client, "nina", "nina@example.org")
    assert response.status_code == 302
    user = get_user_model().objects.get(username="nina")
    assert (user.email, user.email_pending) == ("", "nina@example.org")  # not used until confirmed

    mail = smtp.one_to("nina@example.org")
    assert mail["Subject"] == "Confirm your email address for dipserver"
    assert mail["From"] == "dipserver <games@dip.example.org>"
    assert "List-Unsubscribe" not in mail  # account mail is not a subscription
    [link] = links_in(mail)
    assert link.startswith("/accounts/email/confirm/")

    client.logout()  # the link works in any browser, signed in or not
    page = client.get(link)
    assert page.status_code == 200
    assert "game mail now goes to" in page.content.decode()
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("nina@example.org", "")
    assert client.get(link).status_code == 200  # following it twice is harmless


def test_signup_without_an_address_sends_nothing(smtp, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert signup(client, "omar", "").status_code == 302
    assert smtp.received == []
    assert Mail.objects.count() == 0


def test_api_registration_mails_the_confirmation(smtp, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/v1/accounts/register",
            {"username": "bot7", "password": PASSWORD, "email": "bot7@example.org"},
            content_type="application/json",
        )
    assert response.status_code == 201, response.content
    assert response.json()["email_pending"] == "bot7@example.org"
    [link] = links_in(smtp.one_to("bot7@example.org"))
    assert client.get(link).status_code == 200
    assert get_user_model().objects.get(username="bot7").email == "bot7@example.org"


def test_a_changed_address_needs_confirming_and_the_old_link_stops_counting(
    smtp, client, django_capture_on_commit_callbacks
):
    user = get_user_model().objects.create_user("pia", "pia@example.org", PASSWORD)
    client.force_login(user)
    form = {"time_zone": "UTC", "reminder_hours": 24, "press": "each", "phase_processed": "on"}

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/settings/", form | {"email": "pia@new.example.org"})
        client.post("/accounts/settings/", form | {"email": "pia@newer.example.org"})
    user.refresh_from_db()
    assert user.email == "pia@example.org"  # mail keeps going to the confirmed address meanwhile
    assert user.email_pending == "pia@newer.example.org"

    [old_link] = links_in(smtp.one_to("pia@new.example.org"))
    refused = client.get(old_link)
    assert refused.status_code == 400
    assert "replaced" in refused.content.decode()
    [new_link] = links_in(smtp.one_to("pia@newer.example.org"))
    assert client.get(new_link).status_code == 200
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("pia@newer.example.org", "")


def test_a_forged_or_expired_confirmation_link_is_refused(smtp, client, settings):
    user = get_user_model().objects.create_user("quin", "", PASSWORD)
    forged = signing.dumps({"u": user.id, "e": "evil@example.org"}, salt="another-salt")
    assert client.get(f"/accounts/email/confirm/{forged}/").status_code == 400
    settings.DIPSERVER_EMAIL_CONFIRM_DAYS = -1
    expired = signing.dumps({"u": user.id, "e": "quin@example.org"}, salt=SALT)
    response = client.get(f"/accounts/email/confirm/{expired}/")
    assert response.status_code == 400 and "expired" in response.content.decode()
    user.refresh_from_db()
    assert user.email == ""


def test_password_reset_by_mail_with_djangos_tokens(smtp, client, django_capture_on_commit_callbacks):
    get_user_model().objects.create_user("rosa", "rosa@example.org", "the-old-password-1")
    get_user_model().objects.create_user("sven", "", "x", email_pending="sven@example.org")

    assert client.get("/accounts/login/").content.decode().count("/accounts/password/reset/") == 1
    with django_capture_on_commit_callbacks(execute=True):  # mail is sent once the request commits
        response = client.post("/accounts/password/reset/", {"email": "rosa@example.org"})
        client.post("/accounts/password/reset/", {"email": "sven@example.org"})  # not confirmed: nothing
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"

    mail = smtp.one_to("rosa@example.org")
    assert smtp.to("sven@example.org") == []
    assert "reset" not in Mail.objects.get(to="rosa@example.org").body  # the link is not kept
    assert "rosa" in text_of(mail)
    [link] = links_in(mail)
    form = client.get(link, follow=True)  # Django swaps the token for a session and redirects
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-brand-new-password-2", "new_password2": "a-brand-new-password-2"},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert client.login(username="rosa", password="a-brand-new-password-2")
    assert client.get(link, follow=True).context["validlink"] is False  # used once


def test_the_account_page_keeps_time_zone_and_preferences(client):
    user = get_user_model().objects.create_user("tess", "tess@example.org", PASSWORD)
    client.force_login(user)
    page = client.get("/accounts/settings/")
    assert page.status_code == 200 and "tess@example.org" in page.content.decode()
    response = client.post(
        "/accounts/settings/",
        {
            "email": "tess@example.org",
            "time_zone": "Asia/Tokyo",
            "deadline_reminder": "on",
            "reminder_hours": 6,
            "press": "off",
            "game_ended": "on",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    prefs = user.notification_preferences
    assert user.time_zone == "Asia/Tokyo"
    assert (prefs.phase_processed, prefs.deadline_reminder, prefs.reminder_hours) == (False, True, 6)
    assert (prefs.press, prefs.game_started, prefs.game_ended) == ("off", False, True)
    assert 'data-time-zone="Asia/Tokyo"' in client.get("/accounts/settings/").content.decode()
    bad = client.post(
        "/accounts/settings/", {"time_zone": "Mars/Olympus", "reminder_hours": 6, "press": "off"}
    )
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()


def test_account_mail_to_unconfirmed_addresses_is_limited_per_day(
    smtp, client, django_capture_on_commit_callbacks
):
    user = get_user_model().objects.create_user("uma", "uma@example.org", PASSWORD)
    client.force_login(user)
    form = {"email": "uma@elsewhere.example.org", "time_zone": "UTC", "reminder_hours": 24, "press": "each"}
    for _ in range(7):  # each request commits on its own
        with django_capture_on_commit_callbacks(execute=True):
            page = client.post("/accounts/settings/", form | {"resend": "1"}, follow=True)
    assert len(smtp.to("uma@elsewhere.example.org")) == 5
    assert "confirmation links today" in page.content.decode()

    client.logout()
    for _ in range(7):
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post("/accounts/password/reset/", {"email": "uma@example.org"}).status_code == 302
    assert len(smtp.to("uma@example.org")) == 5  # and the page looks the same each time
