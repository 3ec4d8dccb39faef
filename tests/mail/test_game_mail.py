"""Game mail through a real SMTP server on loopback: started, phase results, reminders, press, ended;
preferences, one-click unsubscribe, and a mail server that is down and then up again."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dipserver.accounts.models import NotificationPreferences
from dipserver.games import notifications
from dipserver.games.models import Game, Phase
from dipserver.games.services.games import game_concede
from dipserver.games.services.orders import orders_submit
from dipserver.games.services.phases import Processed, phase_process, phase_revert
from dipserver.games.services.phases import phase_reminders_sweep as reminders_sweep
from dipserver.games.services.press import message_send
from dipserver.mail.delivery import Delivery, mail_deliver
from dipserver.mail.models import Mail
from dipserver.mail.tasks import mail_send, mails_due_queue
from tests.mail.conftest import links_in, text_of, unsubscribe_path
from tests.server.conftest import START, seat, started_game

pytestmark = pytest.mark.django_db
LATE = START + dt.timedelta(days=2)
ENGLAND_ALL = "F LON H\nF EDI H\nA LVP H"
FRANCE_ALL = "F BRE H\nA PAR H\nA MAR H"


def deliver_one_to(address: str, smtp, *, now: dt.datetime):
    """Send the one mail queued to ``address`` at ``now``, and what the server received."""
    smtp.received.clear()
    assert (
        mail_deliver(mail_id=Mail.objects.get(to=address, kind=Mail.Kind.DEADLINE_REMINDER).id, now=now)
        == Delivery.SENT
    )
    return smtp.one_to(address)


@pytest.fixture
def players(db):
    user_model = get_user_model()
    return [
        user_model.objects.create(username=f"player{i}", email=f"player{i}@example.org") for i in range(7)
    ]


@pytest.fixture
def game(players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(players)


def process(game: Game, capture, now: dt.datetime = LATE) -> None:
    with capture(execute=True):
        assert (
            phase_process(phase_id=Game.objects.get(id=game.id).current_phase_id, now=now) == Processed.DONE
        )


def test_each_player_hears_the_game_start_with_their_power(smtp, game):
    for name in ("ENGLAND", "TURKEY"):
        user = seat(game, name).user
        mail = smtp.one_to(user.email)
        assert mail["Subject"] == "[Test game] The game has started"
        assert f"you play {name.title()}" in text_of(mail)
    assert len(smtp.received) == 7


def test_phase_results_tell_what_happened_and_what_is_due_in_the_players_time_zone(
    smtp, game, client, django_capture_on_commit_callbacks
):
    england = seat(game, "ENGLAND").user
    england.time_zone = "America/New_York"
    england.save()
    orders_submit(game_id=game.id, user=england, text="F LON - NTH", now=START)
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    mail = smtp.one_to(england.email)
    assert mail["Subject"] == "[Test game] Spring 1901 movement processed"
    body = text_of(mail)
    assert "ENGLAND: F LON - NTH — success" in body
    assert "Next: Autumn 1901 movement" in body
    deadline = Phase.objects.get(game=game, name="F1901M").deadline.astimezone(ZoneInfo("America/New_York"))
    assert f"Your orders are due {deadline:%a %d %b %Y %H:%M} EST." in body
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail["Auto-Submitted"] == "auto-generated"
    game_link, _map_link, unsubscribe_link = links_in(mail)
    assert unsubscribe_link == unsubscribe_path(mail)
    client.force_login(england)
    assert game_link == f"/games/{game.id}/" and client.get(game_link).status_code == 200
    assert len(smtp.received) == 7


def test_phase_results_name_the_powers_that_sent_no_orders(smtp, game, django_capture_on_commit_callbacks):
    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON - NTH", now=START)
    orders_submit(game_id=game.id, user=seat(game, "TURKEY").user, text="F ANK - BLA", now=START)
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    body = text_of(smtp.one_to(seat(game, "FRANCE").user.email))
    assert "No orders from: Austria, France, Germany, Italy, Russia." in body  # England, Turkey ordered


def test_a_game_master_who_does_not_play_gets_the_results_of_their_game_as_they_chose(
    smtp, game, django_capture_on_commit_callbacks
):
    master = get_user_model().objects.create(username="master", email="master@example.org")
    quiet = get_user_model().objects.create(username="quiet", email="quiet@example.org")
    NotificationPreferences.objects.create(user=quiet, phase_processed=False)
    game.masters.add(master, quiet, seat(game, "ENGLAND").user)  # England's player hears once, as a player
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    mail = smtp.one_to("master@example.org")
    assert mail["Subject"] == "[Test game] Spring 1901 movement processed"
    body = text_of(mail)
    assert "No orders from: Austria, England, France" in body
    assert "You receive this as a game master of the game." in body and "Your orders" not in body
    assert "quiet@example.org" not in {m["X-Envelope-To"] for m in smtp.received}
    assert len(smtp.received) == 8  # the seven players and one master


def test_phase_results_link_a_small_picture_of_the_map_that_opens_without_login(
    smtp, game, client, django_capture_on_commit_callbacks
):
    england = seat(game, "ENGLAND").user
    process(game, django_capture_on_commit_callbacks)

    mail = smtp.to(england.email)[-1]
    (picture,) = [url for url in re.findall(r"https?://\S+", text_of(mail)) if "map.png" in url]
    path = urlsplit(picture)
    answer = client.get(path.path, {"width": "800"})
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG")
    assert path.path == f"/api/v1/games/{game.id}/phases/0/map.png" and path.query == "width=800"


def test_one_click_unsubscribe_stops_only_that_kind_and_needs_no_login(
    smtp, game, django_capture_on_commit_callbacks
):
    france = seat(game, "FRANCE").user
    process(game, django_capture_on_commit_callbacks)
    results = smtp.to(france.email)[-1]

    mail_client = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token
    response = mail_client.post(
        unsubscribe_path(results),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert NotificationPreferences.objects.get(user=france).phase_processed is False

    smtp.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        message_send(
            game_id=game.id, user=seat(game, "GERMANY").user, body="Hello France", recipients=["FRANCE"]
        )
    process(game, django_capture_on_commit_callbacks, now=LATE + dt.timedelta(days=3))
    assert [m["Subject"] for m in smtp.to(france.email)] == [
        "[Test game] Press from Germany"
    ]  # press still comes
    assert len([m for m in smtp.received if "processed" in m["Subject"]]) == 6  # the others still get results

    press = smtp.one_to(france.email)
    page = Client().get(links_in(press)[-1])  # the link in the text shows what it stops, with one button
    assert page.status_code == 200 and "press received" in page.content.decode()
    assert NotificationPreferences.objects.get(user=france).press == "each"  # a GET changes nothing
    Client().post(links_in(press)[-1])
    assert NotificationPreferences.objects.get(user=france).press == "off"
    Client().post(links_in(press)[-1], {"again": "1"})
    assert NotificationPreferences.objects.get(user=france).press == "each"
    assert Client().post(links_in(press)[-1][:-3] + "xx/").status_code == 400  # tampered


def test_anonymous_press_mail_never_names_the_sender(smtp, players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players, press="anonymous")
    smtp.received.clear()
    england = seat(game, "ENGLAND").user
    with django_capture_on_commit_callbacks(execute=True):
        message_send(game_id=game.id, user=england, body="Shall we share the Channel?", recipients=["FRANCE"])

    mail = smtp.one_to(seat(game, "FRANCE").user.email)
    assert "Shall we share the Channel?" in text_of(mail)
    raw = mail.as_string()
    assert "ENGLAND" not in raw.upper() and england.username not in raw and england.email not in raw
    assert len(smtp.received) == 1  # private press reaches only its recipient


def test_reminders_follow_each_players_hours_and_only_powers_that_still_have_to_order(
    smtp, game, django_capture_on_commit_callbacks, monkeypatch
):
    def phase_reminders_sweep(now):  # the mails go once the sweep commits, at the sweep's time
        monkeypatch.setattr("django.utils.timezone.now", lambda: now)
        with django_capture_on_commit_callbacks(execute=True):
            return reminders_sweep(now=now)

    deadline = game.current_phase.deadline
    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text=ENGLAND_ALL, now=START)
    NotificationPreferences.objects.create(user=seat(game, "FRANCE").user, reminder_hours=2)
    NotificationPreferences.objects.create(user=seat(game, "ITALY").user, deadline_reminder=False)
    smtp.received.clear()

    # 24 hours before a 24-hour phase's deadline is when it opens: at most half the phase, so 12 hours.
    assert phase_reminders_sweep(now=deadline - dt.timedelta(hours=23)) == 0
    assert phase_reminders_sweep(now=deadline - dt.timedelta(hours=12)) == 1
    assert phase_reminders_sweep(now=deadline - dt.timedelta(hours=11)) == 0
    reminded = {m["X-Envelope-To"] for m in smtp.received}
    assert reminded == {seat(game, n).user.email for n in ("AUSTRIA", "GERMANY", "RUSSIA", "TURKEY")}
    assert "deadline in 12 hours, no orders yet" in smtp.received[0]["Subject"]

    smtp.received.clear()
    assert phase_reminders_sweep(now=deadline - dt.timedelta(minutes=90)) == 1
    mail = smtp.one_to(seat(game, "FRANCE").user.email)
    assert "Your orders as France for Spring 1901 movement are due" in text_of(mail)
    assert len(smtp.received) == 1


def test_a_power_with_some_of_its_units_ordered_is_reminded_how_many(smtp, game):
    deadline = game.current_phase.deadline
    orders_submit(game_id=game.id, user=seat(game, "ENGLAND").user, text="F LON H\nA LVP H", now=START)
    orders_submit(game_id=game.id, user=seat(game, "FRANCE").user, text=FRANCE_ALL, now=START)

    assert reminders_sweep(now=deadline - dt.timedelta(hours=12)) == 1

    mail = deliver_one_to(seat(game, "ENGLAND").user.email, smtp, now=deadline - dt.timedelta(hours=12))
    assert mail["Subject"].endswith("deadline in 12 hours, 2 of 3 units have orders")
    assert "2 of 3 units have orders; a unit without an order holds." in text_of(mail)
    assert not Mail.objects.filter(to=seat(game, "FRANCE").user.email, kind="deadline_reminder").exists()


def test_a_reminders_subject_says_the_time_left_when_it_is_sent_not_when_queued(smtp, game):
    deadline = game.current_phase.deadline
    assert reminders_sweep(now=deadline - dt.timedelta(hours=12)) == 1  # queued 12 hours before

    mail = deliver_one_to(seat(game, "FRANCE").user.email, smtp, now=deadline - dt.timedelta(minutes=200))

    assert mail["Subject"] == "[Test game] Spring 1901 movement: deadline in 3 h 20 min, no orders yet"


def test_a_reminder_delayed_past_its_deadline_is_dropped(smtp, game):
    deadline = game.current_phase.deadline
    assert reminders_sweep(now=deadline - dt.timedelta(hours=12)) == 1
    reminder = Mail.objects.get(
        to=seat(game, "FRANCE").user.email, kind=Mail.Kind.DEADLINE_REMINDER
    )  # its sending held up (a slow server)
    Mail.objects.filter(id=reminder.id).update(next_attempt_at=deadline - dt.timedelta(hours=1))
    smtp.received.clear()

    assert mail_deliver(mail_id=reminder.id, now=deadline + dt.timedelta(seconds=1)) == Delivery.TOO_LATE
    assert mails_due_queue(now=deadline + dt.timedelta(hours=1)) == []  # the sweep does not pick it up
    assert smtp.received == []
    assert Mail.objects.get(id=reminder.id).sent_at is None


def test_the_end_of_a_random_game_reveals_its_secret(smtp, players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players, variant="wall_of_ice", options={"mode": "random"})
    smtp.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
            game_concede(game_id=game.id, user=seat(game, name).user, to="TURKEY")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    mail = smtp.one_to(seat(game, "AUSTRIA").user.email)
    assert mail["Subject"] == "[Test game] The game is over: Concession: Turkey"
    assert game.secret in text_of(mail) and game.commitment in text_of(mail)
    assert len(smtp.received) == 7


def test_an_event_told_twice_and_a_delivery_run_twice_mail_once(
    smtp, game, django_capture_on_commit_callbacks
):
    process(game, django_capture_on_commit_callbacks)
    phase = Phase.objects.get(game=game, index=0)
    smtp.received.clear()

    assert notifications.phase_results_send(phase_id=phase.id) == 0  # a retried task: nothing new
    mail = Mail.objects.filter(kind=Mail.Kind.PHASE_PROCESSED).first()
    assert mail_deliver(mail_id=mail.id) == Delivery.ALREADY_SENT
    assert mail_send.apply(args=[mail.id]).get() == "already sent"  # a redelivered message
    assert smtp.received == []


def test_no_mail_to_an_address_that_is_not_confirmed(smtp, players, django_capture_on_commit_callbacks):
    players[0].email, players[0].email_pending = "", "unconfirmed@example.org"
    players[0].save()
    with django_capture_on_commit_callbacks(execute=True):
        started_game(players)
    assert len(smtp.received) == 6
    assert smtp.to("unconfirmed@example.org") == []


def test_a_mail_server_that_is_down_delays_nothing_and_loses_nothing(
    smtp_settings, players, celery_conf, django_capture_on_commit_callbacks
):
    # Eager tasks then retry in-process at once, as a worker would after each back-off.
    celery_conf(task_eager_propagates=False)
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players)  # no server listens yet
    assert Mail.objects.filter(kind=Mail.Kind.GAME_STARTED, sent_at=None).count() == 7

    process(game, django_capture_on_commit_callbacks)  # the phase is processed all the same

    game.refresh_from_db()
    assert game.current_phase.name == "F1901M"
    waiting = Mail.objects.filter(sent_at=None)
    assert waiting.count() == 14
    results = waiting.filter(kind=Mail.Kind.PHASE_PROCESSED).first()
    assert results.attempts == 1 + mail_send.max_retries  # the task's retries (eager here: at once)
    assert "Connection refused" in results.last_error or "ConnectionRefused" in results.last_error
    assert mails_due_queue(now=results.created_at) == []  # not due before its back-off

    smtp_settings.start()
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=2)
    assert len(mails_due_queue(now=later)) == 14
    assert len(smtp_settings.received) == 14
    assert len({(m["X-Envelope-To"], m["Subject"]) for m in smtp_settings.received}) == 14
    assert not Mail.objects.filter(sent_at=None).exists()
    assert mails_due_queue(now=later + dt.timedelta(hours=2)) == []
    assert len(smtp_settings.received) == 14


def html_and_picture(mail) -> tuple[str, list]:
    """The HTML part of a mail and the images beside it (its ``multipart/related`` parts)."""
    html = mail.get_body(preferencelist=("html",))
    assert html is not None
    images = [p for p in mail.walk() if p.get_content_maintype() == "image"]
    return str(html.get_content()), images


def test_phase_results_show_a_small_map_inline_in_an_html_part_beside_the_same_text(
    smtp, game, django_capture_on_commit_callbacks
):
    england = seat(game, "ENGLAND").user
    orders_submit(game_id=game.id, user=england, text="F LON - NTH", now=START)
    started = smtp.one_to(england.email)
    assert started.get_content_type() == "text/plain"  # only mails with a picture have an HTML part
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    mail = smtp.one_to(england.email)
    assert mail.get_content_type() == "multipart/alternative"
    plain, related = mail.get_payload()
    assert plain.get_content_type() == "text/plain" and "ENGLAND: F LON - NTH — success" in text_of(mail)
    assert related.get_content_type() == "multipart/related"
    html, (image,) = html_and_picture(mail)
    (cid,) = re.findall(r'<img src="cid:([^"]+)" alt="([^"]+)"', html)
    assert cid[1] == "The map of Test game, Spring 1901 movement, with every order and its outcome"
    assert image.get_content_type() == "image/png" and image["Content-ID"] == f"<{cid[0]}>"
    png = image.get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(png[16:20], "big") == 600  # the IHDR width: a small picture
    assert image.get_content_disposition() == "inline"
    # The same content as the text, escaped, its links links, the unsubscribe one too.
    assert "ENGLAND: F LON - NTH — success" in html
    assert "Next: Autumn 1901 movement" in html
    urls = re.findall(r"https?://\S+", text_of(mail))
    assert len(urls) == 3 and all(f'<a href="{url}">' in html for url in urls)
    assert f"<{urls[-1]}>" == str(mail["List-Unsubscribe"]).strip()  # the unsubscribe link, as it was
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The outbox keeps the text and what to draw, never the picture.
    row = Mail.objects.get(kind=Mail.Kind.PHASE_PROCESSED, user=england)
    assert row.picture == f"phase:{Phase.objects.get(game=game, index=0).id}"
    assert len(row.body) < 2000 and "PNG" not in row.body


def test_a_map_that_cannot_be_drawn_sends_the_results_at_once_without_the_picture(
    smtp, game, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise RuntimeError("the drawing broke")

    monkeypatch.setattr("dipserver.games.pictures.render_png", broken)
    england = seat(game, "ENGLAND").user
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    assert len(smtp.received) == 7
    mail = smtp.one_to(england.email)
    assert mail.get_content_type() == "multipart/alternative"
    assert "Next: Autumn 1901 movement" in text_of(mail)
    html, images = html_and_picture(mail)
    assert images == [] and "<img" not in html and "cid:" not in html
    assert "Next: Autumn 1901 movement" in html and str(mail["List-Unsubscribe"]).strip()[1:-1] in html
    row = Mail.objects.get(kind=Mail.Kind.PHASE_PROCESSED, user=england)
    assert row.sent_at is not None and row.attempts == 1 and row.last_error == ""
    assert "could not be drawn" in caplog.text and "the drawing broke" in caplog.text


@pytest.fixture
def drawings(monkeypatch) -> list[int]:
    """Every drawing of a phase's PNG, by width (the real drawing still runs)."""
    from dipserver.games import pictures

    drawn: list[int] = []
    real = pictures.render_png

    def counted(*args, **kwargs):
        drawn.append(kwargs["width"])
        return real(*args, **kwargs)

    monkeypatch.setattr(pictures, "render_png", counted)
    return drawn


