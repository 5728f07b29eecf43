"""The cgroups that hold a file bot's processes where the arcade may make them: ``BotCgroup`` (its
processes and threads one count, its memory cap one budget, root's freezer between turns), where
they are made (as root; as a user, in a cgroup delegated to them), how a bot's memory cap holds
here (``memory_mode``, ``process_caps``: one budget, or split over ``SPLIT`` processes) and the
sweep of cgroups left by an arcade that was killed. ``bots.external.sandbox`` says how a bot is
contained and when these apply; ``bots.external.transport`` makes a bot's ``BotCgroup``."""

from __future__ import annotations

import errno
import functools
import os
import signal
import time
from pathlib import Path

PROCESSES = 64
"""Processes (and threads) a bot may run at once."""


FREEZE_WAIT = 0.5
"""Seconds ``BotCgroup.freeze`` waits at most for every process to be frozen."""


class BotCgroup:
    """The cgroups that hold a bot's processes, where the arcade may make them (as root, or in
    a cgroup delegated to the user: ``_delegated_root``): one of the ``pids`` controller that caps
    its processes and threads together at ``PROCESSES`` (``RLIMIT_NPROC`` does not hold root's
    processes, nor an unsandboxed user's apart from the user's others), one of ``memory`` (its cap
    for all of them: ``memory``), and, as root, one with a freezer (``freeze``,
    ``thaw``: cgroup v2's ``cgroup.freeze``, else cgroup v1's ``freezer``) that stops every one
    of them between the bot's turns, whatever sessions or process groups they made. Inside the
    sandbox the bot can neither see nor leave them. ``join()`` runs in the bot's process before
    it starts; ``kill()`` and ``remove()`` after. ``arcade serve`` holds each browser's app the
    same way (``arcade.web.sessions``): its own ``processes`` count, and no freezer."""

    def __init__(self, pids: bool = True, memory: int | None = None, processes: int = PROCESSES,
                 freezer: bool = True, cpu: bool = True) -> None:
        self.path: Path | None = None
        """The ``pids`` cgroup (``None``: none could be made here)."""
        self.freezer: Path | None = None
        """The cgroup whose freezer stops the bot (``None``: none could be made here)."""
        self.freezer_v2 = False
        self.memory: Path | None = None
        """The cgroup whose memory controller holds all of the bot's memory to ``memory`` bytes
        (``None``: no cap asked, or none could be made here: each process's ``RLIMIT_AS`` then)."""
        self.memory_v2 = False
        base = _pids_root() if pids else None
        if base is not None:
            self.path = _make_cgroup(base, {"pids.max": str(processes)})  # processes and threads
        found = _freezer_root() if freezer else None
        if found is not None:
            root, self.freezer_v2 = found
            if self.path is not None and self.path.parent == root:
                self.freezer = self.path  # cgroup v2 with pids: one cgroup does both
            else:
                self.freezer = _make_cgroup(root, {})
        if memory:
            self._cap_memory(memory)
        self.cpu: Path | None = None
        """The file that counts the CPU time of every process of the bot (``cpu_seconds``): one
        of its cgroup v2 cgroups' ``cpu.stat`` (always there, whichever controllers), else a
        cgroup v1 ``cpuacct`` cgroup's ``cpuacct.usage`` made for it; ``None``: none here."""
        self.cpuacct: Path | None = None
        """The cgroup v1 ``cpuacct`` cgroup made for ``cpu`` (``None`` where v2 counts it)."""
        self.cpu = next((p / "cpu.stat" for p in (self.freezer, self.path, self.memory)
                         if p is not None and (p / "cpu.stat").exists()), None)
        if self.cpu is None and cpu:
            root = _cpuacct_root()
            self.cpuacct = _make_cgroup(root, {}) if root is not None else None
            if self.cpuacct is not None:
                self.cpu = self.cpuacct / "cpuacct.usage"

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user and system) all of the bot's processes used, ended ones included,
        from one read of its cgroup (``cpu``): microseconds on v2, nanoseconds on v1; ``None``
        where there is no such file or it cannot be read."""
        if self.cpu is None:
            return None
        try:
            with open(self.cpu, "rb") as counter:
                text = counter.read(256)
            if self.cpuacct is not None:
                return int(text) / 1e9
            key, _, value = text.partition(b"\n")[0].partition(b" ")
            return int(value) / 1e6 if key == b"usage_usec" else None
        except (OSError, ValueError):
            return None

    def _cap_memory(self, memory: int) -> None:
        """One memory budget for every process of the bot: anonymous, shared, ``memfd``, tmpfs
        and page cache it dirties, no swap; on cgroup v2 its processes are the OOM victims as a
        group (``memory.oom.group``), on v1 the arcade kills the group once one was."""
        found = memory_root()
        if found is None:
            return
        root, self.memory_v2 = found
        if self.memory_v2:
            settings = {"memory.max": str(memory), "memory.oom.group": "1"}
            if (root / "memory.swap.max").exists() or not (root / "memory.max").exists():
                settings["memory.swap.max"] = "0"  # absent where swap is not accounted: no swap to hold
            shared = next((p for p in (self.path, self.freezer) if p is not None and p.parent == root), None)
            if shared is not None and _write_all(shared, settings):
                self.memory = shared
                return
        else:
            settings = {"memory.limit_in_bytes": str(memory)}
            if (root / "memory.memsw.limit_in_bytes").exists():
                settings["memory.memsw.limit_in_bytes"] = str(memory)  # after the first: never below it
        self.memory = _make_cgroup(root, settings)

    def memory_exceeded(self) -> bool:
        """Whether the kernel killed a process of the bot for its memory cgroup's cap (its
        ``oom_kill`` count, v2's ``memory.events``, v1's ``memory.oom_control``)."""
        if self.memory is None:
            return False
        name = "memory.events" if self.memory_v2 else "memory.oom_control"
        try:
            for line in (self.memory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key in ("oom_kill", "oom_group_kill") and int(value) > 0:
                    return True
        except (OSError, ValueError):
            pass
        return False

    @property
    def paths(self) -> list[Path]:
        return list(dict.fromkeys(p for p in (self.path, self.freezer, self.memory, self.cpuacct) if p is not None))

    def join(self) -> None:
        for path in self.paths:
            try:
                (path / "cgroup.procs").write_text(str(os.getpid()))
            except OSError:
                pass

    def freeze(self, wait: float = FREEZE_WAIT) -> bool:
        """Freeze every process in the cgroup; ``True`` once all are frozen (or ``wait`` seconds
        passed: a process in an uninterruptible wait in the kernel, which uses no CPU there).
        ``False`` when there is no freezer here (or it cannot be written)."""
        if self.freezer is None:
            return False
        name, value, done = (("cgroup.freeze", "1", "frozen 1") if self.freezer_v2
                             else ("freezer.state", "FROZEN", "FROZEN"))
        state = self.freezer / ("cgroup.events" if self.freezer_v2 else "freezer.state")
        try:
            (self.freezer / name).write_text(value)
            deadline = time.monotonic() + wait
            pause = 0.0002
            while done not in state.read_text() and time.monotonic() < deadline:
                time.sleep(pause)
                pause = min(pause * 2, 0.005)
            return True
        except OSError:
            return False

    def thaw(self) -> None:
        if self.freezer is not None:
            try:
                (self.freezer / ("cgroup.freeze" if self.freezer_v2 else "freezer.state")).write_text(
                    "0" if self.freezer_v2 else "THAWED")
            except OSError:
                pass

    def kill(self) -> None:
        """``SIGKILL`` every process in the cgroups, then thaw them (a process frozen by cgroup
        v1's freezer dies only once thawed; it runs none of its code before)."""
        for path in self.paths:
            try:
                for pid in (path / "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            except OSError:
                pass
        self.thaw()

    def remove(self, wait: float = 2.0) -> None:
        """Remove the cgroups once their processes are gone. The arcade's wait ends with bwrap's,
        when the bot's PID namespace may still be dying (a removal then fails with ``EBUSY`` and
        would leave one cgroup a bot behind), so kill what is left in them and retry for up to
        ``wait`` seconds."""
        deadline = time.monotonic() + wait
        for path in self.paths:
            while True:
                try:
                    path.rmdir()
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                        break
                self.kill()
                time.sleep(0.01)
        self.path = self.freezer = self.memory = self.cpuacct = self.cpu = None


def _write_all(path: Path, settings: dict[str, str]) -> bool:
    try:
        for name, value in settings.items():
            (path / name).write_text(value)
        return True
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def memory_root() -> tuple[Path, bool] | None:
    """Where to make bots' memory cgroups, and whether it is cgroup v2: as root, cgroup v2 with
    ``memory`` (enabled for its children), else cgroup v1's ``memory`` hierarchy; as a user, a
    cgroup delegated to the user (``_delegated_root``). ``None``: each process's ``RLIMIT_AS``
    (``process_caps``)."""
    if os.geteuid() != 0:
        return _delegated_root("memory")
    return _first_root("memory", ("memory.max", "memory.limit_in_bytes"))


SPLIT = 3
"""The processes a sandboxed bot may have at once where no memory cgroup holds them together
(``process_caps``): each gets ``1/SPLIT`` of the memory cap, so together they hold the cap."""


def memory_mode(sandbox: str = "bwrap", cgroup: "BotCgroup | None" = None) -> str:
    """How a bot's memory cap holds here for a bot in ``sandbox`` (``bwrap`` or ``none``), in
    a few words (the log's header, ``--plan``, the setup screen): ``one budget (cgroup v1)``,
    ``(cgroup v2)`` or ``(delegated cgroup v2)``: every process of the bot and everything they
    hold together; else, in the sandbox, ``split: 3 processes × 1/3 of the cap`` (``SPLIT``,
    ``RLIMIT_NPROC`` and ``RLIMIT_AS``: their address spaces hold the cap, not ``memfd`` or tmpfs
    files); else ``per process, processes not counted`` (nothing holds the total). With
    ``cgroup``, the bot's own (whether its memory cgroup could be made)."""
    found = memory_root()
    if cgroup is not None and cgroup.memory is None:
        found = None
    if found is not None:
        delegated = "delegated " if os.geteuid() != 0 else ""
        return f"one budget ({delegated}cgroup v{2 if found[1] else 1})"
    if sandbox == "bwrap":
        return f"split: {SPLIT} processes × 1/{SPLIT} of the cap (no memory cgroup)"
    return "per process, processes not counted (no memory cgroup)"


def process_caps(memory: int | None, bwrap: bool, cgroup: "BotCgroup | None") -> tuple[int | None, int | None]:
    """The bot's process's own ``RLIMIT_AS`` and ``RLIMIT_NPROC`` (``child.set_caps``) for a
    memory cap of ``memory`` bytes: where its memory cgroup holds all of its processes, the cap
    and ``PROCESSES``; else, in the sandbox, ``1/SPLIT`` of the cap each and ``SPLIT`` processes
    (``RLIMIT_NPROC`` counts the sandbox's tasks: bwrap's first process, one more, and threads
    too, so ``SPLIT`` address spaces of the bot's at most); else (no sandbox, no cgroup) the cap
    each, the processes not counted (``RLIMIT_NPROC`` would count all of the user's)."""
    held = cgroup is not None and cgroup.memory is not None
    if not bwrap:
        return memory, None
    if held or not memory:
        return memory, PROCESSES
    return memory // SPLIT, SPLIT + 1


def _owned(path: Path) -> bool:
    """Whether ``path`` is this user's to write (a delegated cgroup's folder or file is chowned
    to the user it is delegated to)."""
    try:
        return path.stat().st_uid == os.geteuid() and os.access(path, os.W_OK)
    except OSError:
        return False


def _own_cgroup(controller: str) -> str | None:
    """The arcade's own cgroup of ``controller``'s hierarchy (``""``: cgroup v2's), from
    ``/proc/self/cgroup``; ``None`` where it is in none."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def _delegated_root(controller: str) -> tuple[Path, bool] | None:
    """A user's place for bots' cgroups of ``controller`` (``memory``, ``pids``): the cgroup
    closest to the arcade's own that contains it and is delegated to the user (its folder and
    ``cgroup.procs`` theirs, as systemd makes ``user@UID.service`` and what runs under it), on
    cgroup v2 one that gives ``controller`` to its children (``cgroup.subtree_control``); the
    bots' cgroups go in its ``contest-arcade``. ``None`` where there is none."""
    for base, v2 in ((Path("/sys/fs/cgroup"), True), (Path("/sys/fs/cgroup/unified"), True),
                     (Path("/sys/fs/cgroup") / controller, False)):
        own = _own_cgroup("" if v2 else controller)
        try:
            if own is None or (v2 and controller not in (base / "cgroup.controllers").read_text().split()):
                continue
        except OSError:
            continue
        here = base / own.strip("/")
        while here == base or base in here.parents:
            found = _delegation(here, controller, v2)
            if found is not None:
                return found, v2
            if here == base:
                break
            here = here.parent
    return None


def _delegation(here: Path, controller: str, v2: bool) -> Path | None:
    """``here/contest-arcade`` ready for bots' cgroups, when ``here`` is delegated to this user
    (and on cgroup v2 gives ``controller`` to its children); else ``None``."""
    if not (_owned(here) and _owned(here / "cgroup.procs")):
        return None
    try:
        if v2 and controller not in (here / "cgroup.subtree_control").read_text().split():
            return None
        root = here / "contest-arcade"
        root.mkdir(exist_ok=True)
        if v2:
            given = set((root / "cgroup.controllers").read_text().split())
            (root / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in ("memory", "pids") if c in given))
        probe = _make_cgroup(root, {})
        if probe is None:
            return None
        knob = "pids.max" if controller == "pids" else "memory.max" if v2 else "memory.limit_in_bytes"
        works = (probe / knob).exists()
        probe.rmdir()
    except OSError:
        return None
    if works:
        _sweep(root)
        return root
    return None


