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
    """Make the log's folder; rename a log past ``LOG_ROLLOVER`` to ``*.log.1``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.stat().st_size > LOG_ROLLOVER:
            os.replace(path, path.with_name(path.name + ".1"))
    except OSError:
        pass


class LogPump:
    """A bot's standard output and error, read from a pipe into its log file: the first
    ``LOG_HEAD`` bytes of each process as written, then only the last ``LOG_TAIL`` kept, written
    when the process ends after a line saying how much was cut. A bot cannot fill the disk."""

    def __init__(self, path: Path, header: str) -> None:
        self.path = path
        self.read_end, self.write_end = os.pipe()
        self.file = open(path, "ab")
        self.file.write(header.encode())
        self.file.flush()
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
            self.file.write(chunk[:room])
            self.file.flush()
            self.written += min(room, len(chunk))
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > LOG_TAIL:
                self.cut += len(self.tail) - LOG_TAIL
                del self.tail[:len(self.tail) - LOG_TAIL]

    def _pump(self) -> None:
        try:
            while True:
                chunk = os.read(self.read_end, 1 << 16)
                if not chunk:
                    break
                self._take(chunk)
            if self.cut:
                self.file.write(f"\n[… {self.cut:,} bytes of output cut: the log keeps the first "
                                f"{LOG_HEAD >> 10} KiB and the last {LOG_TAIL >> 10} KiB …]\n".encode())
            self.file.write(bytes(self.tail))
            self.file.flush()
        except (OSError, ValueError):
            pass
        finally:
            os.close(self.read_end)
            self.file.close()

    def close(self) -> None:
        """Wait for the pump to write the end of the log (the process is gone)."""
        if self.thread.is_alive():
            self.thread.join(timeout=2)
