"""A file bot's log: whatever its process prints (Python or C level, or its own subprocesses),
kept in a file of its own, never on the arcade's terminal or in ``--json``.

Logs are evidence, so:

- each bot identity (its folder, file and function) has its own log, named ``log_name``: the
  file, the function, the folder and a digest of the three, in characters safe in a file name;
  two students' ``bot.py`` never share one;
- only the arcade writes a line at the start of a line: its header (``=== … ===``) when a process
  starts and its notes (``[… …]``). Every line the bot prints is written after ``| ``, its control
  characters (escape sequences, carriage returns, the bidirectional overrides) written as escapes,
  so a bot cannot forge a header, a note, or another identity's traceback, in a file or on the
  terminal that shows it;
- a log rolls over (``roll_over``) only when a match starts, keeping ``LOG_GENERATIONS`` old logs,
  and never while a match writes in the oldest one: a match's own lines are never deleted. A match
  caps what it writes (``LOG_MATCH_MAX``) with a line saying so, and each process's output
  (``LOG_HEAD``, ``LOG_TAIL``).
"""

from __future__ import annotations

import codecs
import fcntl
import hashlib
import os
import re
import threading
import weakref
from datetime import datetime, timezone
from pathlib import Path

from bots.external import safe_files

LOG_ROLLOVER = 8 << 20
"""A log past this size (bytes) when a match starts is moved to ``*.log.1`` (the older ones to
``.2`` and on, up to ``LOG_GENERATIONS``)."""
LOG_GENERATIONS = 5
"""Old logs kept beside the current one (``*.log.1`` … ``*.log.5``)."""
LOG_MATCH_MAX = 16 << 20
"""Bytes of the bots' output a match writes in a log at most (then a line says the rest is cut)."""

LOG_HEAD = 64 << 10
LOG_TAIL = 64 << 10
"""A bot process's log keeps the first and the last 64 KiB of what it printed."""

PREFIX = "| "
"""What every line of the bot's output starts with in its log (the arcade's own lines never do)."""

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_-]+")


def log_dir() -> Path:
    """Where bots' logs go: ``$ARCADE_BOT_LOGS``, else ``$XDG_STATE_HOME/contest-arcade/bot-logs``."""
    if os.environ.get("ARCADE_BOT_LOGS"):
        return Path(os.environ["ARCADE_BOT_LOGS"])
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "contest-arcade" / "bot-logs"


def _safe(text: str, longest: int = 40) -> str:
    return _UNSAFE_NAME.sub("_", text)[:longest].strip("_") or "_"


