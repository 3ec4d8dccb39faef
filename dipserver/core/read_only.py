"""A database that takes no writes for a while: a PostgreSQL hot standby or failover, a database or
role set to ``default_transaction_read_only``, a SQLite file that cannot be written (or a connection
set to ``PRAGMA query_only``).

Reads go on working then; a write fails with an error this module recognises, so the API can answer a
clear 503 ("read-only, try again"), a background task can try again later, and /healthz can say why.
"""

from __future__ import annotations

import os

from django.db import DatabaseError, connection

READ_ONLY_SQLSTATE = "25006"  # PostgreSQL's read_only_sql_transaction
SQLITE_READONLY = 8  # SQLite's primary result code; its extended codes keep it in the low byte


def is_read_only(exc: BaseException) -> bool:
    """Whether a database error says that the database takes no writes now."""
    cause = exc.__cause__ if isinstance(exc, DatabaseError) and exc.__cause__ is not None else exc
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)  # psycopg 3 or 2
    if sqlstate == READ_ONLY_SQLSTATE:
        return True
    code = getattr(cause, "sqlite_errorcode", None)  # sqlite3
    return isinstance(code, int) and code & 0xFF == SQLITE_READONLY


def database_read_only() -> bool:
    """Whether the default database would refuse a write now (asked without writing anything)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW transaction_read_only")
            row = cursor.fetchone()
        return row is not None and row[0] == "on"
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only")
            row = cursor.fetchone()
        name = str(connection.settings_dict["NAME"])
        return bool(row and row[0]) or (os.path.isfile(name) and not os.access(name, os.W_OK))
    return False
