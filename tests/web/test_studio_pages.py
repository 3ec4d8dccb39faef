"""The studio's pages: for game masters only, a new draft from a form, the editor of one's own draft."""

from __future__ import annotations

from django.template import Context, Template
from django.test import Client

from dipserver.studio.models import Draft
from tests.factories import GameMasterFactory, UserFactory


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_studio_asks_a_visitor_to_sign_in(db):
    response = Client().get("/studio/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_studio_is_for_game_masters(db):
    assert signed_in(UserFactory(username="plain")).get("/studio/").status_code == 403


def test_the_studio_lists_my_drafts_and_offers_installed_maps(db):
    gm = GameMasterFactory(username="author")
    Draft.objects.create(owner=gm, slug="mine", data={"variant": {"name": "Mine"}})
    page = signed_in(gm).get("/studio/").content.decode()
    assert "Mine" in page and 'value="standard"' in page


def test_a_new_draft_from_the_form_opens_its_editor(db):
    gm = GameMasterFactory(username="author")
    response = signed_in(gm).post(
        "/studio/drafts/new/", {"slug": "mine", "name": "Mine", "start_from": "standard"}
    )
    draft = Draft.objects.get(owner=gm)
    assert response.status_code == 302 and response["Location"] == f"/studio/drafts/{draft.id}/"
    assert draft.data["variant"]["base"] == "standard"


def test_a_refused_draft_says_why_on_the_studio_page(db):
    gm = GameMasterFactory(username="author")
    response = signed_in(gm).post("/studio/drafts/new/", {"slug": "standard", "name": "X"}, follow=True)
    assert "No draft made" in response.content.decode() and not Draft.objects.exists()


def test_a_player_may_not_post_a_new_draft(db):
    response = signed_in(UserFactory(username="plain")).post(
        "/studio/drafts/new/", {"slug": "x", "name": "X"}
    )
    assert response.status_code == 403


def test_the_editor_of_my_draft(db):
    gm = GameMasterFactory(username="author")
    draft = Draft.objects.create(owner=gm, slug="mine", data={"variant": {"name": "Mine"}})
    page = signed_in(gm).get(f"/studio/drafts/{draft.id}/").content.decode()
    script = Template('{% load scripts %}{% module_script "js/studio.js" %}').render(Context())
    assert 'id="studio-config"' in page and script in page, "the editor's script, bundled when built"


def test_another_game_masters_draft_has_no_editor(db):
    draft = Draft.objects.create(owner=GameMasterFactory(username="author"), slug="mine", data={})
    assert (
        signed_in(GameMasterFactory(username="other")).get(f"/studio/drafts/{draft.id}/").status_code == 404
    )


def test_a_site_admin_unpublishes_from_the_admin(db):
    from dipserver.studio import services
    from tests.factories import AdminFactory
    from tests.studio.conftest import small_draft

    gm = GameMasterFactory(username="author")
    draft = small_draft(gm)
    version = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    client = signed_in(AdminFactory(username="admin"))
    assert client.get("/admin/studio/variantversion/").status_code == 200
    body = {"action": "unpublish", "_selected_action": [version.id]}
    client.post("/admin/studio/variantversion/", body, follow=True)
    version.refresh_from_db()
    assert not version.published


def test_a_studio_games_page_and_the_lobby_name_its_variant(db):
    from dipserver.studio import services
    from tests.factories import GameFactory
    from tests.studio.conftest import small_draft

    gm = GameMasterFactory(username="author")
    draft = small_draft(gm)
    version = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    players = [UserFactory(username=f"p{i}") for i in range(2)]
    game = GameFactory(name="Small game", variant="", studio_version=version.id, players=players)
    page = signed_in(players[0]).get(f"/games/{game.id}/")
    assert page.status_code == 200 and "Small" in page.content.decode()
    lobby = signed_in(players[0]).get("/games/")
    assert lobby.status_code == 200 and "Small game" in lobby.content.decode()
