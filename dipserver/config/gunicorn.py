"""gunicorn's settings, for production (the Dockerfile, docker-compose.yml) and for the benchmarks that
measure it (``scripts/bench_api.py``, ``scripts/load_api.py``), so that both run the same server:

    gunicorn -c dipserver/config/gunicorn.py dipserver.config.wsgi:application

Named as a file, not a module: importing ``dipserver.config`` would load the Celery app in gunicorn's
master. Options on the command line (``--bind``, ``--workers``) override these.
"""

from __future__ import annotations

import os

bind = ["0.0.0.0:8000"]
# Sync workers: three by default for two cores, as a worker waits on the database for part of each
# request; WEB_CONCURRENCY (gunicorn's own variable) sets another count.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
# Each worker touches its heartbeat file twice for every connection it waits for. In a container /tmp is
# an overlay on disk; /dev/shm is memory, as gunicorn's documentation advises for Docker.
# The sync worker, answering what gunicorn refuses itself (a request line over limit_request_line, 4094
# bytes; headers too large or malformed) with the API's JSON error body instead of an HTML page.
worker_class = "dipserver.core.http_worker.JsonErrorWorker"
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# No access log: gunicorn builds each line from every request header and environ entry, a tenth of an
# order PUT's CPU (docs/benchmarks.md), and the proxy in front of a public site logs the same requests.
# For one on standard output: GUNICORN_CMD_ARGS="--access-logfile -".
accesslog = None
