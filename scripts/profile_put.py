"""CPU of one order PUT in this process: Django's WSGI handler called directly (no network, no gunicorn),
against the database ``DATABASE_URL`` names (PostgreSQL for figures that matter; it must be empty or hold
only an earlier run's rows: the script migrates it and adds games).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/putcpu .venv/bin/python scripts/profile_put.py
    ... scripts/profile_put.py --profile 30        # also cProfile's top functions by cumulative time
    ... scripts/profile_put.py --gunicorn settings # each PUT through gunicorn's sync worker, as deployed

Prints process CPU time per PUT (``time.process_time``: load disturbs it far less than wall time) over
``--requests`` requests after a warm-up, and the queries one PUT makes. The settings are bench_api's:
local ones without DEBUG, throttles out of the way (they still count, in the local-memory cache), and
connections kept for good (``CONN_MAX_AGE`` 60 s would reconnect at times that depend on the run's speed;
the health check before each request stays).
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="PUTs timed")
    parser.add_argument("--profile", type=int, default=0, help="print this many cProfile rows")
    parser.add_argument("--queries", action="store_true", help="print the SQL of one PUT")
    parser.add_argument(
        "--callgrind",
        type=int,
        default=0,
        help="under valgrind --tool=callgrind --instr-atstart=no: "
        "count the instructions of this many PUTs only",
    )
    parser.add_argument("--extra", default="", help="settings lines added (what a setting costs)")
    parser.add_argument(
        "--gunicorn",
        choices=("settings", "access-log"),
        help="hand each PUT to gunicorn's sync worker over a socket pair, with dipserver/config/gunicorn.py "
        "(access-log: and gunicorn's access log written, to a file)",
    )
    args = parser.parse_args()
    _settings(args.extra)
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application

    call_command("migrate", verbosity=0)
    app = get_wsgi_application()
    players = _players(app)
    tick = _steady_clock()
    rng = random.Random(19)
    send = _through_gunicorn(app, args.gunicorn) if args.gunicorn else functools.partial(_call, app)

    def put() -> None:
        tick()
        game_id, token, phase, options = players[rng.randrange(len(players))]
        body = {"phase": phase, "orders": [rng.choice(o) for o in options]}
        status = send("PUT", f"/api/v1/games/{game_id}/orders", token, body)[0]
        assert status == 200, status

    for _ in range(200):
        put()
    _queries(put, show=args.queries)
    if args.callgrind:
        _instructions(put, args.callgrind)
        return 0
    blocks = []  # the least of five blocks: another process's load only ever adds to one
    for _ in range(5):
        start = time.process_time()
        for _ in range(args.requests // 5):
            put()
        blocks.append((time.process_time() - start) * 1000 / (args.requests // 5))
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    figures = f"least {min(blocks):.3f} ms, median {sorted(blocks)[2]:.3f} ms"
    print(f"PUT orders in process, CPU per PUT in 5 blocks of {args.requests // 5}: {figures}; load {load}")
    if args.profile:
        _profiled(put, args.profile)
    return 0


def _settings(extra: str) -> None:
    folder = Path(f"/tmp/dipserver-profile-put-{os.getpid()}")  # its own: runs side by side differ
    folder.mkdir()
    bench_api = (ROOT / "scripts" / "bench_api.py").read_text()
    settings = bench_api.split("SETTINGS = '''", 1)[1].split("'''", 1)[0]  # bench_api's, to the letter
    kept = 'DATABASES["default"]["CONN_MAX_AGE"] = None\n'
    (folder / "profile_put_settings.py").write_text(settings + kept + extra.replace(";", "\n") + "\n")
    sys.path.insert(0, str(folder))
    os.environ["DJANGO_SETTINGS_MODULE"] = "profile_put_settings"
    os.environ.setdefault("DIPSERVER_VAR_DIR", str(folder))


def _players(app: Any) -> list[tuple[int, str, str, list[list[str]]]]:
    """Two started standard games' players: (game id, token, phase, legal order texts per unit)."""
    from django.contrib.auth import get_user_model

    from dipserver.accounts.tokens import token_create
    from dipserver.games.models import Power
    from dipserver.games.services.games import game_create, game_join

    players = []
    for _ in range(2):
        game = game_create(name="profile", variant="standard", phase_minutes={"M": 100000})
        for p in range(7):
            user = get_user_model().objects.create(username=f"profile-{game.id}-{p}")
            game_join(game_id=game.id, user=user)
        for seat in Power.objects.filter(game=game).select_related("user"):
            assert seat.user is not None
            token = token_create(user=seat.user, name="profile")[1]
            status, options = _call(app, "GET", f"/api/v1/games/{game.id}/options", token)
            assert status == 200, status
            texts = [[o["text"] for o in unit] for unit in options["units"].values()]
            players.append((game.id, token, options["phase"], texts))
    return players