def _make_cgroup(base: Path, settings: dict[str, str]) -> Path | None:
    """A new cgroup under ``base`` for one bot, with ``settings`` written; ``None`` if it cannot be."""
    try:
        path = base / f"bot-{os.getpid()}-{os.urandom(4).hex()}"
        path.mkdir(parents=True)
    except OSError:
        return None
    try:
        for name, value in settings.items():
            (path / name).write_text(value)
    except OSError:
        try:
            path.rmdir()
        except OSError:
            pass
        return None
    return path


def _sweep(root: Path) -> None:
    """Remove the cgroups that arcades now gone left under ``root`` (an arcade killed with
    ``SIGKILL`` cleans nothing up): ``bot-PID-…`` of a PID that no longer runs, made over a
    minute ago (an arcade in another PID namespace may be about to join a new one). What is left
    in one is killed and thawed first: a bot frozen by cgroup v1's freezer when its arcade died
    would otherwise wait there for ever, since a frozen process dies only once thawed."""
    try:
        names = [entry.name for entry in root.iterdir() if entry.name.startswith("bot-")]
    except OSError:
        return
    for name in names:
        try:
            os.kill(int(name.split("-")[1]), 0)
            continue  # its arcade still runs
        except ProcessLookupError:
            pass
        except (OSError, ValueError, IndexError):
            continue
        path = root / name
        try:
            if path.stat().st_mtime >= time.time() - 60:
                continue
        except OSError:
            continue
        for procs, thaw, value in (("cgroup.procs", "cgroup.freeze", "0"), ("cgroup.procs", "freezer.state", "THAWED")):
            try:
                for pid in (path / procs).read_text().split():
                    os.kill(int(pid), signal.SIGKILL)
                if (path / thaw).exists():
                    (path / thaw).write_text(value)
            except (OSError, ValueError):
                pass
        try:
            path.rmdir()
        except OSError:
            pass  # its processes are still dying: the next sweep removes it


