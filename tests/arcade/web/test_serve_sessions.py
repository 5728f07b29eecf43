"""``arcade serve``'s sessions are bounded (``arcade.web.sessions``): past the cap in all or from one
address a browser is told the arcade is full (a page, a line in the server's log, no traceback)
and no process starts; an idle session is closed and its process ends; each app runs in its budget
(``RLIMIT_AS``, and its cgroups or ``RLIMIT_NPROC``), read back from ``/proc``. The servers are the
real command (``arcade serve`` in a process) but one run in the test's loop; "several addresses"
are loopback's own (``127.0.0.2``, ``127.0.0.3``: all of 127/8 is this machine), the peer
address the server counts (``X-Forwarded-For`` is not trusted). Every wait polls against a
generous deadline."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiohttp
import pytest

from arcade import cli
from arcade.web.sessions import Caps, Sessions, address_key, user_tasks

DEADLINE = 120.0
"""Seconds any wait may take on a busy machine (an app's start is a second or two of CPU)."""


# -- helpers -----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def until(check, what: str, deadline: float = DEADLINE):
    start = time.monotonic()
    while not (found := check()):
        assert time.monotonic() - start < deadline, f"not within {deadline:g} s: {what}"
        await asyncio.sleep(0.1)
    return found


async def room(peer, server, deadline: float = DEADLINE) -> None:
    """Until the server has room for ``peer`` again: its ``/full`` page, which logs nothing (the
    index page past a cap logs its refusal), says so with a 200."""
    start = time.monotonic()
    while True:
        async with peer.get(server.url("/full")) as page:
            if page.status == 200:
                assert "The arcade has room now" in await page.text()
                return
        assert time.monotonic() - start < deadline, f"no room within {deadline:g} s"
        await asyncio.sleep(0.1)


def command_line(pid: int) -> bytes | None:
    """``/proc/PID/cmdline`` (``None``: the process is gone)."""
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None


def limits(pid: int) -> dict[str, tuple[str, str]]:
    """``/proc/PID/limits``: each limit's soft and hard values."""
    rows = (Path("/proc") / str(pid) / "limits").read_text().splitlines()[1:]
    return {row[:26].strip(): tuple(row[26:].split()[:2]) for row in rows}  # type: ignore[misc]


class Served:
    """``arcade serve OPTIONS`` in a process, its output read as it comes (``log``)."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "serve", "--port",
             str(self.port), *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "COLUMNS": "400"})
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def apps(self) -> list[int]:
        """The server's apps: its children that have started the app (exec'd). A child between
        its fork and its exec is still the server, its limits and cgroups not yet set (the
        budget is applied there, ``preexec_fn``): reading its ``/proc`` then raced the budget."""
        server = command_line(self.process.pid)
        return [pid for pid in children(self.process.pid) if command_line(pid) not in (None, server)]


@contextmanager
def served(*options: str):
    server = Served(*options)
    try:
        start = time.monotonic()
        while "sessions:" not in server.log:
            assert server.process.poll() is None, server.log
            assert time.monotonic() - start < DEADLINE, server.log
            time.sleep(0.05)
        yield server
        server.process.terminate()
        assert server.process.wait(DEADLINE) == 0, server.log
    finally:
        server.process.kill()
        server.process.wait()
        server.reader.join(10)


def client(address: str = "127.0.0.1") -> aiohttp.ClientSession:
    """A client whose connections come from ``address`` (a loopback address of this machine)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0), force_close=True))


async def refusal(ws) -> tuple[str, list[str]]:
    """What a refused websocket says before it closes (code 1013, try again later): its
    terminal's text, and the messages to the page's script."""
    text, scripts = "", []
    async with asyncio.timeout(DEADLINE):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                text += message.data.decode()
            elif message.type == aiohttp.WSMsgType.TEXT:
                scripts.append(message.data)
            else:
                break
    assert ws.close_code == 1013, (message, text)
    return text, scripts


