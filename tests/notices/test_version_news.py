"""A game moved to a newer version of its studio variant is news like the game's others: its players hear
it by mail (a real SMTP server on loopback), in the inbox and through webhooks (a real receiver on
loopback), from which phase and what changes on the map; a game master's game hook hears it too, the other
masters get a mail, the one who gave it does not. Muted games and the mail preference are respected, the
news is told once, and a task lost on its way to the broker is queued again."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from dipserver.accounts.models import NotificationPreferences
from dipserver.games.models import Announcement, Game, VersionChange
from dipserver.games.services.announcements import announcements_due_sweep
from dipserver.games.services.mutes import game_mute
from dipserver.games.services.transfer import game_export, game_import
from dipserver.games.services.versions import version_apply
from dipserver.games.tasks import notification_send
from dipserver.notices.models import Notification
from dipserver.studio import services
from dipserver.webhooks.services import webhook_create
from tests.factories import GameFactory, GameMasterFactory, UserFactory
from tests.mail.conftest import text_of, unsubscribe_path
from tests.studio.conftest import START, small_draft
from tests.studio.test_game_versions import republished, without_ess

pytestmark = pytest.mark.django_db
SUBJECT = "[Small game] The game plays version 2 of its variant from Spring 1901 movement"


@pytest.fixture
def people(db) -> dict[str, Any]:
    return {
        "gm": GameMasterFactory(username="author", email="author@example.org"),
        "co": GameMasterFactory(username="co-master", email="co@example.org"),
        "red": UserFactory(username="red", email="red@example.org"),
        "blue": UserFactory(username="blue", email="blue@example.org"),
    }


@pytest.fixture
def game(people, django_capture_on_commit_callbacks) -> tuple[Game, Any]:
    """A started game of the small map's version 1, and version 2 without ESS."""
    gm = people["gm"]
    draft = small_draft(gm)
    first = services.version_publish(user=gm, draft_id=draft.id, revision=draft.revision)
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(
            name="Small game",
            variant="",
            studio_version=first.id,
            players=[people["red"], people["blue"]],
            joined_at=START,
            masters=[gm, people["co"]],
        )
    return game, republished(gm, first.draft, without_ess)


def moved(game: Game, version: Any, people: dict[str, Any], capture) -> VersionChange:
    with capture(execute=True):
        return version_apply(game_id=game.id, version_id=version.id, phase_name="S1901M", user=people["gm"])


def test_each_player_is_mailed_what_changes_from_which_phase(
    smtp, people, game, django_capture_on_commit_callbacks
):
    game, second = game
    smtp.received.clear()
    moved(game, second, people, django_capture_on_commit_callbacks)

    mail = smtp.one_to("red@example.org")
    assert mail["Subject"] == SUBJECT
    text = text_of(mail)
    assert "author moved Small game from version 1 to version 2 of the studio variant small" in text
    assert "- Provinces removed: ESS" in text and "- Supply centres removed: ESS" in text
    assert f"/games/{game.id}/" in text
    assert smtp.one_to("blue@example.org")["Subject"] == SUBJECT
    # The other master hears it as a master; the one who gave it needs no mail about it.
    assert "as a game master of the game" in text_of(smtp.one_to("co@example.org"))
    assert smtp.to("author@example.org") == []


def test_a_player_who_switched_the_mail_off_is_not_mailed_but_finds_it_in_the_inbox(
    smtp, people, game, django_capture_on_commit_callbacks
):
    game, second = game
    NotificationPreferences.objects.create(user=people["red"], version_changed=False)
    smtp.received.clear()
    moved(game, second, people, django_capture_on_commit_callbacks)

    assert smtp.to("red@example.org") == [] and len(smtp.to("blue@example.org")) == 1
    assert Notification.objects.filter(user=people["red"], kind="version_changed").count() == 1


def test_the_mail_has_a_link_that_stops_only_this_kind(
    smtp, people, game, django_capture_on_commit_callbacks
):
    game, second = game
    smtp.received.clear()
    moved(game, second, people, django_capture_on_commit_callbacks)

    path = unsubscribe_path(smtp.one_to("blue@example.org"))
    assert "variant version changed" in Client().get(path).content.decode()
    Client().post(path)
    preferences = NotificationPreferences.objects.get(user=people["blue"])
    assert preferences.version_changed is False and preferences.phase_processed is True


