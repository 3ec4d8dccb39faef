"""`./dip serve` and `./dip test`: argument handling, start-up failures, and a real start and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dipserver.core.serve import (
    Child,
    ServeOptions,
    banner,
    child_commands,
    child_env,
    parse_args,
    port_free,
    stop_all,
    supervise,
)

from .conftest import ROOT, one_line_error


class TestArguments:
    def test_defaults_to_localhost_port_8000_with_reload(self) -> None:
        assert parse_args([]) == ServeOptions(host="127.0.0.1", port=8000, reload=True)

    def test_host_port_and_no_reload(self) -> None:
        options = parse_args(["--host", "0.0.0.0", "--port", "8123", "--no-reload"])
        assert options == ServeOptions(host="0.0.0.0", port=8123, reload=False)

    @pytest.mark.parametrize("port", ["eighty", "0", "70000"])
    def test_bad_port_is_refused_with_usage(self, port: str, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_:
            parse_args(["--port", port])
        assert exit_.value.code == 2
        assert "is not a port number" in capsys.readouterr().err

    def test_unknown_option_is_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            parse_args(["--workers", "3"])
        assert "unrecognized arguments: --workers 3" in capsys.readouterr().err


class TestProcesses:
    def test_runs_web_server_worker_and_beat(self) -> None:
        commands = dict(child_commands(ServeOptions("127.0.0.1", 8001, reload=False), python="py"))
        assert commands["web server"] == ["py", "manage.py", "runserver", "127.0.0.1:8001", "--noreload"]
        assert commands["celery worker"][:6] == ["py", "-m", "celery", "-A", "dipserver.config", "worker"]
        assert commands["celery beat"][:6] == ["py", "-m", "celery", "-A", "dipserver.config", "beat"]

    def test_deliveries_run_in_a_worker_of_their_own(self) -> None:
        """Phases on the default queue, mail and webhooks on theirs: a slow receiver never holds a phase."""
        commands = dict(child_commands(ServeOptions("127.0.0.1", 8001, reload=False), python="py"))
        phases, deliveries = commands["celery worker"], commands["deliveries worker"]
        assert phases[phases.index("-Q") + 1] == "celery"
        assert deliveries[:6] == ["py", "-m", "celery", "-A", "dipserver.config", "worker"]
        assert deliveries[deliveries.index("-Q") + 1] == "deliveries"
        assert deliveries[deliveries.index("-n") + 1] == "deliveries@%h"

    def test_map_pictures_have_a_worker_of_their_own_one_at_a_time(self) -> None:
        command = dict(child_commands(ServeOptions("127.0.0.1", 8001, reload=False), python="py"))[
            "picture worker"
        ]
        assert command[5] == "worker" and "--concurrency=1" in command
        assert command[command.index("-Q") + 1] == "pictures"
        assert command[command.index("-n") + 1] == "pictures@%h"  # beside the other worker on this host

    def test_children_get_the_local_settings_unless_told_otherwise(self) -> None:
        assert child_env({})["DJANGO_SETTINGS_MODULE"] == "dipserver.config.settings.local"
        chosen = {"DJANGO_SETTINGS_MODULE": "dipserver.config.settings.production"}
        assert child_env(chosen)["DJANGO_SETTINGS_MODULE"] == "dipserver.config.settings.production"

    def test_the_worker_started_by_serve_knows_every_task(self, clean_env: dict[str, str]) -> None:
        """What a worker does first: load the app's task modules. From a shell with no settings chosen
        it once found none, and refused processing, deadlines and the heartbeat as unregistered."""
        clean_env.pop("DJANGO_SETTINGS_MODULE", None)
        script = (
            "from dipserver.config.celery import app; app.loader.import_default_modules(); "
            "print(' '.join(sorted(t for t in app.tasks if t.startswith('dipserver.'))))"
        )
        found = subprocess.run(
            [sys.executable, "-c", script], env=child_env(clean_env), cwd=ROOT, capture_output=True, text=True
        )
        assert found.returncode == 0, found.stderr
        tasks = set(found.stdout.split())
        assert {"dipserver.core.heartbeat", "dipserver.games.phase_process"} <= tasks
        assert "dipserver.games.phases_due_sweep" in tasks

    def test_reload_is_runservers_default(self) -> None:
        commands = dict(child_commands(ServeOptions("127.0.0.1", 8000, reload=True), python="py"))
        assert "--noreload" not in commands["web server"]

    def test_banner_shows_the_address_and_logins(self) -> None:
        text = banner(ServeOptions("127.0.0.1", 8000, True), "Game master login (admin): gm / gm-password\n")
        assert "dipserver is running at http://127.0.0.1:8000/" in text
        assert "admin for game masters: http://127.0.0.1:8000/admin/" in text
        assert "  Game master login (admin): gm / gm-password" in text
        assert "Ctrl-C" in text

    def test_port_free_sees_a_listening_socket(self) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            port = sock.getsockname()[1]
            assert not port_free("127.0.0.1", port)
        assert port_free("127.0.0.1", port)

    def test_stop_all_ends_grandchildren_too(self) -> None:
        # A child that starts a grandchild and ignores SIGTERM, like a stuck server behind a reloader.
        script = "trap '' TERM; sleep 300 & echo $!; wait"
        process = subprocess.Popen(
            ["sh", "-c", script], start_new_session=True, stdout=subprocess.PIPE, text=True
        )
        grandchild = int(process.stdout.readline())
        stop_all([Child("stubborn", process, term_group=True)], grace=0.5)
        assert process.poll() is not None
        assert _gone_within(grandchild, seconds=5)


class TestSupervisor:
    """Once the site is up, a child that dies is started again after a pause; the others keep running."""

    @staticmethod
    def _sleeper() -> Child:
        return Child.start("celery worker", ["sleep", "300"], dict(os.environ), term_group=False)

    def test_a_killed_child_is_started_again_after_a_pause(self, capsys: pytest.CaptureFixture[str]) -> None:
        child, other = self._sleeper(), self._sleeper()
        try:
            first = child.process
            first.kill()
            first.wait()
            now = time.monotonic()
            supervise([child, other], now=now)
            assert child.restart_at == pytest.approx(now + 1.0)
            assert child.process is first  # not yet: the pause first
            supervise([child, other], now=now + 1.0)
            assert child.process is not first and child.process.poll() is None
            assert other.process.poll() is None  # untouched
            err = capsys.readouterr().err
            assert "dipserver: the celery worker stopped (exit status -9)" in err
            assert "starting it again in 1s" in err
            assert "dipserver: the celery worker started again" in err
        finally:
            stop_all([child, other], grace=0.5)

    def test_the_pause_doubles_while_it_keeps_dying_soon_after_starting(self) -> None:
        child = self._sleeper()
        pauses = []
        try:
            now = time.monotonic()
            for _ in range(8):
                child.process.kill()
                child.process.wait()
                supervise([child], now=now)
                assert child.restart_at is not None
                pauses.append(round(child.restart_at - now))
                now = child.restart_at
                supervise([child], now=now)
                child.started_at = now
        finally:
            stop_all([child], grace=0.5)
        assert pauses == [1, 2, 4, 8, 16, 32, 60, 60]

    def test_a_child_that_ran_a_while_starts_again_after_the_first_pause(self) -> None:
        child = self._sleeper()
        try:
            child.quick_failures = 5
            child.process.kill()
            child.process.wait()
            now = child.started_at + 120
            supervise([child], now=now)
            assert child.restart_at == pytest.approx(now + 1.0)
        finally:
            stop_all([child], grace=0.5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead but not yet reaped by its (now dead) parent's successor, init.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def _gone_within(pid: int, seconds: float) -> bool:
    """SIGKILL is asynchronous: give the kernel a moment to finish the process off."""
    deadline = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(clean_env: dict[str, str], *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dipserver.core.serve", *args],
        cwd=ROOT,
        env={**clean_env, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow  # each starts serve in a process of its own: run by .ci/run's second stage
class TestStartUpFailures:
    def test_bad_database_url_stops_serve_with_one_line(self, clean_env: dict[str, str]) -> None:
        process = _serve(clean_env, "--port", str(_free_port()), DATABASE_URL="postgres//x")
        out, err = process.communicate(timeout=60)
        line = one_line_error(subprocess.CompletedProcess(process.args, process.returncode, out, err))
        assert line.startswith("dipserver: DATABASE_URL is not a valid database URL: 'postgres//x'")

    def test_unreachable_broker_stops_serve_with_one_line(self, clean_env: dict[str, str]) -> None:
        process = _serve(clean_env, "--port", str(_free_port()), CELERY_BROKER_URL="redis://127.0.0.1:9/0")
        out, err = process.communicate(timeout=60)
        line = one_line_error(subprocess.CompletedProcess(process.args, process.returncode, out, err))
        assert line.startswith("dipserver: CELERY_BROKER_URL: cannot reach broker: redis://127.0.0.1:9/0")

    def test_port_in_use_stops_serve_with_one_line(self, clean_env: dict[str, str]) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            port = sock.getsockname()[1]
            process = _serve(clean_env, "--port", str(port))
            out, err = process.communicate(timeout=60)
        line = one_line_error(subprocess.CompletedProcess(process.args, process.returncode, out, err))
        assert line == f"dipserver: port {port} on 127.0.0.1 is already in use (choose another with --port)"


@pytest.mark.slow  # the web server, a worker and beat, really started: run by .ci/run's second stage
def test_serve_brings_up_the_site_and_ctrl_c_stops_everything(clean_env: dict[str, str]) -> None:
    """The whole promise of `./dip serve`, end to end, on a fresh var/ folder."""
    port = _free_port()
    process = _serve(clean_env, "--port", str(port), "--no-reload")
    children: list[int] = []
    try:
        banner_text = _read_until(process, "Press Ctrl-C", timeout=120)
        assert f"dipserver is running at http://127.0.0.1:{port}/" in banner_text
        assert "gm / gm-password" in banner_text
        assert "alice / alice-password" in banner_text

        children = _descendants(process.pid)
        assert len(children) >= 3  # web server, worker (+ its pool), beat

        base = f"http://127.0.0.1:{port}"
        assert (
            b'<a class="brand" href="/">dipserver</a>'
            in urllib.request.urlopen(f"{base}/", timeout=10).read()
        )
        assert urllib.request.urlopen(f"{base}/admin/login/", timeout=10).status == 200
        assert urllib.request.urlopen(f"{base}/healthz", timeout=10).status == 200
        _png_drawn_by_the_picture_worker(base)

        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    finally:
        _stop_for_good(process, children)
    assert process.returncode == 0
    leftovers = [pid for pid in children if not _gone_within(pid, seconds=5)]
    assert leftovers == [], f"still running after Ctrl-C: {leftovers}"


def test_serve_starts_a_killed_worker_again_and_the_site_stays_up(clean_env: dict[str, str]) -> None:
    """The worker once died after 40 minutes and took the whole site with it."""
    port = _free_port()
    process = _serve(clean_env, "--port", str(port), "--no-reload")
    children: list[int] = []
    try:
        _read_until(process, "Press Ctrl-C", timeout=120)
        worker = _worker_main_pid(process.pid)
        os.kill(worker, signal.SIGKILL)
        restarted = _read_until(process, "celery worker started again", timeout=30, stream="stderr")
        assert "the celery worker stopped (exit status -9)" in restarted
        assert process.poll() is None
        assert _worker_main_pid(process.pid) != worker
        base = f"http://127.0.0.1:{port}"
        assert urllib.request.urlopen(f"{base}/healthz", timeout=10).status == 200
        # The new worker takes beat's deadline sweeps from the embedded broker (the sweep records that it
        # ran at most every 5 s; the old worker has been dead for longer than that).
        killed = time.monotonic()
        assert _sweep_recorded_after(base, killed + 6, timeout=60), "no sweep ran after the restart"
        children = _descendants(process.pid)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    finally:
        _stop_for_good(process, children)
    assert process.returncode == 0
    leftovers = [pid for pid in children if not _gone_within(pid, seconds=5)]
    assert leftovers == [], f"still running after Ctrl-C: {leftovers}"


def _sweep_recorded_after(base: str, since: float, timeout: float) -> bool:
    """Whether /metrics shows a deadline sweep that ran after the monotonic time ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = urllib.request.urlopen(f"{base}/metrics", timeout=10).read().decode()
        found = re.search(r'^dipserver_heartbeat_age_seconds\{name="phases-due-sweep"\} (\S+)$', text, re.M)
        if found and time.monotonic() - float(found.group(1)) > since:
            return True
        time.sleep(1)
    return False