async def closed(ws) -> int | None:
    """The code a websocket is closed with, once it is (its messages till then read)."""
    async with asyncio.timeout(DEADLINE):
        while (await ws.receive()).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            pass
    return ws.close_code


def loopback_addresses_work() -> bool:
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.2", 0))
        return True
    except OSError:
        return False


# -- the caps ------------------------------------------------------------------------------------

@pytest.mark.skipif(not loopback_addresses_work(), reason="no 127.0.0.2 to connect from")
async def test_sessions_past_the_caps_are_refused_with_a_page_and_their_processes_never_start():
    full_line = re.compile(r"refused a session from 127\.0\.0\.3: full \(3 sessions open, 3 at most\)")
    with served("--max-sessions", "3", "--max-per-address", "2") as server:
        assert "sessions: 3 at most, 2 from one address" in server.log
        opened, refused = [], 0

        def bounded(count: int):
            apps = server.apps()
            assert len(apps) <= 3, apps  # never more processes than the cap
            return len(apps) == count and apps

        async with client("127.0.0.1") as one, client("127.0.0.2") as two, client("127.0.0.3") as three:
            for number in (1, 2):  # two from one address
                opened.append(await one.ws_connect(server.url("/ws?width=80&height=24")))
                await until(lambda: bounded(number), f"{number} apps")
            for _ in range(3):  # more from it are refused, their processes never started
                text, scripts = await refusal(await one.ws_connect(server.url("/ws")))
                refused += 1
                assert "Your machine (127.0.0.1) already has 2 arcades open, 2 at most from one machine" in text
                assert scripts == ['["open_url", {"url": "/full", "new_tab": false}]']
                assert len(server.apps()) == 2
            async with one.get(server.url("/full")) as page:  # the page the browser is sent to
                assert page.status == 503 and "already has 2 arcades open" in await page.text()
            opened.append(await two.ws_connect(server.url("/ws")))  # another machine: room for one more
            await until(lambda: bounded(3), "3 apps")
            for peer in (two, three):  # then the arcade is full, for every address
                text, _ = await refusal(await peer.ws_connect(server.url("/ws")))
                refused += 1
                assert "The arcade is full: 3 sessions open, 3 at most. Try again in a few minutes." in text
            async with three.get(server.url("/")) as page:  # the index page itself says so
                assert page.status == 503 and page.headers["Retry-After"] == "60"
                assert "The arcade is full: 3 sessions open, 3 at most" in await page.text()
            for junk in ("not json", '["stdin"]', '["resize", {}]', "[]", '{"a": 1}', '["resize", {"width": "x"}]'):
                await opened[0].send_str(junk)  # dropped, not a traceback
            await opened[0].close()  # a session ends: its process too, and there is room again
            await until(lambda: bounded(2), "the first app's end")
            await room(three, server)  # its session is released once its process is reaped: then there is room
            async with three.get(server.url("/")) as page:
                assert page.status == 200 and "textual-terminal" in await page.text()
            opened.append(await three.ws_connect(server.url("/ws")))
            apps = await until(lambda: bounded(3), "3 apps again")
            assert len(re.findall("refused a session", server.log)) == refused + 1 == 6  # one line a refusal
            assert len(full_line.findall(server.log)) == 2  # its websocket's, its index page's
            reading = [asyncio.create_task(closed(ws)) for ws in opened[1:]]
            server.process.terminate()  # the server stops: its sessions are closed, their apps stopped
            assert await asyncio.gather(*reading) == [1001] * 3
            assert await asyncio.to_thread(server.process.wait, DEADLINE) == 0
    assert "Traceback" not in server.log and " failed: " not in server.log, server.log
    await until(lambda: not any(alive(pid) for pid in apps), "the apps' ends")


