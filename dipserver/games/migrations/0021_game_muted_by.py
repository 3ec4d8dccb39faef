# Who muted a game's news (user ids): nobody, until they choose.

from django.db import migrations, models

from dipserver.core.migration_stash import kept_columns


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0020_phase_requeue_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="muted_by",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Ids of the players and game masters who muted its news: no mail, nothing in their "
                "inbox.",
            ),
        ),
        # Rolled back and applied again, the game stays muted for those who muted it.
        kept_columns("games", "Game", ["muted_by"]),
    ]