def pictured(mails) -> list[bool]:
    return [bool(html_and_picture(mail)[1]) for mail in mails]


def test_a_phases_results_mailed_to_every_player_draw_its_picture_once(
    smtp, game, drawings, django_capture_on_commit_callbacks
):
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    assert len(smtp.received) == 7 and pictured(smtp.received) == [True] * 7
    assert drawings == [600]


def test_a_mail_sent_again_after_failing_does_not_draw_its_picture_again(
    smtp_settings, players, drawings, celery_conf, django_capture_on_commit_callbacks
):
    celery_conf(task_eager_propagates=False)  # eager retries at once, as a worker's after each back-off
    for player in players[1:]:  # one results mail only
        NotificationPreferences.objects.create(user=player, phase_processed=False)
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(players)  # no server listens yet
    process(game, django_capture_on_commit_callbacks)
    results = Mail.objects.get(kind=Mail.Kind.PHASE_PROCESSED)
    assert results.sent_at is None and results.attempts == 1 + mail_send.max_retries

    smtp_settings.start()
    mails_due_queue(now=dt.datetime.now(dt.UTC) + dt.timedelta(hours=2))

    (mail,) = [m for m in smtp_settings.received if "processed" in m["Subject"]]
    assert pictured([mail]) == [True]
    assert drawings == [600]


def test_a_phase_reverted_and_processed_again_draws_its_picture_anew(
    smtp, game, drawings, django_capture_on_commit_callbacks
):
    process(game, django_capture_on_commit_callbacks)
    phase_revert(game_id=game.id, index=0, now=LATE)
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks, now=LATE + dt.timedelta(days=3))

    assert len(smtp.received) == 7 and pictured(smtp.received) == [True] * 7
    assert drawings == [600, 600]


def test_a_drawing_that_fails_is_not_kept_and_the_next_mail_draws_again(
    smtp, game, drawings, django_capture_on_commit_callbacks, monkeypatch
):
    from dipserver.games import pictures

    counted = pictures.render_png

    def broken_once(*args, **kwargs):
        if not drawings:
            drawings.append(0)
            raise RuntimeError("the drawing broke")
        return counted(*args, **kwargs)

    monkeypatch.setattr(pictures, "render_png", broken_once)
    smtp.received.clear()

    process(game, django_capture_on_commit_callbacks)

    assert pictured(smtp.received) == [False] + [True] * 6
    assert drawings == [0, 600]
