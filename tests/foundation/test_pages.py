"""The site's shell: home page, sign in and out, admin, API schema."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(db: None) -> object:
    return get_user_model().objects.create_user(username="alice", password="alice-password")


# These check the layout's promises (brand, sign-in link, who is signed in, sign-out form), not its copy,
# which the web pages are free to rewrite.
BRAND = b'<a class="brand" href="/">dipserver</a>'


def test_home_invites_visitors_to_sign_in(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert BRAND in response.content
    assert b'href="/accounts/login/"' in response.content
    assert b'action="/accounts/logout/"' not in response.content


def test_home_shows_a_signed_in_player_and_a_way_out(client: Client, player: object) -> None:
    client.force_login(player)
    response = client.get("/")
    assert b"<strong>alice</strong>" in response.content
    assert b'action="/accounts/logout/"' in response.content
    assert b'href="/admin/"' not in response.content


def test_sign_in_with_a_password_then_sign_out(client: Client, player: object) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "alice-password"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").context["user"].username == "alice"
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").context["user"].is_anonymous


def test_wrong_password_is_explained(client: Client, player: object) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"Your username and password didn't match" in response.content


def test_admin_login_page_renders(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200


def test_static_stylesheet_is_linked(client: Client) -> None:
    assert b"/static/css/site.css" in client.get("/").content


def test_openapi_schema_is_published(client: Client) -> None:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi: 3" in response.content
    assert b"title: dipserver API" in response.content


def test_project_passes_django_system_checks() -> None:
    from django.core.management import call_command

    call_command("check", fail_level="WARNING")


def test_redoc_page_keeps_the_browser_on_this_site(client: Client) -> None:
    """drf-spectacular's own Redoc page links Google Fonts; ours links nothing elsewhere and the site's
    Content-Security-Policy header stops Redoc's footer logo from being fetched from cdn.redoc.ly."""
    answer = client.get("/api/redoc/")
    html = answer.content.decode()
    assert "googleapis" not in html and "gstatic" not in html
    # django-csp writes the directives in no fixed order: compare them one by one.
    policy = dict(d.strip().split(None, 1) for d in answer["Content-Security-Policy"].split(";") if d.strip())
    assert policy["default-src"] == "'self'" and policy["img-src"] == "'self' data:"
    assert "Redoc.init(" in html or "<redoc " in html
