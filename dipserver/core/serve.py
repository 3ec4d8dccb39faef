"""`./dip serve`: prepare the database, then run the web server, a Celery worker and Celery beat together.

Plain standard library on purpose: it supervises processes and never imports Django itself, so a bad
setting is reported by the child command that reads it, in one line. Each child runs in its own
process group; Ctrl-C (or SIGTERM) stops every group, including grandchildren such as runserver's
autoreloader and the worker's pool, before this process exits.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STOP_GRACE_SECONDS = 10.0
READY_TIMEOUT_SECONDS = 60.0
RESTART_FIRST_PAUSE = 1.0  # seconds before a dead child is started again; doubled per quick failure
RESTART_MAX_PAUSE = 60.0
RESTART_STABLE_AFTER = 60.0  # a child that ran this long before dying starts again after the first pause
LOCAL = "dipserver.config.settings.local"  # what manage.py would choose


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    reload: bool

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


@dataclass
class Child:
    label: str
    process: subprocess.Popen[bytes]
    # Celery's main process shuts its own pool down cleanly, so it alone gets SIGTERM; runserver's
    # autoreloader does not forward signals to the server it runs, so its whole group does.
    term_group: bool
    command: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    started_at: float = field(default_factory=time.monotonic)
    quick_failures: int = 0  # deaths in a row, each soon after its start: the pause doubles with them
    restart_at: float | None = None  # dead, to be started again then

    @classmethod
    def start(cls, label: str, command: list[str], env: dict[str, str], *, term_group: bool) -> Child:
        process = subprocess.Popen(command, env=env, start_new_session=True)
        return cls(label, process, term_group, command=command, env=env)

    def restart(self) -> None:
        self.process = subprocess.Popen(self.command, env=self.env, start_new_session=True)
        self.started_at, self.restart_at = time.monotonic(), None


class ServeError(Exception):
    """Start-up cannot go on; the message is printed as one line."""


def parse_args(argv: Sequence[str]) -> ServeOptions:
    parser = argparse.ArgumentParser(
        prog="./dip serve",
        description="Set up, load demo data, and run the web server, a Celery worker and Celery beat.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--no-reload",
        dest="reload",
        action="store_false",
        help="do not restart the web server on code changes",
    )
    args = parser.parse_args(list(argv))
    return ServeOptions(host=args.host, port=args.port, reload=args.reload)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1-65535)")
    return port


def child_commands(options: ServeOptions, python: str = sys.executable) -> list[tuple[str, list[str]]]:
    """The long-running processes, labelled for messages; the web server comes first."""
    runserver = [python, "manage.py", "runserver", f"{options.host}:{options.port}"]
    if not options.reload:
        runserver.append("--noreload")
    celery = [python, "-m", "celery", "-A", "dipserver.config"]
    worker = [*celery, "worker", "--loglevel=INFO", "--without-gossip"]
    return [
        ("web server", runserver),
        # Phases on the default queue; mail and webhooks on their own queue and pool (settings/celery.py),
        # so a slow receiver never holds a phase; map pictures asked for through the API, one at a time.
        # Each extra worker has its own node name.
        ("celery worker", [*worker, "--concurrency=2", "-Q", "celery"]),
        ("deliveries worker", [*worker, "--concurrency=2", "-Q", "deliveries", "-n", "deliveries@%h"]),
        ("picture worker", [*worker, "--concurrency=1", "-Q", "pictures", "-n", "pictures@%h"]),
        ("celery beat", [*celery, "beat", "--loglevel=INFO"]),
    ]


def child_env(base: Mapping[str, str]) -> dict[str, str]:
    """The children's environment. The settings module is named here, not left to each entry point:
    Celery installs its Django fix-up (which finds every app's tasks) only when DJANGO_SETTINGS_MODULE is
    set as the app is created, so without it the worker registers no task and refuses every one it gets."""
    return {
        **base,
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": base.get("DJANGO_SETTINGS_MODULE") or LOCAL,
    }


def setup_commands(python: str = sys.executable) -> list[list[str]]:
    """One-shot steps, in order; each stops start-up with its own one-line message on failure."""
    manage = [python, "manage.py"]
    return [
        [*manage, "check_services", "--verbosity=0"],
        [*manage, "migrate", "--noinput", "--verbosity=0"],
        [*manage, "seed_demo"],
    ]


def port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def wait_until_listening(host: str, port: int, children: list[Child], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _raise_if_exited(children)
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise ServeError(f"the web server did not start listening on {host}:{port} within {timeout:.0f}s")


def stop_all(children: list[Child], grace: float = STOP_GRACE_SECONDS) -> None:
    """SIGTERM every child's process group, then SIGKILL whatever is left after ``grace`` seconds."""
    for child in children:
        if child.term_group:
            _signal_group(child, signal.SIGTERM)
        elif child.process.poll() is None:
            child.process.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
    # Leaders may be gone while their group lives on (e.g. the autoreloader's server process).
    for child in children:
        _signal_group(child, signal.SIGKILL)
        child.process.wait()


def _signal_group(child: Child, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.process.pid, sig)


def _raise_if_exited(children: list[Child]) -> None:
    for child in children:
        code = child.process.poll()
        if code is not None:
            raise ServeError(f"the {child.label} stopped unexpectedly (exit status {code})")


def supervise(children: list[Child], now: float | None = None) -> None:
    """One round of the supervisor: note each child that died and when to start it again, and start
    again each one whose pause is over. Its whole process group is killed first (a worker's pool
    processes outlive a main process killed with SIGKILL)."""
    now = time.monotonic() if now is None else now
    for child in children:
        if child.restart_at is None:
            code = child.process.poll()
            if code is None:
                continue
            _signal_group(child, signal.SIGKILL)
            ran = now - child.started_at
            child.quick_failures = child.quick_failures + 1 if ran < RESTART_STABLE_AFTER else 1
            pause = min(RESTART_MAX_PAUSE, RESTART_FIRST_PAUSE * 2 ** (child.quick_failures - 1))
            child.restart_at = now + pause
            print(
                f"dipserver: the {child.label} stopped (exit status {code}) after {ran:.0f}s; "
                f"starting it again in {pause:.0f}s",
                file=sys.stderr,
                flush=True,
            )
        elif now >= child.restart_at:
            child.restart()
            print(f"dipserver: the {child.label} started again", file=sys.stderr, flush=True)


class _Stop(Exception):
    pass


def _on_signal(signum: int, frame: object) -> None:
    raise _Stop


def banner(options: ServeOptions, logins: str) -> str:
    lines = [
        "",
        f"dipserver is running at {options.address}/",
        f"  admin for game masters: {options.address}/admin/",
        "",
        *(f"  {line}" for line in logins.strip().splitlines()),
        "",
        "Press Ctrl-C to stop the web server, the Celery worker and Celery beat.",
        "",
    ]
    return "\n".join(lines)


def serve(options: ServeOptions) -> int:
    os.chdir(ROOT)
    # Runtime files (beat's schedule, the embedded broker, SQLite) go here; settings read the same variable.
    Path(os.environ.get("DIPSERVER_VAR_DIR") or ROOT / "var").mkdir(parents=True, exist_ok=True)
    var = Path(os.environ.get("DIPSERVER_VAR_DIR") or ROOT / "var").resolve()
    env = child_env(os.environ)
    env.setdefault("SITE_URL", options.address)  # links in the demo's mails point at this server
    # One cache for every process: the picture worker draws maps into it and the web server answers from it.
    env.setdefault("CACHE_URL", f"file://{var / 'cache'}")

    if not port_free(options.host, options.port):
        raise ServeError(
            f"port {options.port} on {options.host} is already in use (choose another with --port)"
        )
    logins = ""
    for command in setup_commands():
        result = subprocess.run(command, env=env, stdout=subprocess.PIPE, check=False)
        if result.returncode != 0:
            # The command has already printed its own one-line reason on stderr.
            return result.returncode
        logins = result.stdout.decode()

    children: list[Child] = []
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    try:
        for label, command in child_commands(options):
            children.append(Child.start(label, command, env, term_group=label == "web server"))
        wait_until_listening(options.host, options.port, children, READY_TIMEOUT_SECONDS)
        print(banner(options, logins), flush=True)
        while True:  # up: from now on a child that dies is started again, the others keep running
            supervise(children)
            time.sleep(0.5)
    except _Stop:
        print("\ndipserver: stopping (the Celery worker finishes its current tasks first)…", flush=True)
        return 0
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the clean-up
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_all(children)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return serve(options)
    except ServeError as exc:
        print(f"dipserver: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
