"""Creating a game, the game page's shell and its configuration, and the variant pages."""

import json
import re

import pytest

from dipserver.games.models import Game
from tests.web.conftest import seat_of

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Desert war",
    "variant": "sahara",
    "press": "full",
    "mode": "exact",
    "movement_minutes": 1440,
    "retreat_minutes": 720,
    "adjustment_minutes": 720,
    "deadline_zone": "Europe/Paris",
}


def page_config(html: str) -> dict:
    found = re.search(r'<script id="game-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the game page carries its configuration"
    return json.loads(found.group(1))


def test_create_page_previews_every_variant_timeline(client, players):
    client.force_login(players[0])
    page = client.get("/games/new/").content.decode()
    assert 'data-variant="sahara"' in page and "EAS becomes land" in page
    assert 'data-variant="standard"' in page and "The map never changes." in page


def test_creating_a_game_makes_me_its_master(client, players):
    client.force_login(players[0])
    answer = client.post("/games/new/", FORM)
    game = Game.objects.get(name="Desert war")
    assert answer["Location"] == f"/games/{game.id}/"
    assert list(game.masters.all()) == [players[0]]
    assert game.phase_minutes == {"M": 1440, "R": 720, "A": 720} and game.deadline_zone == "Europe/Paris"


def test_create_form_explains_a_bad_time_zone(client, players):
    client.force_login(players[0])
    page = client.post("/games/new/", {**FORM, "deadline_zone": "Mars/Olympus"}).content.decode()
    assert "Unknown time zone" in page and not Game.objects.exists()


def test_ice_lords_can_be_created_from_the_form_for_a_chosen_number_of_powers(client, players):
    client.force_login(players[0])
    page = client.get("/games/new/").content.decode()
    assert '<option value="ice_lords">Ice Lords</option>' in page and 'data-variant="ice_lords"' in page
    answer = client.post("/games/new/", {**FORM, "name": "Grid", "variant": "ice_lords", "powers": 3})
    game = Game.objects.get(name="Grid")
    assert answer["Location"] == f"/games/{game.id}/"
    assert game.variant == "ice_lords" and game.board == {"powers": 3}


def test_ice_lords_without_a_number_of_powers_is_dealt_for_six(client, players):
    client.force_login(players[0])
    client.post("/games/new/", {**FORM, "name": "Grid", "variant": "ice_lords"})
    assert Game.objects.get(name="Grid").board == {"powers": 6}


@pytest.mark.parametrize(
    ("variant", "powers", "error"),
    [
        ("sahara", 3, "Only Ice Lords is dealt for a number of powers"),
        ("ice_lords", 9, "Ensure this value is less than or equal to 6."),
        ("ice_lords", 1, "Ensure this value is greater than or equal to 2."),
    ],
)
def test_create_form_explains_a_wrong_number_of_powers(client, players, variant, powers, error):
    client.force_login(players[0])
    page = client.post("/games/new/", {**FORM, "variant": variant, "powers": powers}).content.decode()
    assert error in page and not Game.objects.exists()


def test_create_needs_a_login(client):
    assert client.get("/games/new/")["Location"].startswith("/accounts/login/")


def test_game_page_configures_my_power_and_the_timeline(client, sahara):
    turkey = seat_of(sahara, "TURKEY")
    client.force_login(turkey.user)
    html = client.get(f"/games/{sahara.id}/").content.decode()
    config = page_config(html)
    assert config["power"] == "TURKEY" and config["api"] == f"/api/v1/games/{sahara.id}"
    assert config["timelineUrl"] == f"/api/v1/games/{sahara.id}/timeline" and config["modules"] is False
    timeline = client.get(config["timelineUrl"]).json()["entries"]
    assert {"year": 1902, "hook": "after_fall_retreats", "change": "land", "province": "EAS"}.items() <= next(
        e for e in timeline if e["province"] == "EAS" and e["change"] == "land"
    ).items()
    assert 'id="ready-toggle"' in html and 'id="press-form"' in html and 'id="typed-orders"' in html


def test_spectators_get_the_map_without_order_or_press_panels(client, sahara):
    html = client.get(f"/games/{sahara.id}/").content.decode()
    assert page_config(html)["power"] is None
    assert 'id="map"' in html and 'id="orders-panel"' not in html and 'id="press-form"' not in html


def test_forming_game_page_offers_to_join(client, master, players):
    from dipserver.games.services.games import game_create

    game = game_create(name="Forming", variant="sahara", masters=[master])
    client.force_login(players[0])
    html = client.get(f"/games/{game.id}/").content.decode()
    assert "Join this game" in html and "0 of 7 seats are taken" in html


def test_unknown_game_is_404(client, db):
    assert client.get("/games/999/").status_code == 404


def test_pages_load_no_external_assets(client, sahara):
    html = client.get(f"/games/{sahara.id}/").content.decode()
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_variant_page_has_plain_rules_and_seasons(client, db):
    html = client.get("/variants/sahara/").content.decode()
    assert "<strong>Seas dry into land.</strong>" in html
    assert "1902 after the Autumn retreats" in html and "EAS becomes land" in html


def test_variant_season_map_shows_the_changed_terrain(client, db):
    start = client.get("/variants/sahara/seasons/0.svg").content.decode()
    after = client.get("/variants/sahara/seasons/1.svg")
    assert after["Content-Type"] == "image/svg+xml"
    assert 'id="EAS" class="province sea' in start
    assert 'id="EAS" class="province sea' not in after.content.decode()


def test_unknown_variant_and_season_are_404(client, db):
    assert client.get("/variants/atlantis/").status_code == 404
    assert client.get("/variants/sahara/seasons/999.svg").status_code == 404


def test_only_game_masters_get_the_process_button_and_its_confirmation(client, sahara, master):
    client.force_login(seat_of(sahara, "ITALY").user)
    player = client.get(f"/games/{sahara.id}/").content.decode()
    assert 'id="process-now"' not in player and 'id="process-confirm"' not in player
    client.force_login(master)
    page = client.get(f"/games/{sahara.id}/").content.decode()
    assert 'id="process-now"' in page
    assert '<dialog id="process-confirm"' in page  # it asks first, naming who has not ordered


def test_a_finished_games_master_is_offered_nothing_to_process(client, sahara, master):
    Game.objects.filter(id=sahara.id).update(status=Game.Status.FINISHED, result=Game.Result.DRAW)
    client.force_login(master)

    page = client.get(f"/games/{sahara.id}/").content.decode()

    assert '<button type="button" id="process-now" hidden' in page


def test_an_ice_lords_game_page_names_and_colours_its_generated_powers(client, players):
    from dipserver.games.services.games import game_create, game_join

    game = game_create(name="Grid", variant="ice_lords", powers=3)
    for user in players[:3]:
        game_join(game_id=game.id, user=user)
    html = client.get(f"/games/{game.id}/").content.decode()
    config = page_config(html)
    seated = set(game.powers.values_list("name", flat=True))
    assert {p["name"] for p in config["powers"]} >= seated
    assert all(re.fullmatch(r"#[0-9a-fA-F]{6}", p["colour"]) for p in config["powers"])
    assert "Ice Lords" in html and config["blizzards"] is True and config["modules"] is True


def test_a_forming_ice_lords_game_page_points_at_no_missing_rules_page_or_map(client, players):
    from dipserver.games.services.games import game_create

    game = game_create(name="Grid", variant="ice_lords", powers=3)
    client.force_login(players[0])
    html = client.get(f"/games/{game.id}/").content.decode()
    assert "/variants/ice_lords/" not in html and "Ice Lords" in html
    assert page_config(html)["startMap"] is None


def test_a_forming_game_of_a_variant_folder_shows_its_start_map(client, master, players):
    from dipserver.games.services.games import game_create

    game = game_create(name="Dunes", variant="sahara", masters=[master])
    html = client.get(f"/games/{game.id}/").content.decode()
    assert page_config(html)["startMap"] == "/variants/sahara/seasons/0.svg"
    assert 'href="/variants/sahara/"' in html


def test_the_ice_lords_variant_page_shows_its_rules_and_a_sample_board(client):
    page = client.get("/variants/ice_lords/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ice Lords" in html and "dealt afresh for each game, for 2 to 6 powers" in html
    assert "The rules in plain words" in html and "village" in html.lower()
    svg = client.get("/variants/ice_lords/seasons/0.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml" and b"<svg" in svg.content


# --- the variant's options on the create form (issue 15) ------------------------------------------------

OPTION_ROW = re.compile(
    r'<div class="variant-option" data-option="(\w+)" data-variants="([\w ]+)" data-defaults="([^"]*)">'
    r"(.*?)</div>",
    re.S,
)
EVERY = {"deluge", "ice_lords", "sahara", "standard", "wall_of_ice"}


def option_rows(client) -> dict[str, tuple[set[str], dict, str]]:
    page = client.get("/games/new/").content.decode()
    return {
        name: (set(variants.split()), json.loads(defaults.replace("&quot;", '"')), body)
        for name, variants, defaults, body in OPTION_ROW.findall(page)
    }


def test_the_create_form_offers_each_option_for_the_variants_it_matters_to(client, players):
    client.force_login(players[0])
    rows = option_rows(client)
    assert {name: variants for name, (variants, _, _) in rows.items()} == {
        "powers": {"ice_lords"},
        "seed": {"ice_lords"},
        "mode": {"wall_of_ice"},
        "house_limit_1915": {"wall_of_ice"},  # a house rule a game may take (issue 31)
        "errata": {"sahara"},
        "swap_sil_swi": {"deluge"},
        "standard_convoys": {"deluge"},  # Deluge plays the Abstraction A/F rules; this is the way back
        "drowning_armies": {"deluge"},
        "blizzards": EVERY,
        "supply_lines": EVERY,
        "abstraction": EVERY - {"deluge"},  # the A/F rules as a module, for the variants without them
        "davis_af_limit": EVERY,  # Davis's reading of the A/F rules (issue 31), Deluge's too
    }
    assert rows["blizzards"][1] == {slug: slug == "ice_lords" for slug in sorted(EVERY)}
    assert rows["errata"][1] == {"sahara": True}
    assert rows["standard_convoys"][1] == {"deluge": False}


def test_each_option_on_the_create_form_has_a_one_line_explanation(client, players):
    client.force_login(players[0])
    for name, (_, _, body) in option_rows(client).items():
        [explanation] = re.findall(r'<p class="muted small">([^<]+)</p>', body)
        assert explanation.strip() and "\n" not in explanation, name


def test_the_create_form_offers_random_mode_only_to_a_variant_with_chances(client, players):
    client.force_login(players[0])
    assert option_rows(client)["mode"][0] == {"wall_of_ice"}


def test_options_chosen_on_the_create_form_reach_the_game(client, players):
    client.force_login(players[0])
    shown = ["swap_sil_swi", "drowning_armies", "blizzards", "supply_lines"]
    form = {**FORM, "name": "Flood", "variant": "deluge", "shown": shown}
    client.post("/games/new/", {**form, "swap_sil_swi": "on", "drowning_armies": "on", "supply_lines": "on"})
    options = Game.objects.get(name="Flood").options
    assert options["swap_sil_swi"] is True and options["drowning_armies"] is True
    assert "blizzards" not in options and options["supply_lines"]["capture"] is True


def test_an_unticked_option_the_form_showed_is_off(client, players):
    client.force_login(players[0])
    client.post("/games/new/", {**FORM, "name": "Dry", "shown": ["errata", "blizzards", "supply_lines"]})
    assert Game.objects.get(name="Dry").options["errata"] is False


def test_the_create_form_sends_random_mode_and_ice_lords_choices(client, players):
    client.force_login(players[0])
    client.post("/games/new/", {**FORM, "name": "Ice", "variant": "wall_of_ice", "mode": "random"})
    assert Game.objects.get(name="Ice").options["mode"] == "random"
    grid = {**FORM, "name": "Grid", "variant": "ice_lords", "powers": 2, "seed": "frost"}
    client.post("/games/new/", {**grid, "shown": ["powers", "seed", "blizzards", "supply_lines"]})
    game = Game.objects.get(name="Grid")
    assert game.board == {"powers": 2, "seed": "frost"} and "blizzards" not in game.options


def test_an_option_of_another_variant_has_no_effect_on_the_game(client, players):
    client.force_login(players[0])
    client.post("/games/new/", {**FORM, "name": "Sands", "mode": "random", "swap_sil_swi": "on"})
    options = Game.objects.get(name="Sands").options
    assert options["mode"] == "exact" and "swap_sil_swi" not in options


def test_a_seed_for_a_variant_that_is_not_dealt_is_refused(client, players):
    client.force_login(players[0])
    page = client.post("/games/new/", {**FORM, "seed": "frost"}).content.decode()
    assert "Only Ice Lords is dealt from a seed" in page and not Game.objects.exists()


def test_a_player_mutes_the_game_from_its_page_and_unmutes_it_again(client, sahara):
    turkey = seat_of(sahara, "TURKEY").user
    client.force_login(turkey)
    page = f"/games/{sahara.id}/"
    assert "Mute this game" in client.get(page).content.decode()
    answer = client.post(f"/games/{sahara.id}/mute/", {"muted": "1"}, follow=True)
    html = answer.content.decode()
    assert answer.redirect_chain[-1][0] == page
    assert "This game is muted" in html and "Unmute this game" in html
    client.post(f"/games/{sahara.id}/mute/", {"muted": "0"})
    assert "Mute this game" in client.get(page).content.decode()


def test_spectators_are_not_offered_to_mute_a_game(client, sahara):
    assert 'id="mute-toggle"' not in client.get(f"/games/{sahara.id}/").content.decode()
