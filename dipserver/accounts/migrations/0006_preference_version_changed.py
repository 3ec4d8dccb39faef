# Whether a player is mailed when a game they play moves to a newer version of its studio variant: yes,
# unless they switch it off.

from django.db import migrations, models

from dipserver.core.migration_stash import kept_columns


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_user_is_bot"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationpreferences",
            name="version_changed",
            field=models.BooleanField(
                default=True, verbose_name="a game I play moves to a newer version of its variant"
            ),
        ),
        kept_columns("accounts", "NotificationPreferences", ["version_changed"]),
    ]