def test_the_caps_count_by_address():
    sessions = Sessions(Caps(sessions=3, per_address=2))
    assert sessions.admit("a") is None and sessions.admit("a") is None
    refused = sessions.admit("a")
    assert refused is not None and "(a) already has 2 arcades open, 2 at most" in refused.message
    assert sessions.admit("b") is None
    refused = sessions.admit("c")
    assert refused is not None and refused.message.startswith("The arcade is full: 3 sessions open, 3 at most")
    sessions.release("a")
    assert sessions.admit("c") is None and dict(sessions.open) == {"a": 1, "b": 1, "c": 1}
    # one machine's IPv6 addresses are one address (their /64), an IPv4 one in IPv6 the IPv4 one
    assert address_key("2001:db8::1") == address_key("2001:db8::beef") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:10.0.0.7") == address_key("10.0.0.7") == "10.0.0.7"
    assert address_key("::1") == "::1" and address_key(None) == "unknown"


@pytest.mark.parametrize("option, value, said", [
    ("--max-sessions", "0", "--max-sessions must be at least 1"),
    ("--max-per-address", "-1", "--max-per-address must be at least 1"),
    ("--idle-minutes", "0", "--idle-minutes must be a positive number"),
    ("--idle-minutes", "nan", "--idle-minutes must be a positive number"),
    ("--session-memory", "500", "--session-memory must be at least 512"),
    ("--session-processes", "0", "--session-processes must be at least 1"),
])
def test_bounds_that_make_no_sense_are_usage_errors(capsys, option, value, said):
    assert cli.main(["serve", "--port", str(free_port()), option, value]) == 2
    assert said in capsys.readouterr().err


# -- idle sessions -------------------------------------------------------------------------------

async def test_an_idle_session_is_closed_and_its_process_ends_while_one_with_input_stays():
    with served("--idle-minutes", "0.1") as server:  # 6 seconds
        async with client() as http:
            idle = await http.ws_connect(server.url("/ws"))
            apps = await until(lambda: len(server.apps()) == 1 and server.apps(), "the idle session's app")
            busy = await http.ws_connect(server.url("/ws"))
            await until(lambda: len(server.apps()) == 2, "the busy session's app")
            busy_app = next(pid for pid in server.apps() if pid not in apps)

            async def keep_busy() -> None:  # a resize is input: every half second
                while True:
                    await busy.send_str('["resize", {"width": 80, "height": 24}]')
                    await asyncio.sleep(0.5)

            keeping = asyncio.create_task(keep_busy())
            text = ""
            async with asyncio.timeout(DEADLINE):
                while (message := await idle.receive()).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    if message.type == aiohttp.WSMsgType.BINARY:
                        text += message.data.decode(errors="replace")
            assert idle.close_code == 1001 and "This arcade was closed after 6 seconds without input." in text
            await until(lambda: not alive(apps[0]), "the idle app's end")
            assert alive(busy_app) and not busy.closed  # its input kept it
            keeping.cancel()
            async with http.get(server.url("/idle")) as page:  # where the browser is sent
                assert "closed after 6 seconds without input" in await page.text()
            await busy.close()
            await until(lambda: not alive(busy_app), "the busy app's end, once closed")
    assert "closed a session of 127.0.0.1 after 6 seconds without input" in server.log
    assert server.log.count("without input") == 1 + 1  # the line, and the first lines' bounds


# -- the budget ----------------------------------------------------------------------------------

async def test_a_sessions_app_runs_in_its_budget():
    with served("--session-memory", "1024", "--session-processes", "40") as server:
        cgroups = "(pids cgroup)" in server.log
        async with client() as http:
            ws = await http.ws_connect(server.url("/ws"))
            app = (await until(server.apps, "the app"))[0]
            assert limits(app)["Max address space"] == (str(1 << 30), str(1 << 30))
            assert "MALLOC_ARENA_MAX=2" in (Path("/proc") / str(app) / "environ").read_text().split("\0")
            held = {}
            for line in (Path("/proc") / str(app) / "cgroup").read_text().splitlines():
                _, names, path = line.split(":", 2)
                if "contest-arcade" in path:
                    held[names] = path
            if cgroups:  # its pids cgroup holds 40, its memory cgroup 1 GiB for all its processes
                v1 = Path("/sys/fs/cgroup/pids") / held["pids"].strip("/") if "pids" in held else None
                pids = v1 or Path("/sys/fs/cgroup") / held[""].strip("/")
                assert (pids / "pids.max").read_text().strip() == "40"
                assert int((pids / "pids.current").read_text()) >= 1
                if "memory cgroup" in server.log:
                    memory = (Path("/sys/fs/cgroup/memory") / held["memory"].strip("/") / "memory.limit_in_bytes"
                              if "memory" in held else pids / "memory.max")
                    assert int(memory.read_text()) == 1 << 30
                folders = [pids]
            else:
                assert limits(app)["Max processes"][0] != "unlimited"
                folders = []
            await ws.close()
            await until(lambda: not alive(app), "the app's end")
            await until(lambda: not any(folder.exists() for folder in folders), "its cgroups removed")


