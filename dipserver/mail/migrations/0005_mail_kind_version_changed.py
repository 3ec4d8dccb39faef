# A kind of game mail more: a game moved to a newer version of its studio variant (the choices only).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mail', '0004_mail_deadline'),
    ]

    operations = [
        migrations.AlterField(
            model_name='mail',
            name='kind',
            field=models.CharField(choices=[('phase_processed', 'Phase results'), ('deadline_reminder', 'Deadline reminder'), ('press', 'Press received'), ('game_started', 'Game started'), ('game_ended', 'Game ended'), ('version_changed', 'Variant version changed'), ('account', 'Account (confirmation, password reset)')], max_length=20),
        ),
    ]
