"""A bot gets no CPU outside its own turn: between its answers every one of its processes is
frozen, so it cannot think on the opponent's time (a pondering thread) or slow the opponent down
(spinners it started, in a session of their own or not).

``Freezer`` stops a bot's processes after each answer (and once its file is loaded) and lets
them go on just before the next request, before the arcade's clock for that move starts. Two
ways, the first that works here:

``cgroup``
    The bot's cgroup's freezer (``cgroups.BotCgroup``: root only, cgroup v2's
    ``cgroup.freeze`` or v1's ``freezer``). Every process the bot ever started is in it and none
    can leave it; nothing the bot does changes that.
``signals``
    ``SIGSTOP`` to each of the bot's processes, found in ``/proc`` as the tree under its first
    process, again until a look finds each stopped or with its ``SIGSTOP`` pending (it runs none
    of its code before it stops), then ``SIGCONT`` to each. In the sandbox the
    tree is the bot's whole PID namespace: a process that leaves its parent (a double fork) is
    adopted by the namespace's first process, bwrap's, which is in the tree. Without the sandbox
    the processes of the bot's session are added; a process that both leaves the tree and makes
    a session of its own is out of reach there (nothing contains an uncontained bot). A process
    the bot traces (``ptrace``) stops for its tracer, which may let it go on until the tracer is
    stopped too (the looks go on for up to ``STOP_WAIT``); the cgroup's freezer holds both at once.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from bots.external.cgroups import BotCgroup

STOP_WAIT = 0.5
"""Seconds ``stop_all`` goes on looking for running processes at most."""


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (``[0]`` is the state), or ``None``."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except (OSError, ValueError):
        return None


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from ``/proc`` (each thread's children)."""
    found, todo, seen = [], [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                todo.extend(int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split())
        except (OSError, ValueError):
            continue
    return found


def session(sid: int) -> list[int]:
    """The processes of session ``sid`` (a full look through ``/proc``)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and len(fields) > 3 and fields[3] == str(sid):
                found.append(int(entry))
    return found


class Freezer:
    """Stops and resumes every process of one bot: ``pid`` is its first process (the one the
    arcade started), ``cgroup`` its cgroups (their freezer is used where there is one) and
    ``whole_session`` adds the processes of ``pid``'s session to the tree (without the sandbox)."""

    def __init__(self, pid: int, cgroup: BotCgroup | None = None, whole_session: bool = False) -> None:
        self.pid = pid
        self.cgroup = cgroup
        self.whole_session = whole_session
        self.frozen = False
        self.stopped: dict[int, str] = {}  # pid: its start time (a pid used again is not resumed)

    @property
    def method(self) -> str:
        """``cgroup`` or ``signals`` (see the module)."""
        return "cgroup" if self.cgroup is not None and self.cgroup.freezer is not None else "signals"

    def members(self, roots: list[int] | None = None) -> list[int]:
        """The bot's processes: the trees under ``roots`` (default: its first process and, without
        the sandbox, every process of its session, a full look through ``/proc``)."""
        if roots is None:
            roots = [self.pid] + (session(self.pid) if self.whole_session else [])
        found: dict[int, None] = {}
        for root in roots:
            if root not in found:
                found.update(dict.fromkeys(tree(root)))
        return list(found)

    def freeze(self) -> None:
        """Stop every process of the bot (they use no CPU until ``thaw``)."""
        if self.frozen:
            return
        self.frozen = True
        if self.method == "cgroup" and self.cgroup.freeze():
            return
        roots = self.members()  # the session's look, once; then the trees under what it found
        self.stopped.update(stop_all(lambda: self.members(roots)))

    def thaw(self) -> None:
        """Let every process of the bot go on."""
        if not self.frozen:
            return
        self.frozen = False
        if self.cgroup is not None:
            self.cgroup.thaw()
        for pid in self._still_ours():
            _signal(pid, signal.SIGCONT)
        self.stopped = {}

    def _still_ours(self) -> list[int]:
        """The processes ``freeze`` stopped that still run under their pid (not one used again)."""
        found = []
        for pid, start in self.stopped.items():
            fields = _stat(pid)
            if fields is not None and len(fields) > 19 and fields[19] == start:
                found.append(pid)
        return found

    def kill(self) -> None:
        """``SIGKILL`` every process of the bot, frozen or not, then let the frozen ones go on to
        die (a stopped process dies of ``SIGKILL`` at once; one frozen by cgroup v1, once thawed)."""
        if self.cgroup is not None:
            self.cgroup.kill()
        for pid in self.members():
            _signal(pid, signal.SIGKILL)
        for pid in self._still_ours():
            _signal(pid, signal.SIGKILL)
        self.frozen = False
        self.stopped = {}


def stop_all(members, wait: float = STOP_WAIT) -> dict[int, str]:
    """``SIGSTOP`` every process ``members()`` lists, looking again until a look finds each
    stopped or with its ``SIGSTOP`` pending (a process can fork between a look and its signal:
    the next look finds the child), for up to ``wait`` seconds; the processes signalled, with
    their start times."""
    stopped: dict[int, str] = {}
    signalled: set[int] = set()
    deadline = time.monotonic() + wait
    pause = 0.0002
    while True:
        running = []
        for pid in members():
            fields = _stat(pid)
            if fields is not None and len(fields) > 19 and fields[0] not in "TtZXx":
                stopped.setdefault(pid, fields[19])
                if pid not in signalled or not _stop_pending(pid):
                    running.append(pid)
        if not running or time.monotonic() > deadline:
            return stopped
        for pid in running:
            _signal(pid, signal.SIGSTOP)
            signalled.add(pid)
        time.sleep(pause)
        pause = min(pause * 2, 0.005)


def _stop_pending(pid: int) -> bool:
    """Whether ``pid`` has a ``SIGSTOP`` pending: it runs none of its code before it stops (a
    loaded machine may not have given it the CPU to stop yet)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    bit = 1 << (signal.SIGSTOP - 1)
    for line in status.splitlines():
        if line.startswith(("ShdPnd:", "SigPnd:")) and int(line.split()[1], 16) & bit:
            return True
    return False


def stopped_or_stopping(pid: int) -> bool:
    """Whether ``pid`` is stopped (``T``, or ``t`` under a tracer) or has a ``SIGSTOP`` pending."""
    fields = _stat(pid)
    return fields is not None and (fields[0] in "Tt" or _stop_pending(pid))


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except OSError:
        pass
