# The games a player muted (their ids): nothing muted for everyone until they choose.

from django.db import migrations, models

from dipserver.core.migration_stash import kept_columns


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_calendar_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationpreferences",
            name="muted_games",
            field=models.JSONField(blank=True, default=list, verbose_name="games muted"),
        ),
        # Rolled back and applied again, each player's muted games stay muted.
        kept_columns("accounts", "NotificationPreferences", ["muted_games"]),
    ]
