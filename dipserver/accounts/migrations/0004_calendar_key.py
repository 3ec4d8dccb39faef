# The deadlines feed's key: every account gets its own random one (a callable default is evaluated once
# for all existing rows by AddField, so existing accounts are given theirs one by one).

import secrets

from django.db import migrations, models

import dipserver.accounts.models
from dipserver.core.migration_stash import kept_columns


def give_each_account_a_key(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.only("id").iterator():
        User.objects.filter(id=user.id).update(calendar_key=secrets.token_urlsafe(24))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_api_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="calendar_key",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(give_each_account_a_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="calendar_key",
            field=models.CharField(
                default=dipserver.accounts.models.new_calendar_key,
                editable=False,
                help_text="Part of the deadlines feed's signed address; a new one makes the old address invalid.",
                max_length=64,
            ),
        ),
        # Rolled back and applied again, each account keeps the key it had (its feed's address).
        kept_columns("accounts", "User", ["calendar_key"]),
    ]
