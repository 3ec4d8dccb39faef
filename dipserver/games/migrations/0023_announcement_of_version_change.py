# An untold event may be a game's move to a newer studio version (its VersionChange), told on every channel.

import django.db.models.deletion
from django.db import migrations, models

from dipserver.core.migration_stash import kept_columns


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0022_game_version_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="announcement",
            name="change",
            field=models.ForeignKey(
                blank=True,
                help_text="A newer studio version given to the game.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="games.versionchange",
            ),
        ),
        # Rolled back and applied again, an untold version change is still told.
        kept_columns("games", "Announcement", ["change_id"]),
    ]
