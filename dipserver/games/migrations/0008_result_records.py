"""Results as records (``dipserver.engine.records``) for the phases processed before them.

Forward, each result row of a processed phase keeps its fields (power, order, outcome, reason,
dislodged) and gains kind, unit, from, to and via, read once from its order text on the phase's board
(``dipserver.games.results_upgrade``). A game whose variant cannot be loaded keeps its rows as they were;
the pictures then draw nothing for them, and the API serves them without the new fields.

Rolled back, the rows go back to the old fields and the records wait in the stash
(``dipserver.core.migration_stash``): applied again, a phase whose rows are still as they were gets its
records back exactly (those the engine made, not read from text, included); the others are read again.
"""

from django.db import migrations

from dipserver.core.migration_stash import stash_put, stash_take

STASH = "games.0008_result_records"


def _forward(apps, schema_editor):
    from dipserver.games.results_upgrade import records_filled, records_stripped

    Phase = apps.get_model("games", "Phase")
    kept = {int(k): v for k, v in (stash_take(schema_editor, STASH) or {}).items()}
    variants = {}
    for phase in Phase.objects.select_related("game").exclude(results=[]).order_by("id").iterator():
        before = phase.results
        if phase.id in kept and records_stripped(kept[phase.id]) == before:
            after = kept[phase.id]
        else:
            variant = _variant(phase.game, variants)
            if variant is None:
                continue
            try:
                after = records_filled(before, variant, phase.snapshot)
            except (KeyError, TypeError, ValueError):
                continue  # a snapshot this code cannot read: its rows stay as stored
        if after != before:
            Phase.objects.filter(id=phase.id).update(results=after)


def _variant(game, variants):
    """The game's pinned variant (None when it cannot be rebuilt), once per game."""
    from dipserver.games.errors import GameError
    from dipserver.games.variants import game_variant

    if game.id not in variants:
        try:
            variants[game.id] = game_variant(game)
        except GameError:
            variants[game.id] = None
    return variants[game.id]


def _backward(apps, schema_editor):
    from dipserver.games.results_upgrade import records_stripped

    Phase = apps.get_model("games", "Phase")
    kept = {}
    for phase in Phase.objects.exclude(results=[]).order_by("id").iterator():
        stripped = records_stripped(phase.results)
        if stripped != phase.results:
            kept[phase.id] = phase.results
            Phase.objects.filter(id=phase.id).update(results=stripped)
    stash_put(schema_editor, STASH, kept)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_power_away_until"),
    ]

    operations = [
        migrations.RunPython(_forward, _backward),
    ]
