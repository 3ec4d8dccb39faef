"""Limits that hold: a client is counted by the address the server saw, never by a header it wrote."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


WRONG = 422  # a wrong password: well formed, refused (bad_credentials)


def _guess(n: int, **headers: str) -> int:
    answer = client_for().post(
        "/api/v1/accounts/token", {"username": "player0", "password": f"guess {n}"}, **headers
    )
    return answer.status_code


def test_forged_forwarded_addresses_do_not_reset_the_login_limit(players):
    codes = [_guess(n, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}") for n in range(40)]
    assert codes == [WRONG] * 20 + [429] * 20  # the default limit: 20 a minute per address


def test_registration_while_limited_is_refused_whatever_the_forwarded_header(db, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "register": "1/hour"}
    first = client_for().post("/api/v1/accounts/register", {"username": "a1", "password": "correct horse 9"})
    assert first.status_code == 201
    again = client_for().post(
        "/api/v1/accounts/register",
        {"username": "a2", "password": "correct horse 9"},
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert (again.status_code, again.json()["error"]["code"]) == (429, "throttled")


def test_behind_a_trusted_proxy_the_address_it_saw_is_counted(players, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "2/min"}
    # The proxy appends the address it was reached from; whatever the client wrote before it is ignored.
    same_client = [_guess(n, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 192.0.2.7") for n in range(3)]
    assert same_client == [WRONG, WRONG, 429]
    assert _guess(9, HTTP_X_FORWARDED_FOR="192.0.2.8") == WRONG  # another client behind the same proxy


def test_behind_two_proxies_the_outer_proxys_entry_counts(players, settings):
    settings.TRUSTED_PROXY_COUNT = 2
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "1/min"}
    assert _guess(1, HTTP_X_FORWARDED_FOR="forged, 192.0.2.7, 10.0.0.2") == WRONG
    assert _guess(2, HTTP_X_FORWARDED_FOR="other, 192.0.2.7, 10.0.0.2") == 429


def _form_sign_in(n: int, path: str = "/accounts/login/", **headers: str) -> int:
    answer = Client().post(path, {"username": "player0", "password": f"guess {n}"}, **headers)
    return answer.status_code


def test_the_sign_in_form_shares_the_apis_login_limit(players, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "3/min"}
    assert [_guess(1), _guess(2)] == [WRONG, WRONG]
    assert _form_sign_in(3, HTTP_X_FORWARDED_FOR="198.51.100.3") == 200  # the form again, with its error
    blocked = Client().post("/accounts/login/", {"username": "player0", "password": "a long passphrase 1"})
    assert blocked.status_code == 429 and "Retry-After" in blocked
    assert "Too many attempts" in blocked.content.decode()
    assert _guess(5) == 429  # and the API counts the form's attempts


def test_the_admin_sign_in_is_limited_too(players, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "2/min"}
    codes = [_form_sign_in(n, "/admin/login/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}") for n in range(3)]
    assert codes == [200, 200, 429]


def test_the_sign_up_form_shares_the_registration_limit(db, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "register": "1/hour"}
    first = client_for().post("/api/v1/accounts/register", {"username": "a1", "password": "correct horse 9"})
    assert first.status_code == 201
    form = {"username": "a2", "password1": "correct horse 9", "password2": "correct horse 9"}
    assert Client().post("/accounts/signup/", form).status_code == 429


def test_reading_the_sign_in_form_is_never_limited(db, settings):
    settings.DIPSERVER_API_THROTTLES = {**settings.DIPSERVER_API_THROTTLES, "login": "1/min"}
    assert [Client().get("/accounts/login/").status_code for _ in range(3)] == [200, 200, 200]
