"""The sandbox pages as the server renders them: who may open which, and a sandbox opened from a game."""

from __future__ import annotations

import pytest
from django.test import Client

from dipserver.games.services.games import game_create, game_join
from dipserver.sandbox.models import Sandbox
from dipserver.sandbox.services import sandbox_from_variant, sandbox_update
from tests.factories import UserFactory
from tests.web.conftest import seat_of

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_my_sandboxes_need_a_sign_in():
    answer = _client().get("/sandboxes/")
    assert answer.status_code == 302 and "/login/" in answer["Location"]


def test_the_form_opens_a_sandbox_at_a_variants_start_and_goes_to_it():
    user = UserFactory(username="former")
    answer = _client(user).post(
        "/sandboxes/", {"variant": "standard", "title": "From the form", "secret": ""}
    )
    sandbox = Sandbox.objects.get(owner=user)
    assert answer.status_code == 302 and answer["Location"] == f"/sandboxes/{sandbox.id}/"
    assert sandbox.title == "From the form" and len(sandbox.secret) == 64


def test_a_sandbox_page_is_its_owners_only():
    owner, other = UserFactory(username="own"), UserFactory(username="oth")
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    assert _client(owner).get(f"/sandboxes/{sandbox.id}/").status_code == 200
    assert _client(other).get(f"/sandboxes/{sandbox.id}/").status_code == 404


def test_a_share_link_opens_the_read_only_page_to_anyone_until_it_is_withdrawn():
    owner = UserFactory(username="sharer")
    sandbox = sandbox_from_variant(owner=owner, slug="standard")
    token = sandbox_update(sandbox=sandbox, shared=True).share_token
    page = _client().get(f"/sandboxes/shared/{token}/")
    assert page.status_code == 200 and b'id="read-only"' in page.content and b'id="play"' not in page.content
    sandbox_update(sandbox=sandbox, shared=False)
    assert _client().get(f"/sandboxes/shared/{token}/").status_code == 404


def test_a_game_page_offers_a_sandbox_of_the_phase_to_the_signed_in(sahara):
    user = seat_of(sahara, "FRANCE").user
    assert b'id="open-sandbox"' in _client(user).get(f"/games/{sahara.id}/").content
    assert b'id="open-sandbox"' not in _client().get(f"/games/{sahara.id}/").content
    answer = _client(user).post(f"/games/{sahara.id}/sandbox/", {"phase": "0"})
    sandbox = Sandbox.objects.get(owner=user)
    assert answer["Location"] == f"/sandboxes/{sandbox.id}/" and sandbox.origin["game"] == sahara.id


def test_a_sandbox_of_a_phase_that_does_not_exist_goes_back_to_the_game_saying_why(sahara):
    user = seat_of(sahara, "FRANCE").user
    answer = _client(user).post(f"/games/{sahara.id}/sandbox/", {"phase": "99"}, follow=True)
    assert answer.redirect_chain[-1][0] == f"/games/{sahara.id}/"
    assert "No sandbox was opened" in answer.content.decode()
    assert not Sandbox.objects.exists()


SHARED_PARTS = {"web/order_entry.html", "web/province_list.html", "web/modules_panel.html"}


def test_the_sandbox_page_and_the_game_page_draw_their_shared_panels_from_the_same_templates(players):
    """One template each for the order entry, the provinces in words and the rule modules' panel."""
    game = game_create(name="Grid", variant="ice_lords", powers=3)
    for user in players[:3]:
        game_join(game_id=game.id, user=user)
    owner = players[0]
    sandbox = sandbox_from_variant(owner=owner, slug="ice_lords", options={"blizzards": True})
    client = _client(owner)
    for url in (f"/games/{game.id}/", f"/sandboxes/{sandbox.id}/"):
        used = {template.name for template in client.get(url).templates}
        assert used >= SHARED_PARTS, url
