# When the sweep queues an open phase again: the phases queued before this migration were published (the
# old rule), so each is queued again five minutes after it was queued, as before.

import datetime as dt

from django.db import migrations, models
from django.db.models import F

from dipserver.core.migration_stash import kept_columns


def requeue_as_before(apps, schema_editor):
    Phase = apps.get_model("games", "Phase")
    queued = Phase.objects.filter(status="open", queued_at__isnull=False)
    queued.update(requeue_at=F("queued_at") + dt.timedelta(minutes=5))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0019_supply_lines_keep_their_rules"),
    ]

    operations = [
        migrations.AddField(
            model_name="phase",
            name="requeue_at",
            field=models.DateTimeField(
                blank=True,
                help_text="Queued and still open: when the sweep queues it again (seconds after queuing until "
                "the broker has the task, minutes after).",
                null=True,
            ),
        ),
        migrations.RunPython(requeue_as_before, migrations.RunPython.noop),
        kept_columns("games", "Phase", ["requeue_at"]),
    ]