def _worker_main_pid(serve_pid: int) -> int:
    """The Celery worker's main process: serve's direct child whose command line says ``worker``."""
    for pid in _descendants(serve_pid):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            parent = int(re.sub(r"^.*\) ", "", Path(f"/proc/{pid}/stat").read_text()).split()[1])
        except (OSError, ValueError):
            continue
        if parent == serve_pid and b"worker" in argv:
            return pid
    pytest.fail("no Celery worker among serve's children")


def _png_drawn_by_the_picture_worker(base: str) -> None:
    """A demo game's map as PNG: 202 while the picture worker draws it, then the picture (the web server
    and the worker share the cache serve gives them)."""
    games = json.loads(urllib.request.urlopen(f"{base}/api/v1/games", timeout=10).read())["results"]
    for game in games:  # the first demo game that has started (a phase 0 to draw)
        path = f"{base}/api/v1/games/{game['id']}/phases/0/map.png?width=400"
        try:
            first = urllib.request.urlopen(path, timeout=10)
        except urllib.error.HTTPError as error:
            assert error.code == 404, error.read()[:3000]
            continue
        break
    else:
        pytest.fail("no demo game has started")
    assert first.status == 202 and first.headers["Retry-After"]
    deadline = time.monotonic() + 60
    while (answer := urllib.request.urlopen(path, timeout=10)).status == 202:
        assert time.monotonic() < deadline, "the picture worker never drew the map"
        time.sleep(0.5)
    assert answer.status == 200 and answer.read().startswith(b"\x89PNG")


