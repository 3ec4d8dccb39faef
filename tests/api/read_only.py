"""The database made read-only for a block, as a failover or maintenance makes it: on PostgreSQL the
database itself is set to ``default_transaction_read_only`` and the connection opened again (a new
session, as a server's workers would open); on SQLite the connection is set to ``query_only``. Either way
a write fails with the database's own read-only error and reads go on working."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection


@contextlib.contextmanager
def database_read_only() -> Iterator[None]:
    if connection.vendor == "postgresql":
        name = connection.settings_dict["NAME"]
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        connection.close()  # the next query opens a new session: read-only
        try:
            yield
        finally:
            connection.close()
            with connection.cursor() as cursor:
                cursor.execute("SET default_transaction_read_only = off")
                cursor.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
            connection.close()
    else:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = ON")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA query_only = OFF")
