# Several named API tokens per user, stored as hashes; the old authtoken keys move here, hashed.

import hashlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from dipserver.core.migration_stash import kept_table


def authtoken_keys_hashed(apps, schema_editor):
    """Every old single token keeps working as a token named "sign-in"; its plain key is removed."""
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("accounts", "ApiToken")
    for old in Token.objects.order_by("created"):
        ApiToken.objects.create(
            user_id=old.user_id,
            name="sign-in",
            key_hash=hashlib.sha256(old.key.encode()).hexdigest(),
            created_at=old.created,
        )
    Token.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_email_pending_time_zone_preferences'),
        ('authtoken', '0004_alter_tokenproxy_options'),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('key_hash', models.CharField(help_text='SHA-256 of the secret, in hex.', max_length=64, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_used_at', models.DateTimeField(blank=True, help_text='To the minute, not every request.', null=True)),
                ('expires_at', models.DateTimeField(blank=True, null=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['created_at', 'id'],
            },
        ),
        # Before the copy: rows kept through a rollback come back with their ids, the copy's take new ones.
        kept_table("accounts", "ApiToken", present={"user_id": "accounts.User"}),
        migrations.RunPython(authtoken_keys_hashed, migrations.RunPython.noop),
    ]
