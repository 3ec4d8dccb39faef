"""What a migration's rollback would drop, kept until the migration is applied again.

A migration that adds a table or a column cannot keep that data in the shape before it, so its reverse
puts the data here first (``stash_put``) and its forward takes it back (``stash_take``). The table is
outside every model: the code of the older version never sees it, and no foreign key holds a row of
another table. It exists only while something is stashed.

A migration that adds columns ends with ``kept_columns(...)``, one that adds a model with
``kept_table(...)``; ``stash_put``/``stash_take`` and the ``rows_*`` helpers are for a ``RunPython`` that
converts data as well (games 0004).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.apps.registry import Apps
from django.core.management.color import no_style
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

TABLE = "dipserver_migration_stash"


def stash_put(schema_editor: BaseDatabaseSchemaEditor, key: str, data: Any) -> None:
    """Keep ``data`` (JSON, with times as ISO 8601) under ``key``, replacing what was there."""
    quoted = schema_editor.quote_name(TABLE)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {quoted} (key varchar(200) PRIMARY KEY, data text NOT NULL)"
        )
        cursor.execute(f"DELETE FROM {quoted} WHERE key = %s", [key])
        cursor.execute(
            f"INSERT INTO {quoted} (key, data) VALUES (%s, %s)", [key, json.dumps(data, default=_encoded)]
        )


def _encoded(value: object) -> str:
    if isinstance(value, dt.date | dt.time):  # in full: DjangoJSONEncoder would cut microseconds
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} cannot be stashed")


def stash_take(schema_editor: BaseDatabaseSchemaEditor, key: str) -> Any:
    """What was kept under ``key`` (None: nothing), removed from the stash; the table goes with the last."""
    connection = schema_editor.connection
    quoted = schema_editor.quote_name(TABLE)
    with connection.cursor() as cursor:
        if TABLE not in connection.introspection.table_names(cursor):
            return None
        cursor.execute(f"SELECT data FROM {quoted} WHERE key = %s", [key])
        found = cursor.fetchone()
        cursor.execute(f"DELETE FROM {quoted} WHERE key = %s", [key])
        cursor.execute(f"SELECT count(*) FROM {quoted}")
        if cursor.fetchone()[0] == 0:
            cursor.execute(f"DROP TABLE {quoted}")
    return json.loads(found[0]) if found else None


def rows_dump(model: type[models.Model], fields: list[str] | None = None) -> list[dict[str, Any]]:
    """Every row of ``model``: its primary key and ``fields`` (default: every concrete field), by attname."""
    names = fields or [f.attname for f in model._meta.concrete_fields]
    pk = model._meta.pk.attname
    return list(model._default_manager.order_by(pk).values(*dict.fromkeys([pk, *names])))


def _parsed(model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    return {name: by_attname[name].to_python(value) for name, value in row.items()}


def rows_create(
    schema_editor: BaseDatabaseSchemaEditor,
    model: type[models.Model],
    rows: list[dict[str, Any]],
    present: dict[str, type[models.Model]],
) -> None:
    """Create the dumped rows again, with their keys and times as they were; a row whose foreign key
    ``present`` (attname -> model) no longer finds its row is left out (it went while rolled back); a
    null one points at nothing and stays."""
    wanted = [_parsed(model, r) for r in rows]
    for attname, target in present.items():
        pks = [r[attname] for r in wanted if r[attname] is not None]
        there = set(target._default_manager.filter(pk__in=pks).values_list("pk", flat=True))
        wanted = [r for r in wanted if r[attname] is None or r[attname] in there]
    pk = model._meta.pk.attname
    taken = set(model._default_manager.filter(pk__in=[r[pk] for r in wanted]).values_list("pk", flat=True))
    wanted = [r for r in wanted if r[pk] not in taken]
    model._default_manager.bulk_create([model(**r) for r in wanted])
    rows_update(model, wanted)  # auto_now(_add) stamped the time of creation
    # The ids were given, so a new table's id sequence must be moved past them.
    with schema_editor.connection.cursor() as cursor:
        for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), [model]):
            cursor.execute(sql)


def rows_update(model: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """Put dumped values back into the rows that are still there (matched by primary key)."""
    pk = model._meta.pk.attname
    for row in rows:
        values = _parsed(model, row)
        model._default_manager.filter(pk=values.pop(pk)).update(**values)


def kept_columns(app_label: str, model_name: str, fields: list[str]) -> migrations.RunPython:
    """The last operation of a migration that adds ``fields`` (attnames) to a model: rolled back, the
    values other than the default wait in the stash; applied again, the rows still there get them back."""
    key = f"{app_label}.{model_name}:{','.join(fields)}"

    def kept(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        model = apps.get_model(app_label, model_name)
        defaults = {f.attname: f.get_default() for f in model._meta.concrete_fields if f.attname in fields}
        rows = [r for r in rows_dump(model, fields) if any(r[n] != defaults[n] for n in fields)]
        stash_put(schema_editor, key, rows)

    def back(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        rows = stash_take(schema_editor, key)
        if rows is not None:
            rows_update(apps.get_model(app_label, model_name), rows)

    return migrations.RunPython(back, kept)


def kept_table(
    app_label: str, model_name: str, present: dict[str, str] | None = None
) -> migrations.RunPython:
    """The last operation of a migration that creates a model: rolled back, its rows wait in the stash;
    applied again, they are created again with their ids, but for those whose foreign key ``present``
    (attname -> "app.Model") finds no row any more."""
    key = f"{app_label}.{model_name}"

    def kept(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        stash_put(schema_editor, key, rows_dump(apps.get_model(app_label, model_name)))

    def back(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        rows = stash_take(schema_editor, key)
        if rows is not None:
            targets = {name: apps.get_model(label) for name, label in (present or {}).items()}
            rows_create(schema_editor, apps.get_model(app_label, model_name), rows, present=targets)

    return migrations.RunPython(back, kept)
