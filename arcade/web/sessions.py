"""``arcade serve``'s sessions (``arcade.web.serve``): a session is one browser's arcade, its
websocket and its app's process (``python -m arcade.web.served``), and this module bounds them.

- How many: ``Caps.sessions`` at once in all and ``Caps.per_address`` from one client address
  (``Sessions``). A session counts from its websocket's acceptance until its process is gone. A
  browser past a cap gets a page that says the arcade is full, how many sessions are open and to
  try later (``full_page``: the index page itself, or, for a websocket, a message in its terminal
  and the page it is sent to); the server logs one line a refusal.
- Whose: the address is the connection's peer (``client_address``): ``X-Forwarded-For`` and
  ``Forwarded`` are not read, since any client can write them to pass as many machines (behind a
  reverse proxy, every browser is then the proxy, and the per-address cap is the proxy's). IPv6
  addresses count by their /64 (one machine may hold many of its network's addresses), an IPv4
  address in IPv6 (``::ffff:a.b.c.d``, a dual-stack listener) as the IPv4 one.
- For how long: a session with no input (keys, mouse, a resize) for ``Caps.idle`` seconds is
  closed, its app told to quit, and its browser sent to a page that says why (``idle_page``).
- In what budget (``Budget``, made for each session, entered by its process before it runs
  Python: ``Budget.enter``): ``RLIMIT_AS`` of ``Caps.memory`` bytes for each of its processes,
  and, where the arcade may make cgroups (as root, or in a cgroup delegated to the user:
  ``bots.external.cgroups.BotCgroup``, a file bot's), one cgroup of ``memory`` that holds all of
  them to ``Caps.memory`` together and one of ``pids`` that holds their processes and threads to
  ``Caps.processes``. Where there is no ``pids`` cgroup, ``RLIMIT_NPROC``: it counts all of the
  user's processes and threads, not the session's, so it is the user's count when the session
  starts plus ``Caps.processes`` for every session the server may run (a bound on them all
  together, not on one; root's are not held by it).

An app told to quit that has not ended within ``STOP_GRACE`` seconds is killed with what it
started (its process group, and what is in its cgroups), and the session's cgroups are removed.
"""

from __future__ import annotations

import asyncio
import html
import ipaddress
import json
import os
import resource
import shlex
import signal
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService

if TYPE_CHECKING:
    from bots.external.cgroups import BotCgroup

DEFAULT_SESSIONS = 8
DEFAULT_PER_ADDRESS = 2
DEFAULT_IDLE_MINUTES = 30.0
DEFAULT_MEMORY_MIB = 2048
DEFAULT_PROCESSES = 64
MIN_MEMORY_MIB = 512
"""The least ``--session-memory``: an arcade's own address space (Python, Textual, its threads'
stacks and malloc arenas) is about 180 MiB once started, more with its bots' threads."""
STOP_GRACE = 5.0
"""Seconds a session's app has to quit once told, before it is killed."""
FULL_PATH = "/full"
IDLE_PATH = "/idle"
HEARTBEAT = 15.0
"""Seconds between the server's pings of a websocket (``textual-serve``'s): a browser gone
without closing it is found within two of them, and its session ends."""


@dataclass(frozen=True)
class Caps:
    """The bounds on ``arcade serve``'s sessions (``arcade serve``'s options)."""

    sessions: int = DEFAULT_SESSIONS
    per_address: int = DEFAULT_PER_ADDRESS
    idle: float = DEFAULT_IDLE_MINUTES * 60
    """Seconds without input before a session is closed."""
    memory: int = DEFAULT_MEMORY_MIB << 20
    """Bytes: each process's address space, and all of a session's processes together where a
    memory cgroup can be made."""
    processes: int = DEFAULT_PROCESSES
    """Processes and threads of a session (its ``pids`` cgroup's ``pids.max``)."""
    cgroups: bool = True
    """Whether to make the sessions' cgroups where the arcade may (off: rlimits alone)."""


def minutes(seconds: float) -> str:
    """``30 minutes``, ``1 minute``, ``0.5 minutes``, ``2 seconds``."""
    if seconds < 60:
        return f"{seconds:g} second{'s' if seconds != 1 else ''}"
    count = seconds / 60
    return f"{count:g} minute{'s' if count != 1 else ''}"


