"""Sign-up creates a login and signs it in; sign-in and sign-out are the accounts app's own pages."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_signup_creates_the_login_and_signs_it_in(client):
    answer = client.post(
        "/accounts/signup/",
        {"username": "newcomer", "password1": "sand and salt 42", "password2": "sand and salt 42"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/games/"
    assert get_user_model().objects.filter(username="newcomer").exists()
    assert client.get("/games/").context["user"].username == "newcomer"


def test_signup_explains_mismatched_passwords(client):
    answer = client.post(
        "/accounts/signup/", {"username": "newcomer", "password1": "sand and salt 42", "password2": "other"}
    )
    assert answer.status_code == 200
    assert "match" in answer.content.decode() and "password fields" in answer.content.decode()
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_signup_refuses_a_taken_name(client, players):
    answer = client.post(
        "/accounts/signup/",
        {"username": "player0", "password1": "sand and salt 42", "password2": "sand and salt 42"},
    )
    assert "already exists" in answer.content.decode()


def test_signup_follows_only_local_next_addresses(client):
    data = {"username": "a", "password1": "sand and salt 42", "password2": "sand and salt 42"}
    answer = client.post("/accounts/signup/", {**data, "next": "https://evil.example/"})
    assert answer["Location"] == "/games/"


def test_header_offers_sign_up_and_sign_in_to_visitors(client):
    page = client.get("/").content.decode()
    assert 'href="/accounts/signup/"' in page and 'href="/accounts/login/"' in page