def _steady_clock() -> Any:
    """Clocks that advance by PUTs (call the function returned once a PUT), whatever this run's speed
    (callgrind is 50 times slower), at bench_api's pace (100 PUTs/s by 56 players, 10 s a stage): the
    write throttle's 0.25 s a PUT, so each user's history holds ~17 requests; the tokens' 0.04 s, so a
    token is read again (30 s) before ~2 % of PUTs and its last use (1 min) written at ~1 %. Callgrind's
    counts then repeat to the instruction."""
    import datetime as dt
    import types

    from dipserver.accounts import tokens
    from dipserver.api import authentication
    from dipserver.api.throttling import WriteThrottle

    start, ticks = time.time(), [0]

    def now() -> float:
        return start + ticks[0] * 0.25

    def token_now() -> float:
        return start + ticks[0] * 0.04

    def touch(*, token: Any) -> None:
        tokens.token_touch(token=token, now=dt.datetime.fromtimestamp(token_now(), dt.UTC))

    WriteThrottle.timer = staticmethod(now)  # type: ignore[method-assign]
    authentication.token_touch = touch  # type: ignore[assignment]
    authentication.time = types.SimpleNamespace(monotonic=token_now)  # type: ignore[assignment]
    return lambda: ticks.__setitem__(0, ticks[0] + 1)


def _call(app: Any, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    """One request through the WSGI application, with the headers ``http_load.request`` sends."""
    raw = json.dumps(body).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "HTTP_ACCEPT": "application/json",
        "HTTP_USER_AGENT": "Python-urllib/3.11",
        "HTTP_ACCEPT_ENCODING": "identity",
        "HTTP_CONNECTION": "close",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if body is not None:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(raw))
    status: list[str] = []
    chunks = app(environ, lambda s, headers, exc_info=None: status.append(s))
    content = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(status[0].split()[0]), json.loads(content) if content else None


def _through_gunicorn(app: Any, mode: str) -> Callable[..., tuple[int, Any]]:
    """A request as gunicorn's sync worker handles one (parsed, its environ built, the application called,
    the answer written) with production's settings, over a socket pair: without accepting and closing a
    connection, waking the workers or the kernel's side. The answer's body is not read."""
    import runpy
    import socket

    from gunicorn.config import Config
    from gunicorn.glogging import Logger
    from gunicorn.workers.sync import SyncWorker

    config = Config()
    for name, value in runpy.run_path(str(ROOT / "dipserver" / "config" / "gunicorn.py")).items():
        if name in config.settings:
            config.set(name, value)
    if mode == "access-log":
        config.set("accesslog", os.path.join(os.environ["DIPSERVER_VAR_DIR"], "access.log"))
    worker = SyncWorker(1, os.getpid(), [], None, 30, config, Logger(config))
    worker.wsgi = app
    listener = socket.socket()  # only asked for its address
    listener.bind(("127.0.0.1", 0))
    sent = ("Accept-Encoding: identity", "Host: 127.0.0.1:8000", "User-Agent: Python-urllib/3.11")

    def send(method: str, path: str, token: str, body: Any) -> tuple[int, None]:
        raw = json.dumps(body).encode()
        headers = [*sent, f"Authorization: Token {token}", "Accept: application/json"]
        headers += ["Content-Type: application/json", f"Content-Length: {len(raw)}", "Connection: close"]
        request = f"{method} {path} HTTP/1.1\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n"
        server, client = socket.socketpair()
        with client:
            client.sendall(request.encode() + raw)
            worker.handle(listener, server, ("127.0.0.1", 40000))  # closes its end
            answer = client.recv(1 << 16)
        return int(answer.split(b" ", 2)[1]), None

    return send


def _queries(put: Any, *, show: bool) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        put()
    print(f"queries per PUT: {len(captured.captured_queries)}")
    if show:
        for query in captured.captured_queries:
            print("  ", query["sql"][:300])


def _instructions(put: Any, count: int) -> None:
    """``count`` PUTs inside libc's ``qsort`` (its comparator runs them), for callgrind to count alone:
    run under ``valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no --toggle-collect=qsort_r``
    (this glibc's ``qsort`` jumps straight to ``qsort_r``, so toggling on ``qsort`` counts nothing).
    Instrumentation is switched on asynchronously (callgrind_control), so a few PUTs run first."""
    import ctypes
    import subprocess

    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)
    for _ in range(20):
        put()

    def compare(a: Any, b: Any) -> int:
        for _ in range(count):
            put()
        return 0

    comparator = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(compare)
    pair = (ctypes.c_int * 2)(1, 2)
    ctypes.CDLL(None).qsort(pair, 2, ctypes.sizeof(ctypes.c_int), comparator)
    print(f"{count} PUTs counted: divide callgrind's total by {count}")


def _profiled(put: Any, rows: int) -> None:
    import cProfile
    import pstats

    profile = cProfile.Profile(time.process_time)  # CPU, not the waits on the database
    profile.enable()
    for _ in range(500):
        put()
    profile.disable()
    pstats.Stats(profile).sort_stats("cumulative").print_stats(rows)


if __name__ == "__main__":
    raise SystemExit(main())