def client_address(request: web.Request) -> str:
    """The address a session counts against: the connection's peer (never a header)."""
    return address_key(request.remote)


def address_key(peer: str | None) -> str:
    """``peer`` as the sessions count it: an IPv4 address as it is (an IPv4-mapped IPv6 one as
    IPv4), another IPv6 address as its /64 (loopback as itself), anything else as it is."""
    if not peer:
        return "unknown"
    try:
        ip = ipaddress.ip_address(peer.split("%")[0])
    except ValueError:
        return peer
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class Refusal:
    """Why a session was refused: ``message`` for the browser, ``line`` for the server's log."""

    message: str
    line: str


class Sessions:
    """The sessions open, by address, against ``caps``."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.open: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return sum(self.open.values())

    def refusal(self, address: str) -> Refusal | None:
        """Why a new session from ``address`` would be refused now, or ``None``."""
        caps, total, mine = self.caps, self.total, self.open[address]
        if total >= caps.sessions:
            return Refusal(f"The arcade is full: {total} session{'s' if total != 1 else ''} open, "
                           f"{caps.sessions} at most. Try again in a few minutes.",
                           f"full ({total} session{'s' if total != 1 else ''} open, {caps.sessions} at most)")
        if mine >= caps.per_address:
            return Refusal(f"Your machine ({address}) already has {mine} arcade{'s' if mine != 1 else ''} open, "
                           f"{caps.per_address} at most from one machine. Close one (its browser tab) "
                           "or try again later.",
                           f"{mine} session{'s' if mine != 1 else ''} open from it, "
                           f"{caps.per_address} at most from one address")
        return None

    def admit(self, address: str) -> Refusal | None:
        """Count a new session from ``address``, or say why not."""
        refused = self.refusal(address)
        if refused is None:
            self.open[address] += 1
        return refused

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


# -- the budget --------------------------------------------------------------------------------

@dataclass
class Budget:
    """A session's processes' budget: ``memory`` bytes of address space each (``RLIMIT_AS``),
    its cgroups where they could be made, and ``nproc`` (``RLIMIT_NPROC``) where no ``pids``
    cgroup holds its processes."""

    memory: int
    cgroup: BotCgroup | None = None
    nproc: int | None = None

    def enter(self) -> None:
        """In the app's process before it runs anything (``preexec_fn``): join the cgroups,
        lower the limits (never above what the server itself was given)."""
        if self.cgroup is not None:
            self.cgroup.join()
        _lower(resource.RLIMIT_AS, self.memory)
        if self.nproc is not None:
            _lower(resource.RLIMIT_NPROC, self.nproc)

    def kill(self) -> None:
        if self.cgroup is not None:
            self.cgroup.kill()

    def remove(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None


def _lower(limit: int, value: int) -> None:
    try:
        _soft, hard = resource.getrlimit(limit)
        cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(limit, (cap, cap))
    except (ValueError, OSError):
        pass


def make_budget(caps: Caps) -> Budget:
    """A new session's budget (its cgroups made, where they can be: ``Caps.cgroups``)."""
    cgroup = None
    if caps.cgroups:
        from bots.external.cgroups import BotCgroup

        cgroup = BotCgroup(memory=caps.memory, processes=caps.processes, freezer=False)
        if not cgroup.paths:
            cgroup = None
    pids = cgroup is not None and cgroup.path is not None
    return Budget(caps.memory, cgroup, None if pids else user_tasks() + caps.processes * caps.sessions)


def user_tasks(uid: int | None = None) -> int:
    """The processes and threads this user (``uid``) runs, as ``RLIMIT_NPROC`` counts them
    (those this process can see)."""
    uid = os.getuid() if uid is None else uid
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = dict(line.split(":", 1) for line in Path(entry.path, "status").read_text().splitlines()
                          if ":" in line)
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields["Threads"])
        except (OSError, KeyError, ValueError, IndexError):
            continue
    return count


