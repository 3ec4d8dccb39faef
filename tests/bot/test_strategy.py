"""The bot's rules, one a test: each on a position set up for it, with the payloads the API would give."""

from __future__ import annotations

import random

from dipserver.bot import choose_orders
from dipserver.engine import load_variant
from tests.bot.positions import orders, position

FRANCE_HOME = {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE"}


def test_it_takes_an_undefended_centre():
    start = position("F1901M", ["FRANCE A BUR", "GERMANY A BER"], {**FRANCE_HOME, "BER": "GERMANY"})
    chosen, _ = orders("standard", start, "FRANCE")
    assert chosen == ["A BUR - BEL"]


def test_it_stays_on_a_centre_it_is_taking():
    start = position("F1901M", ["FRANCE A BEL", "GERMANY A BER"], {**FRANCE_HOME, "BER": "GERMANY"})
    chosen, _ = orders("standard", start, "FRANCE")
    assert chosen == ["A BEL H"]


def test_it_defends_a_threatened_home_centre():
    # Marseilles is empty and the Italian army in Piedmont can walk in: the army in Gascony goes back.
    owners = {**FRANCE_HOME, "SPA": "FRANCE", "POR": "FRANCE", "ROM": "ITALY"}
    start = position("F1901M", ["FRANCE A GAS", "ITALY A PIE"], owners)
    chosen, _ = orders("standard", start, "FRANCE")
    assert chosen == ["A GAS - MAR"]


def test_it_supports_a_contested_move():
    # Belgium is neutral and Germany's army in Holland may go there too: one French army moves in, the
    # other supports it rather than bouncing beside it.
    owners = {**FRANCE_HOME, "HOL": "GERMANY", "MUN": "GERMANY"}
    start = position("F1901M", ["FRANCE A BUR", "FRANCE A PIC", "GERMANY A HOL", "GERMANY A MUN"], owners)
    chosen, _ = orders("standard", start, "FRANCE")
    moves = [o for o in chosen if " - BEL" in o and " S " not in o]
    supports = [o for o in chosen if " S " in o and o.endswith("- BEL")]
    assert len(moves) == 1 and len(supports) == 1, chosen


def _all_french_but_germany():
    centres = load_variant("standard").map_state.supply_centres
    return dict.fromkeys(centres, "FRANCE") | dict.fromkeys(["MUN", "KIE", "BER"], "GERMANY")


def test_it_attacks_an_enemy_unit_with_support():
    units = ["FRANCE A BUR", "FRANCE A TYR", "GERMANY A MUN"]
    chosen, _ = orders("standard", position("F1902M", units, _all_french_but_germany()), "FRANCE")
    assert sorted(chosen) == ["A BUR S A TYR - MUN", "A TYR - MUN"]


def test_it_does_not_attack_an_enemy_unit_alone():
    units = ["FRANCE A BUR", "GERMANY A MUN"]
    chosen, _ = orders("standard", position("F1902M", units, _all_french_but_germany()), "FRANCE")
    assert chosen == ["A BUR H"]


def test_its_units_never_bounce_on_each_other():
    owners = {**FRANCE_HOME, "HOL": "GERMANY"}
    units = ["FRANCE A BUR", "FRANCE A PIC", "FRANCE A PAR", "FRANCE F BRE", "GERMANY A HOL"]
    chosen, _ = orders("standard", position("F1901M", units, owners), "FRANCE")
    ends = [o.split(" - ")[1] if " - " in o and " S " not in o else o.split()[1] for o in chosen]
    assert len(ends) == len(set(ends)), chosen


def test_it_carries_an_army_across_a_sea_to_a_free_centre():
    # Norway is neutral and empty; the army in Yorkshire has no centre to walk to, the fleet beside both
    # carries it (and the fleet in Heligoland takes Kiel).
    owners = dict.fromkeys(["LON", "EDI", "LVP", "DEN", "HOL"], "ENGLAND")
    start = position("F1902M", ["ENGLAND A YOR", "ENGLAND F NTH", "ENGLAND F HEL"], owners)
    chosen, _ = orders("standard", start, "ENGLAND")
    assert {"F NTH C A YOR - NWY", "A YOR - NWY VIA"} <= set(chosen), chosen


def test_it_takes_its_fleet_off_a_sea_that_freezes_this_season():
    # Wall of Ice, exact mode: the North Sea freezes after the Autumn 1904 retreats. Blind to the timeline,
    # the fleet would stay to support the army in Belgium against the Germans; reading it, the fleet sails.
    owners = dict.fromkeys(["LON", "EDI", "LVP", "NWY", "DEN", "BEL", "HOL"], "ENGLAND")
    units = ["ENGLAND F NTH", "ENGLAND A BEL", "GERMANY A PIC", "GERMANY A BUR"]
    start = position("F1904M", units, owners)
    chosen, _ = orders("wall_of_ice", start, "ENGLAND")
    blind, _ = orders("wall_of_ice", start, "ENGLAND", timeline=False)
    assert "F NTH S A BEL" in blind
    fleet = next(o for o in chosen if o.startswith("F NTH"))
    assert fleet.startswith("F NTH - ") and not fleet.endswith(("SKA", "NAO", "NWG", "BAR")), chosen


def test_it_moves_toward_a_centre_about_to_appear():
    # Wall of Ice: Gascony becomes a centre after the Autumn 1904 retreats, owned by whoever stands on it.
    owners = {**FRANCE_HOME, "SPA": "FRANCE", "POR": "FRANCE", "BEL": "FRANCE"}
    start = position("F1904M", ["FRANCE A PAR"], owners)
    chosen, _ = orders("wall_of_ice", start, "FRANCE")
    blind, _ = orders("wall_of_ice", start, "FRANCE", timeline=False)
    assert chosen == ["A PAR - GAS"] and blind != chosen


def test_it_converts_a_fleet_before_it_strands():
    # Wall of Ice: the Gulf of Bothnia, the only water of Finland, freezes after the Autumn 1904 retreats.
    # The Winter before, the fleet there becomes an army (convert_to_army, E14), which a bot blind to the
    # timeline does not do.
    owners = {"STP": "RUSSIA", "MOS": "RUSSIA", "WAR": "RUSSIA", "SEV": "RUSSIA", "FIN": "RUSSIA"}
    start = position("W1903A", ["RUSSIA F FIN", "RUSSIA A MOS", "RUSSIA A WAR", "RUSSIA A SEV"], owners)
    chosen, options = orders("wall_of_ice", start, "RUSSIA")
    blind, _ = orders("wall_of_ice", start, "RUSSIA", timeline=False)
    offered = [o["text"] for o in options["conversions"] if o["unit"] == "FIN"]
    assert offered == ["F FIN becomes army"] and offered[0] in chosen and offered[0] not in blind


def test_it_builds_armies_where_the_seas_are_freezing():
    # Wall of Ice: the Norwegian Sea froze after Autumn 1903 and the North Sea freezes after Autumn 1904:
    # a fleet built in Edinburgh would soon have no water.
    owners = {"LON": "ENGLAND", "EDI": "ENGLAND", "LVP": "ENGLAND", "NWY": "ENGLAND"}
    start = position("W1903A", ["ENGLAND A NWY"], owners)
    chosen, options = orders("wall_of_ice", start, "ENGLAND")
    assert len(chosen) == options["adjustment"] == 3
    blind, _ = orders("wall_of_ice", start, "ENGLAND", timeline=False)
    assert "F EDI B" not in chosen and "A EDI B" in chosen and "F EDI B" in blind, chosen


def test_it_disbands_the_unit_the_timeline_is_about_to_strand():
    # Wall of Ice: the North Sea freezes after the Autumn 1904 retreats. Blind to that, the fleet there is
    # the more useful unit; reading the timeline, it is the one to go.
    start = position("W1903A", ["ENGLAND F NTH", "ENGLAND A CLY"], {"LON": "ENGLAND"})
    chosen, _ = orders("wall_of_ice", start, "ENGLAND")
    blind, _ = orders("wall_of_ice", start, "ENGLAND", timeline=False)
    assert chosen == ["F NTH D"] and blind == ["A CLY D"]


def test_it_retreats_away_from_a_sea_about_to_freeze():
    # Autumn 1903: the Barents Sea freezes after these retreats; Clyde stays.
    start = position(
        "F1903R", ["GERMANY F NWG"], {"LON": "ENGLAND"}, dislodged=(("ENGLAND F NAO NWG", "BAR CLY"),)
    )
    chosen, _ = orders("wall_of_ice", start, "ENGLAND")
    blind, _ = orders("wall_of_ice", start, "ENGLAND", timeline=False)
    assert chosen == ["F NAO R CLY"] and blind == ["F NAO R BAR"]


def test_it_gives_only_the_orders_its_options_offer():
    owners = {**FRANCE_HOME, "HOL": "GERMANY", "BER": "GERMANY"}
    units = ["FRANCE A BUR", "FRANCE A PIC", "FRANCE F BRE", "GERMANY A HOL", "GERMANY A MUN"]
    chosen, options = orders("standard", position("S1902M", units, owners), "FRANCE")
    offered = {o["text"] for opts in options["units"].values() for o in opts}
    assert set(chosen) <= offered and len(chosen) == len(options["units"])


def test_the_same_seed_gives_the_same_orders():
    owners = {**FRANCE_HOME, "HOL": "GERMANY", "BER": "GERMANY"}
    units = ["FRANCE A BUR", "FRANCE A PIC", "FRANCE F BRE", "GERMANY A HOL", "GERMANY A MUN"]
    start = position("S1902M", units, owners)
    assert orders("standard", start, "FRANCE", seed=3) == orders("standard", start, "FRANCE", seed=3)


def test_without_the_board_it_still_picks_random_legal_orders():
    options = {"adjustment": 0, "units": {"PAR": [{"text": "A PAR H", "kind": "hold"}]}, "builds": []}
    assert choose_orders(options, random.Random(1)) == ["A PAR H"]
