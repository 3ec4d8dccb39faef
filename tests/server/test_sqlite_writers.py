"""SQLite, the embedded default, takes one writer at a time: with the settings the server uses, a
transaction that reads and then writes while another one writes waits for it instead of failing with
"database is locked" (which answered 500 to a third of order writes under three gunicorn workers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A Django process of its own, two writers waiting on each other: run by .ci/run's second stage.
pytestmark = pytest.mark.slow

# Two threads, each a Django connection of its own, as two gunicorn workers are: the first reads, lets
# the second read too, and writes; both then write in the same transaction they read in.
WRITERS = """
import threading, time, django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE seen (n INTEGER)")
first_read, failures = threading.Event(), []

def writer(n):
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            if n == 1:
                first_read.wait(5)
            cursor.execute("SELECT count(*) FROM seen")
            if n == 0:
                first_read.set()
                time.sleep(0.3)
            cursor.execute("INSERT INTO seen VALUES (%s)", [n])
    except Exception as exc:
        failures.append(repr(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=writer, args=(n,)) for n in (0, 1)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM seen")
    print(failures, cursor.fetchone()[0])
"""


def test_two_transactions_that_read_then_write_on_sqlite_both_succeed(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dipserver.config.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'writers.sqlite3'}",
        "DIPSERVER_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", WRITERS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[-2] == "[] 2"
