"""Every page carries a Content-Security-Policy without inline script, and the usual security headers;
no template holds an inline script, event handler or style element for the policy to block."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from dipserver.core.content_security import PolicyMiddleware

from .conftest import ROOT

PAGES = [
    "/",
    "/games/",
    "/games/new/",
    "/variants/standard/",
    "/accounts/login/",
    "/accounts/signup/",
    "/admin/login/",
    "/api/docs/",
    "/api/redoc/",
    "/api/v1/variants",
    "/no-such-page/",
]


def _policy(header: str) -> dict[str, list[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_allows_scripts_from_this_site_only(path: str) -> None:
    answer = Client().get(path)
    policy = _policy(answer["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no other origin
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]


# Swagger UI and Redoc style themselves inline; no page of the site does.
API_DOCS = ["/api/docs/", "/api/redoc/"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", [p for p in PAGES if p not in API_DOCS])
def test_every_page_allows_styles_from_this_site_only(path: str) -> None:
    policy = _policy(Client().get(path)["Content-Security-Policy"])
    assert policy["style-src"] == ["'self'"]  # no 'unsafe-inline': no style attribute, no inline <style>


@pytest.mark.django_db
@pytest.mark.parametrize("path", API_DOCS)
def test_only_the_api_documentation_allows_inline_styles(path: str) -> None:
    policy = _policy(Client().get(path)["Content-Security-Policy"])
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_the_policy_django_csp_builds(path: str) -> None:
    # The policy is built once (PolicyMiddleware); each page's headers are django-csp's own.
    with override_settings(
        MIDDLEWARE=[
            m.replace(f"{PolicyMiddleware.__module__}.PolicyMiddleware", "csp.middleware.CSPMiddleware")
            for m in settings.MIDDLEWARE
        ]
    ):
        expected = Client().get(path)
    answer = Client().get(path)
    for header in ("Content-Security-Policy", "Content-Security-Policy-Report-Only"):
        assert answer.get(header) == expected.get(header)


@pytest.mark.django_db
def test_a_changed_policy_setting_is_read_again() -> None:
    Client().get("/")
    report_only = {"DIRECTIVES": {"default-src": ["'self'"], "report-uri": "/csp-report/"}}
    with override_settings(CONTENT_SECURITY_POLICY_REPORT_ONLY=report_only):
        assert "report-uri /csp-report/" in Client().get("/")["Content-Security-Policy-Report-Only"]
    assert "Content-Security-Policy-Report-Only" not in Client().get("/")


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_usual_security_headers(path: str) -> None:
    answer = Client().get(path)
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["Referrer-Policy"] == "same-origin"
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_the_game_page_carries_the_policy(game_page: str) -> None:
    answer = Client().get(game_page)
    assert answer.status_code == 200
    assert _policy(answer["Content-Security-Policy"])["script-src"] == ["'self'"]


@pytest.fixture
def game_page(db: None) -> str:
    from django.contrib.auth import get_user_model

    from dipserver.games.services.games import game_create

    master = get_user_model().objects.create_user("gm", password="a long passphrase 1")
    return f"/games/{game_create(name='Headers', variant='standard', masters=[master]).id}/"


class _InlineFinder(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would block: inline scripts, handlers and styles."""

    EXECUTABLE = {"", "module", "text/javascript", "application/javascript"}

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and "src" not in named and (named.get("type") or "") in self.EXECUTABLE:
            self.found.append(f"line {self.getpos()[0]}: inline <script>")
        if tag == "style":
            self.found.append(f"line {self.getpos()[0]}: inline <style>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"line {self.getpos()[0]}: event handler {name}=")
            if name == "style":
                self.found.append(f"line {self.getpos()[0]}: style=")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"line {self.getpos()[0]}: {name}=javascript:")


def _templates() -> list[Path]:
    found = sorted((ROOT / "templates").rglob("*.html")) + sorted(
        (ROOT / "dipserver").glob("*/templates/**/*.html")
    )
    assert len(found) > 5  # the search found the templates
    return found


def test_no_template_holds_an_inline_script_handler_or_style() -> None:
    problems = []
    for template in _templates():
        finder = _InlineFinder()
        finder.feed(template.read_text())
        problems += [f"{template.relative_to(ROOT)} {where}" for where in finder.found]
    assert problems == []


def test_the_inline_finder_sees_what_the_policy_blocks() -> None:
    finder = _InlineFinder()
    finder.feed('<script>go()</script><script type="module" src="/a.js"></script><a onclick="x()">')
    finder.feed('<style>p{}</style><script type="application/json">{}</script><a href="javascript:x()">')
    finder.feed('<b style="--power: red">')
    assert [line.split(": ", 1)[1] for line in finder.found] == [
        "inline <script>",
        "event handler onclick=",
        "inline <style>",
        "href=javascript:",
        "style=",
    ]