def budget_words(caps: Caps) -> str:
    """How the budget holds here, for the server's first lines: made once as a probe."""
    budget = make_budget(caps)
    try:
        cgroup = budget.cgroup
        memory = (f"{caps.memory >> 20} MiB of memory for all its processes (memory cgroup)"
                  if cgroup is not None and cgroup.memory is not None
                  else f"{caps.memory >> 20} MiB of memory a process (RLIMIT_AS; no memory cgroup here)")
        if cgroup is not None and cgroup.path is not None:
            processes = f"{caps.processes} processes and threads (pids cgroup)"
        elif os.geteuid() == 0:
            processes = "its processes not counted (root, and no pids cgroup here)"
        else:
            processes = (f"the user's processes and threads held to {caps.processes} × {caps.sessions} "
                         "more than when it starts (RLIMIT_NPROC; no pids cgroup here)")
        return f"{memory}, {processes}"
    finally:
        budget.remove()


# -- a session's app ---------------------------------------------------------------------------

class SessionApp(AppService):
    """``textual-serve``'s app process, started in its ``budget``, without a shell, in a session
    of its own (its process group is killed with it), and stopped for sure (``stop``)."""

    def __init__(self, command: str, *, budget: Budget, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.budget = budget

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["MALLOC_ARENA_MAX"] = "2"  # each thread's 64 MiB arena would count in RLIMIT_AS
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True, preexec_fn=self.budget.enter)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def stop(self) -> None:
        """Tell the app to quit; kill it and its process group if it has not ended within
        ``STOP_GRACE`` seconds (once it has ended and been reaped its number may be another's,
        so its group is left alone), and whatever is left in its cgroups in any case; remove
        them."""
        process = self._process
        stopping = asyncio.ensure_future(super().stop())
        try:
            async with asyncio.timeout(STOP_GRACE):
                await asyncio.shield(stopping)
                if process is not None:
                    await process.wait()
        except TimeoutError:
            pass
        if process is not None and process.returncode is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.budget.kill()
        try:
            async with asyncio.timeout(STOP_GRACE):
                await stopping
        except TimeoutError:
            stopping.cancel()
        if process is not None:
            await process.wait()
        await asyncio.to_thread(self.budget.remove)


# -- a session ---------------------------------------------------------------------------------

class Session:
    """One browser's arcade on ``server`` (``arcade.web.serve``'s ``ArcadeServer``: its
    ``command``, ``caps``, ``sessions``, ``live``, ``say``)."""

    def __init__(self, server: Any, websocket: web.WebSocketResponse, address: str) -> None:
        self.server = server
        self.websocket = websocket
        self.address = address
        self.app: SessionApp | None = None
        self.last_input = asyncio.get_running_loop().time()
        self.idled = False

    async def run(self, width: int, height: int) -> None:
        budget = await asyncio.to_thread(make_budget, self.server.caps)
        websocket = self.websocket
        self.app = SessionApp(self.server.command, budget=budget, write_bytes=websocket.send_bytes,
                              write_str=websocket.send_str, close=websocket.close,
                              download_manager=self.server.download_manager, debug=self.server.debug)
        try:
            await self.app.start(width, height)
            watchdog = asyncio.create_task(self.watch_idle())
            try:
                await self.relay()
            finally:
                if not self.idled:
                    watchdog.cancel()
                await asyncio.gather(watchdog, return_exceptions=True)
        finally:
            await self.app.stop()

    async def relay(self) -> None:
        """The browser's messages to the app (``textual-serve``'s ``_process_messages``, less
        its traceback on a message that is not one: such a message is dropped)."""
        app = self.app
        assert app is not None
        loop = asyncio.get_running_loop()
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *data = json.loads(message.data)
                if kind == "stdin":
                    self.last_input = loop.time()
                    await app.send_bytes(str(data[0]).encode("utf-8"))
                elif kind == "resize":
                    self.last_input = loop.time()
                    await app.set_terminal_size(int(data[0]["width"]), int(data[0]["height"]))
                elif kind == "ping":
                    await self.websocket.send_json(["pong", data[0]])
                elif kind == "blur":
                    await app.blur()
                elif kind == "focus":
                    await app.focus()
            except (ValueError, TypeError, KeyError, IndexError):
                continue

    async def watch_idle(self) -> None:
        """Close the session once it has had no input for ``Caps.idle`` seconds."""
        loop = asyncio.get_running_loop()
        idle = self.server.caps.idle
        while (left := self.last_input + idle - loop.time()) > 0:
            await asyncio.sleep(left)
        self.idled = True
        self.server.say(f"arcade serve: closed a session of {self.address} after {minutes(idle)} without input")
        text = f"\r\n\r\n  This arcade was closed after {minutes(idle)} without input.\r\n"
        await tell(self.websocket, text, IDLE_PATH, WSCloseCode.GOING_AWAY, b"idle")