@functools.lru_cache(maxsize=1)
def _pids_root() -> Path | None:
    """Where to make bots' pids cgroups: as root, cgroup v1's ``pids`` hierarchy or v2 with
    ``pids``; as a user, a delegated cgroup (``_delegated_root``). Elsewhere a sandboxed bot is
    held by ``RLIMIT_NPROC``, counted in its own user namespace."""
    if os.geteuid() != 0:
        found = _delegated_root("pids")
        return found[0] if found is not None else None
    v1 = Path("/sys/fs/cgroup/pids")
    v2 = Path("/sys/fs/cgroup")
    for base, v2_style in ((v1, False), (v2, True)):
        try:
            if v2_style and "pids" not in (base / "cgroup.controllers").read_text().split():
                continue
            if not (base / "cgroup.procs").exists():
                continue
            root = base / "contest-arcade"
            root.mkdir(exist_ok=True)
            if v2_style:
                (root / "cgroup.subtree_control").write_text("+pids")
            _sweep(root)
            return root
        except OSError:
            continue
    return None


@functools.lru_cache(maxsize=1)
def _cpuacct_root() -> Path | None:
    """Where to make bots' cgroup v1 ``cpuacct`` cgroups (root only; where no cgroup v2 of the
    bot's counts its CPU): the ``cpuacct`` hierarchy's ``contest-arcade``, if it works here."""
    if os.geteuid() != 0:
        return None
    for name in ("cpuacct", "cpu,cpuacct"):
        base = Path("/sys/fs/cgroup") / name
        try:
            if not (base / "cpuacct.usage").exists():
                continue
            root = base / "contest-arcade"
            root.mkdir(exist_ok=True)
            _sweep(root)
            return root
        except OSError:
            continue
    return None


