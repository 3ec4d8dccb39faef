"""Games that play supply lines keep the rules they were created with (issue 31).

The supply-lines module now defaults to the seed's numbers: a depot costs the unit that founds it, and
units out of supply are removed at the supply phase itself. A game created before stored every option of
its day but these two; forward, each such game is given the settings it played by (``depot_cost`` "free",
``removal`` "winter"), so nothing changes under it. Rolled back, the options the older code does not know
are taken out again (it refuses unknown ones); the games go back to the rules that code plays.
"""

from django.db import migrations

NEW_KEYS = ("prussia", "prussian_range", "removal", "depot_cost")
BEFORE = {"removal": "winter", "depot_cost": "free"}


def _forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.order_by("id").iterator():
        supply = (game.options or {}).get("supply_lines")
        if isinstance(supply, dict) and not any(k in supply for k in NEW_KEYS):
            options = {**game.options, "supply_lines": {**supply, **BEFORE}}
            Game.objects.filter(id=game.id).update(options=options)


def _backward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.order_by("id").iterator():
        supply = (game.options or {}).get("supply_lines")
        if isinstance(supply, dict) and any(k in supply for k in NEW_KEYS):
            kept = {k: v for k, v in supply.items() if k not in NEW_KEYS}
            Game.objects.filter(id=game.id).update(options={**game.options, "supply_lines": kept})


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_game_pins_studio_version"),
    ]

    operations = [
        migrations.RunPython(_forward, _backward),
    ]