@asynccontextmanager
async def in_process(caps: Caps):
    """``arcade serve``'s server run in the test's own loop: its sessions (``live``) at hand."""
    from aiohttp import web

    from arcade.web.serve import make_server, page_templates

    with page_templates() as templates:
        server = make_server("127.0.0.1", 0, False, templates, caps)
        runner = web.AppRunner(await server._make_app())
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            yield server, f"http://127.0.0.1:{runner.addresses[0][1]}"
        finally:
            await runner.cleanup()


async def test_without_cgroups_a_sessions_processes_are_held_by_rlimits(monkeypatch):
    """Where no cgroup can be made (a user without a delegated one): ``RLIMIT_AS`` each, and
    ``RLIMIT_NPROC``, the user's count when the session starts (``user_tasks``, here fixed, above
    the real one) plus the budget of every session."""
    from arcade.web import sessions

    assert user_tasks() >= len(os.listdir("/proc/self/task"))  # this process's threads at least
    monkeypatch.setattr(sessions, "user_tasks", lambda: 5000)
    caps = Caps(sessions=2, memory=768 << 20, processes=30, cgroups=False)
    async with in_process(caps) as (server, url):
        async with client() as http:
            ws = await http.ws_connect(f"{url}/ws")
            session = await until(lambda: next(iter(server.live), None), "the session")
            app = await until(lambda: session.app is not None and session.app.pid, "the app")
            found = limits(app)
            assert found["Max address space"] == (str(768 << 20), str(768 << 20))
            assert found["Max processes"] == ("5060", "5060")  # 5000 + 30 × 2
            assert session.app.budget.cgroup is None
            assert "contest-arcade" not in (Path("/proc") / str(app) / "cgroup").read_text()
            await ws.close()
            await until(lambda: not alive(app) and not server.live, "the app's end")
    assert server.sessions.total == 0


HUNG = """
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # its process group
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)  # out of it
time.sleep(600)
"""


async def test_an_app_that_does_not_quit_is_killed_with_what_it_started():
    """An app that neither speaks nor quits when told: killed ``STOP_GRACE`` seconds after its
    session ends, with its process group, and, where the session has a cgroup, what left the
    group too; its session is counted until then."""
    import shlex

    async with in_process(Caps()) as (server, url):
        server.command = shlex.join([sys.executable, "-c", HUNG])
        async with client() as http:
            ws = await http.ws_connect(f"{url}/ws")
            session = await until(lambda: next(iter(server.live), None), "the session")
            app = await until(lambda: session.app is not None and session.app.pid, "the app")
            started = await until(lambda: len(children(app)) == 2 and children(app), "the app's two children")
            in_group, out_of_group = started if os.getpgid(started[0]) == app else started[::-1]
            assert os.getpgid(in_group) == app != os.getpgid(out_of_group)
            held = session.app.budget.cgroup is not None
            try:
                await ws.close()
                assert server.sessions.total == 1  # until its process is gone
                await until(lambda: not alive(app), "the hung app's end")
                await until(lambda: not server.live and server.sessions.total == 0, "the session's end")
                await until(lambda: not alive(in_group), "its child's end")
                if held:
                    await until(lambda: not alive(out_of_group), "its child out of its group, by its cgroup")
            finally:
                for pid in started:
                    try:
                        os.kill(pid, 9)
                    except OSError:
                        pass
