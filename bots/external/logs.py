"""A file bot's log: whatever its process prints (Python or C level, or its own subprocesses),
kept in a file per bot and function, never on the arcade's terminal or in ``--json``."""

from __future__ import annotations

import os
import threading
from datetime import datetime, timezone
from pathlib import Path

LOG_ROLLOVER = 8 << 20
"""A bot's log past this size (bytes) is renamed ``*.log.1`` (replacing the previous one) when
the next process starts: logs do not grow without bound across matches."""

LOG_HEAD = 64 << 10
LOG_TAIL = 64 << 10
"""A bot process's log keeps the first and the last 64 KiB of what it printed."""


def log_dir() -> Path:
    """Where bots' logs go: ``$ARCADE_BOT_LOGS``, else ``$XDG_STATE_HOME/contest-arcade/bot-logs``."""
    if os.environ.get("ARCADE_BOT_LOGS"):
        return Path(os.environ["ARCADE_BOT_LOGS"])
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "contest-arcade" / "bot-logs"


def log_header(path: Path, function: str, game_id: str, sandbox: str) -> str:
    """The line that opens a process's part of the log: when, which bot, and whether contained."""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    contained = "in the bwrap sandbox" if sandbox == "bwrap" else "NOT contained (no sandbox)"
    return f"=== {stamp} · {path}:{function} · {game_id} · {contained} ===\n"


def roll_over(path: Path) -> None:
    """Make the log's folder; rename a log past ``LOG_ROLLOVER`` to ``*.log.1``. A folder that
    cannot be made is no error here (``LogPump`` then drops the output)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.stat().st_size > LOG_ROLLOVER:
            os.replace(path, path.with_name(path.name + ".1"))
    except OSError:
        pass


def _open_log(path: Path):
    """The log opened for appending, never blocking (a FIFO) nor anything but a regular file; a
    log that cannot be opened drops the output (``os.devnull``) rather than stop the bot (a
    run's pre-flight, ``bots.registry.log_folder_problem``, said so before any game)."""
    import stat

    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, 0o666)
    except OSError:
        return open(os.devnull, "ab")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return open(os.devnull, "ab")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "ab")


class LogPump:
    """A bot's standard output and error, read from a pipe into its log file: the first
    ``LOG_HEAD`` bytes of each process as written, then only the last ``LOG_TAIL`` kept, written
    when the process ends after a line saying how much was cut. A bot cannot fill the disk."""

    def __init__(self, path: Path, header: str) -> None:
        self.path = path
        self.read_end, self.write_end = os.pipe()
        self.file = _open_log(path)
        self._write(header.encode())
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
            self._write(chunk[:room])
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
            if self.cut:
                self._write(f"\n[… {self.cut:,} bytes of output cut: the log keeps the first "
                            f"{LOG_HEAD >> 10} KiB and the last {LOG_TAIL >> 10} KiB …]\n".encode())
            self._write(bytes(self.tail))
        except (OSError, ValueError):
            pass
        finally:
            os.close(self.read_end)
            self.file.close()

    def close(self) -> None:
        """Wait for the pump to write the end of the log (the process is gone)."""
        if self.thread.is_alive():
            self.thread.join(timeout=2)