@functools.lru_cache(maxsize=1)
def _freezer_root() -> tuple[Path, bool] | None:
    """Where to make bots' freezer cgroups, and whether it is cgroup v2: root only (a user's
    cgroups are not the arcade's to make); cgroup v2 (``/sys/fs/cgroup``, or
    ``/sys/fs/cgroup/unified`` beside v1) where its ``cgroup.freeze`` exists (Linux 5.2), else
    cgroup v1's ``freezer`` hierarchy. ``None``: bots are stopped with signals instead."""
    if os.geteuid() != 0:
        return None
    return _first_root(None, ("cgroup.freeze", "freezer.state"), v1="freezer")


def _first_root(controller: str | None, markers: tuple[str, str], v1: str | None = None) -> tuple[Path, bool] | None:
    """The arcade's cgroup folder (``contest-arcade``, swept of old bots' cgroups) under the first
    hierarchy that works as root: cgroup v2 (``/sys/fs/cgroup``, or ``/sys/fs/cgroup/unified``
    beside v1) with ``controller`` enabled for its children (``None``: a core feature such as the
    freeze), else cgroup v1's hierarchy of that name; it works when a probe cgroup made there has
    ``markers`` (v2's file, v1's file). ``None`` when none does."""
    for base, v2 in ((Path("/sys/fs/cgroup"), True), (Path("/sys/fs/cgroup/unified"), True),
                     (Path("/sys/fs/cgroup") / (v1 or controller or ""), False)):
        try:
            if v2 and controller not in (base / "cgroup.controllers").read_text().split() + [None]:
                continue
            if not (base / "cgroup.procs").exists():
                continue
            root = base / "contest-arcade"
            root.mkdir(exist_ok=True)
            if v2 and controller is not None:
                (root / "cgroup.subtree_control").write_text(f"+{controller}")
            probe = _make_cgroup(root, {})
            if probe is None:
                continue
            works = (probe / markers[0 if v2 else 1]).exists()
            probe.rmdir()
            if works:
                _sweep(root)
                return root, v2
        except OSError:
            continue
    return None
