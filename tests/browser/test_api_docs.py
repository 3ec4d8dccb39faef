"""The API documentation renders in Chromium from this site alone: no fonts, scripts or logos fetched
from another origin (a server with no internet, or a privacy-minded reader, sees the same page)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("path", "rendered"),
    [("/api/redoc/", "h1"), ("/api/docs/", ".swagger-ui .info")],
    ids=["redoc", "swagger"],
)
def test_api_docs_render_without_other_origins(browser, live_server, shoot, path, rendered):
    page = browser.new_page(viewport=LAPTOP)
    origin = urlsplit(live_server.url).netloc
    elsewhere: list[str] = []

    def record(route):  # the requests that reach the network: a CSP-blocked one never gets here
        if urlsplit(route.request.url).netloc not in ("", origin):
            elsewhere.append(route.request.url)
            return route.abort()
        return route.continue_()

    page.route("**/*", record)
    page.goto(f"{live_server.url}{path}")
    expect(page.locator(rendered).first).to_contain_text("dipserver API")
    page.wait_for_load_state("networkidle")
    shoot(page, "page", full_page=False)
    page.close()
    assert elsewhere == []