def log_name(path: Path, function: str, file: str | None = None) -> str:
    """The log file's name of the bot ``function`` in file ``path``: ``file.function.folder-digest.log``
    (``file`` the file's stem unless given: a package's name), the digest of the resolved folder,
    the file's name and the function (the identity), the readable parts cut to letters, digits,
    ``_`` and ``-`` (no folder name leads anywhere else)."""
    resolved = Path(os.path.abspath(path)).resolve()
    identity = "\0".join((str(resolved.parent), resolved.name, function))
    digest = hashlib.sha256(identity.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{_safe(file or resolved.stem)}.{_safe(function)}.{_safe(resolved.parent.name)}-{digest}.log"


def clean(text: str) -> str:
    """``text`` with its control characters (but new lines and tabs) written as escapes."""
    return _CONTROLS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def log_header(path: Path, function: str, game_id: str, sandbox: str, memory: str = "") -> str:
    """The arcade's line that opens a process's part of the log: when, which bot, whether
    contained, and how its memory cap holds (``cgroups.memory_mode``'s words)."""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    contained = "in the bwrap sandbox" if sandbox == "bwrap" else "NOT contained (no sandbox)"
    held = f" · memory: {memory}" if memory else ""
    return clean(f"=== {stamp} · {path}:{function} · {game_id} · {contained}{held} ===") + "\n"


def _locked(folder: int, name: str) -> bool:
    """Whether a live match writes in the log ``name`` of the log folder open as ``folder`` (it
    holds a shared lock on it)."""
    try:
        fd = safe_files.open_regular_at(folder, name, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def roll_over(path: Path, generations: int = LOG_GENERATIONS) -> None:
    """Make the log's folder; a log past ``LOG_ROLLOVER`` becomes ``*.log.1``, ``.1`` becomes
    ``.2`` and so on, the oldest past ``generations`` deleted, unless a live match still writes in
    that one: then nothing moves (the log grows, each match capped). Called when a match starts.
    Every name is looked at and renamed in the folder's descriptor (``safe_files``): a link
    planted under a log's name is moved as a name, never followed."""
    try:
        folder = safe_files.make_folders(path.parent)
    except OSError:
        return
    try:
        info = safe_files.stat_at(folder, path.name)
        if info is None or info.st_size <= LOG_ROLLOVER:
            return
        old = [f"{path.name}.{n}" for n in range(1, generations + 1)]
        if _locked(folder, old[-1]):
            return
        for newer, older in zip(reversed(old[:-1]), reversed(old[1:])):
            if safe_files.stat_at(folder, newer) is not None:
                safe_files.rename_at(folder, newer, older)
        safe_files.rename_at(folder, path.name, old[0])
    except OSError:
        pass
    finally:
        os.close(folder)


class BotLog:
    """One bot identity's log for one match: opened on the first write, a shared lock held on
    it while open (so no other match's rollover deletes it), its writes serialised (each process
    of the match has its ``LogPump``), at most ``LOG_MATCH_MAX`` bytes of the bot's output."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.fd: int | None = None
        self.written = 0
        self.full = False
        self.at_line_start = True

    def _open(self) -> int:
        """The log's descriptor, opened for appending, never blocking (a FIFO) nor anything but a
        regular file: one that cannot be opened drops the output (``os.devnull``) rather than stop
        the bot (a run's pre-flight, ``bots.registry.log_folder_problem``, said so before any game)."""
        if self.fd is None:
            try:
                folder = safe_files.make_folders(self.path.parent)
                try:
                    fd = safe_files.open_regular_at(folder, self.path.name, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                finally:
                    os.close(folder)
                fcntl.flock(fd, fcntl.LOCK_SH)
            except OSError:  # a link, a FIFO, a folder under the log's name; no folder
                fd = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
            self.fd = fd
            self._closer = weakref.finalize(self, os.close, self.fd)  # a log never closed: when collected
        return self.fd

    def _write(self, text: str) -> None:
        """Write to the log; once a write fails (a full disk), the rest of the output is dropped,
        so that the bot never blocks on a full pipe (nor loses its game for our disk)."""
        data = text.encode("utf-8", "backslashreplace")
        try:
            fd = self._open()
            while data:
                data = data[os.write(fd, data):]
        except OSError:
            self.full = True

    def note(self, line: str) -> None:
        """An arcade's line (a header, a note), on a line of its own."""
        with self.lock:
            self._write(("" if self.at_line_start else "\n") + line.rstrip("\n") + "\n")
            self.at_line_start = True

    def output(self, text: str) -> None:
        """The bot's own output (decoded): each line after ``PREFIX``, its controls escaped, within
        the match's cap."""
        with self.lock:
            if self.full or not text:
                return
            if self.written + len(text) > LOG_MATCH_MAX:
                self.full = True
                self._write(("" if self.at_line_start else "\n") + f"[… log cut: this match's output passed "
                            f"{LOG_MATCH_MAX >> 20} MiB; the rest of it is not kept …]\n")
                self.at_line_start = True
                return
            self.written += len(text)
            pieces = []
            for number, part in enumerate(clean(text).split("\n")):
                if number:
                    pieces.append("\n")
                    self.at_line_start = True
                if part:
                    if self.at_line_start:
                        pieces.append(PREFIX)
                        self.at_line_start = False
                    pieces.append(part)
            self._write("".join(pieces))

    def close(self) -> None:
        """Release the log (its lock): the match is over."""
        with self.lock:
            if self.fd is not None:
                self._closer()
                self.fd = None


class LogPump:
    """A bot process's standard output and error, read from a pipe into its ``BotLog``: the first
    ``LOG_HEAD`` bytes as written, then only the last ``LOG_TAIL`` kept, written when the process
    ends after a line saying how much was cut. A bot cannot fill the disk."""

    def __init__(self, log: BotLog, header: str) -> None:
        self.log = log
        self.read_end, self.write_end = os.pipe()
        log.note(header)
        self.decoder = codecs.getincrementaldecoder("utf-8")("backslashreplace")
        self.written = 0
        self.tail = bytearray()
        self.cut = 0
        self.thread = threading.Thread(target=self._pump, name="bot-log", daemon=True)

    def started(self) -> None:
        """The process has the write end: close ours, and start reading."""
        os.close(self.write_end)
        self.thread.start()

    def _take(self, chunk: bytes) -> None:
        room = LOG_HEAD - self.written
        if room > 0:
            self.log.output(self.decoder.decode(chunk[:room]))
            self.written += min(room, len(chunk))
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > LOG_TAIL:
                self.cut += len(self.tail) - LOG_TAIL
                del self.tail[:len(self.tail) - LOG_TAIL]

    def _write(self, data: bytes) -> None:
        """Write to the log; once a write fails (a full disk), the rest of the output is read and
        dropped, so that the bot never blocks on a full pipe (nor loses its game for our disk)."""
        try:
            self.file.write(data)
            self.file.flush()
        except (OSError, ValueError):
            self.file = open(os.devnull, "ab")

    def _pump(self) -> None:
        try:
            while True:
                chunk = os.read(self.read_end, 1 << 16)
                if not chunk:
                    break
                self._take(chunk)
            self.log.output(self.decoder.decode(b"", final=True))
            if self.cut:
                self.log.note(f"[… {self.cut:,} bytes of output cut: the log keeps the first "
                              f"{LOG_HEAD >> 10} KiB and the last {LOG_TAIL >> 10} KiB …]")
                self.decoder.reset()
            self.log.output(self.decoder.decode(bytes(self.tail), final=True))
        except (OSError, ValueError):
            pass
        finally:
            os.close(self.read_end)

    def close(self) -> None:
        """Wait for the pump to write the end of the log (the process is gone)."""
        if self.thread.is_alive():
            self.thread.join(timeout=2)