def _stop_for_good(process: subprocess.Popen[str], children: list[int]) -> None:
    """After a failed assertion, leave nothing running: ask serve to stop, then kill what remains."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for pid in children:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _read_until(process: subprocess.Popen[str], marker: str, timeout: float, stream: str = "stdout") -> str:
    """Read serve's stdout (or stderr) until ``marker``; the output so far is returned (and shown on
    failure)."""
    deadline = time.monotonic() + timeout
    seen = []
    pipe = process.stdout if stream == "stdout" else process.stderr
    assert pipe is not None
    os.set_blocking(pipe.fileno(), False)
    while time.monotonic() < deadline:
        line = pipe.readline()
        if line:
            seen.append(line)
            if marker in line:
                return "".join(seen)
        elif process.poll() is not None:
            break
        else:
            time.sleep(0.1)
    stderr = process.stderr.read() if process.stderr and process.poll() is not None else ""
    pytest.fail(f"serve never printed {marker!r}; stdout:\n{''.join(seen)}\nstderr:\n{stderr}")


def _descendants(pid: int) -> list[int]:
    """Every process started (directly or not) by ``pid``, from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = re.sub(r"^.*\) ", "", stat.read_text()).split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        children = [child for child, parent in parents.items() if parent == current]
        found += children
        frontier += children
    return found


class TestDipScript:
    def test_without_a_command_prints_usage_and_fails(self) -> None:
        result = subprocess.run(["bash", "dip"], cwd=ROOT, capture_output=True, text=True, check=False)
        assert result.returncode == 2
        assert result.stderr.startswith("Usage: ./dip serve")

    def test_unknown_command_is_named(self) -> None:
        result = subprocess.run(
            ["bash", "dip", "deploy"], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert result.returncode == 2
        assert result.stderr.splitlines()[0] == "dip: unknown command 'deploy'"

    def test_help(self) -> None:
        result = subprocess.run(
            ["bash", "dip", "--help"], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0
        assert "./dip test [PYTEST ARGS...]" in result.stdout