def test_each_player_finds_it_in_the_inbox(people, game, django_capture_on_commit_callbacks):
    game, second = game
    moved(game, second, people, django_capture_on_commit_callbacks)

    notes = Notification.objects.filter(kind="version_changed").order_by("user__username")
    assert [n.user.username for n in notes] == ["blue", "red"]
    assert notes[0].title == SUBJECT and "Provinces removed: ESS" in notes[0].text
    assert notes[0].url.endswith(f"/games/{game.id}/")


def test_a_player_who_muted_the_game_hears_nothing_in_the_inbox(
    people, game, django_capture_on_commit_callbacks
):
    game, second = game
    game_mute(game_id=game.id, user=people["red"], muted=True)
    moved(game, second, people, django_capture_on_commit_callbacks)

    assert list(
        Notification.objects.filter(kind="version_changed").values_list("user__username", flat=True)
    ) == ["blue"]


def test_a_players_hook_and_a_masters_game_hook_hear_it(
    receiver, people, game, django_capture_on_commit_callbacks
):
    game, second = game
    webhook_create(owner=people["red"], url=receiver.url, kinds=["version_changed"])
    webhook_create(owner=people["co"], url=receiver.url, game_id=game.id, kinds=["version_changed"])
    change = moved(game, second, people, django_capture_on_commit_callbacks)

    bodies = receiver.bodies()
    assert len(bodies) == 2 and {b["event"] for b in bodies} == {"version_changed"}
    body = bodies[0]
    assert body["title"] == SUBJECT and "Provinces removed: ESS" in body["content"]
    assert body["facts"]["phase"] == "S1901M" and body["facts"]["by"] == "author"
    assert (body["facts"]["from_version"]["number"], body["facts"]["to_version"]["number"]) == (1, 2)
    assert body["facts"]["diff"]["provinces"]["removed"] == ["ESS"]
    assert {r.headers["X-Dipserver-Delivery"].split(":")[1] for r in receiver.received} == {"version"}
    assert all(f"version:{change.id}:" in r.headers["X-Dipserver-Delivery"] for r in receiver.received)


def test_told_twice_it_lands_once_on_every_channel(
    smtp, receiver, people, game, django_capture_on_commit_callbacks
):
    game, second = game
    webhook_create(owner=people["red"], url=receiver.url, kinds=["version_changed"])
    smtp.received.clear()
    change = moved(game, second, people, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True):
        notification_send("version_changed_send", {"change_id": change.id})

    assert len(smtp.to("red@example.org")) == 1
    assert Notification.objects.filter(user=people["red"], kind="version_changed").count() == 1
    assert len(receiver.received) == 1


def test_a_change_whose_task_was_lost_is_told_by_the_sweep(people, game, django_capture_on_commit_callbacks):
    game, second = game
    with django_capture_on_commit_callbacks(execute=False):  # the task never reaches the broker
        change = version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=people["gm"])
    (row,) = Announcement.objects.filter(sender="version_changed_send")
    assert row.change_id == change.id and not Notification.objects.filter(kind="version_changed").exists()

    with django_capture_on_commit_callbacks(execute=True):
        queued = announcements_due_sweep(now=timezone.now() + dt.timedelta(minutes=1))

    assert queued == [("version_changed_send", {"change_id": change.id})]
    assert Notification.objects.filter(kind="version_changed").count() == 2
    assert not Announcement.objects.filter(sender="version_changed_send").exists()


def test_an_exported_game_keeps_its_untold_change_to_tell(people, game, django_capture_on_commit_callbacks):
    game, second = game
    with django_capture_on_commit_callbacks(execute=False):
        version_apply(game_id=game.id, version_id=second.id, phase_name="S1901M", user=people["gm"])

    copy = game_import(data=json.loads(json.dumps(game_export(game_id=game.id))))

    (row,) = Announcement.objects.filter(game=copy, sender="version_changed_send")
    assert row.change_id == VersionChange.objects.get(game=copy).id