async def tell(websocket: web.WebSocketResponse, text: str, path: str, code: int, reason: bytes) -> None:
    """Say ``text`` in the browser's terminal, send the browser to page ``path`` (the page's
    script opens a URL the app asks it to), and close the websocket."""
    try:
        await websocket.send_bytes(text.encode("utf-8"))
        await websocket.send_str(json.dumps(["open_url", {"url": path, "new_tab": False}]))
    except (ConnectionError, RuntimeError):
        pass
    await websocket.close(code=code, message=reason)


async def handle_websocket(server: Any, request: web.Request) -> web.WebSocketResponse:
    """A browser's websocket (``textual-serve``'s ``handle_websocket`` with the caps): refused
    past a cap, else its session, counted until its app's process is gone."""
    websocket = web.WebSocketResponse(heartbeat=HEARTBEAT)
    address = client_address(request)
    refused = server.sessions.admit(address)  # before the handshake: a browser told yes is counted
    try:
        await websocket.prepare(request)
    except BaseException:
        if refused is None:
            server.sessions.release(address)
        raise
    if refused is not None:
        server.say(f"arcade serve: refused a session from {address}: {refused.line}")
        await tell(websocket, f"\r\n\r\n  {refused.message}\r\n", FULL_PATH, WSCloseCode.TRY_AGAIN_LATER, b"full")
        return websocket
    session = Session(server, websocket, address)

    async def run() -> None:
        try:
            await session.run(_size(request, "width", 80), _size(request, "height", 24))
        except Exception as error:  # the app could not start: one line, not a traceback
            server.say(f"arcade serve: a session of {address} failed: {type(error).__name__}: {error}")
        finally:
            server.sessions.release(address)
            server.live.discard(session)

    server.live.add(session)
    task = asyncio.ensure_future(run())
    try:
        await asyncio.shield(task)  # a handler cancelled (the server stopping) still stops its app
    except asyncio.CancelledError:
        await websocket.close()
        raise
    return websocket


def _size(request: web.Request, name: str, default: int) -> int:
    try:
        return max(1, min(1000, int(request.query.get(name, default))))
    except ValueError:
        return default


async def close_all(server: Any) -> None:
    """Close every session's websocket and wait for their apps to stop (the server stopping)."""
    await asyncio.gather(*(session.websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                           for session in list(server.live)), return_exceptions=True)
    deadline = asyncio.get_running_loop().time() + 3 * STOP_GRACE
    while server.live and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)


# -- the pages ---------------------------------------------------------------------------------

def full_page(refused: Refusal | None) -> web.Response:
    """The page of a browser past a cap (503, try again in a minute), or, once there is room
    again, a page that says so."""
    if refused is None:
        return _page("The arcade has room now", "A place has come free.", "Start", 200)
    response = _page("The arcade is full", refused.message, "Try again", 503)
    response.headers["Retry-After"] = "60"
    return response


def idle_page(caps: Caps) -> web.Response:
    return _page("This arcade was closed",
                 f"It was closed after {minutes(caps.idle)} without input, to make room for others.",
                 "Start a new one", 200)


def _page(title: str, message: str, action: str, status: int) -> web.Response:
    text = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/svg+xml" href="/favicon.svg">
  <title>{html.escape(title)} · Contest Arcade</title>
  <style>
    body {{ background: #0c181f; color: rgba(255, 255, 255, 0.95); font-family: menlo, monospace;
           display: flex; align-items: center; justify-content: center; min-height: 90vh; margin: 0; }}
    main {{ background: #12232d; padding: 32px; max-width: 640px; text-align: center; }}
    a {{ display: inline-block; margin-top: 16px; padding: 12px 28px; background: #5e0ba7; color: inherit;
         text-decoration: none; }}
    a:hover {{ background: #ac5af4; }}
  </style>
</head>
<body>
  <main>
    <h1>{html.escape(title)}</h1>
    <p id="message">{html.escape(message)}</p>
    <a href="/">{html.escape(action)}</a>
  </main>
</body>
</html>
"""
    return web.Response(text=text, status=status, content_type="text/html", headers={"Cache-Control": "no-store"})
