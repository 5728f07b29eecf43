"""The contest's database (``DIR/contest.db``): the standard library's ``sqlite3`` in WAL mode, so
that the board reads while ``run`` writes and ``submit`` adds, each writer waiting its turn
(a busy timeout) instead of failing.

It is a cache of the evidence (``DIR/submissions.jsonl`` and ``DIR/records/``): everything in it
can be made again from them (``arcade.contest.evidence.rebuild``). Tables:

- ``submissions``: every submission tried, accepted or not (``id`` in arrival order, ``team``,
  ``digest`` of its files, ``entry`` inside them, ``submitted`` ISO time, ``verdict``, ``reason``);
  a team's current submission is its last accepted one.
- ``games``: each game played, by the pair's two digests (``a`` first in odd games) and its
  ``number``; ``winner`` and ``forfeit`` as players (0 = a, 1 = b), ``reason``.
- ``exact``: Hog's exact scoring: ``a``'s win chance against ``b`` over both orders.
- ``tabled``: Hog's exact scoring, each submission asked for its table: its exact win rate against
  ``always_roll(6)`` (``NULL``: it has no table) and ``why`` it is scored by sampled games (``''``:
  exactly); a submission not in it has not been asked yet.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from arcade.contest.config import ContestError

NAME = "contest.db"
BUSY_MS = 60_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, team TEXT NOT NULL, digest TEXT NOT NULL, entry TEXT NOT NULL,
    submitted TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS submissions_team ON submissions (team, verdict);
CREATE TABLE IF NOT EXISTS games (
    a TEXT NOT NULL, b TEXT NOT NULL, number INTEGER NOT NULL, winner INTEGER, forfeit INTEGER,
    reason TEXT NOT NULL, PRIMARY KEY (a, b, number));
CREATE TABLE IF NOT EXISTS exact (a TEXT NOT NULL, b TEXT NOT NULL, chance REAL NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE IF NOT EXISTS tabled (digest TEXT PRIMARY KEY, vs_always_roll_6 REAL, why TEXT NOT NULL);
"""


FULL = 1 << 20
"""Less than this free on the contest's disk is full, for the messages."""


def disk_full(folder: Path) -> str | None:
    """``"N KiB free"`` when the disk holding ``folder`` has less than ``FULL`` free, else ``None``."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    free = stats.f_bavail * stats.f_frsize
    return f"{free // 1024} KiB free" if free < FULL else None


@dataclass(frozen=True)
class Submission:
    id: int
    team: str
    digest: str
    entry: str
    submitted: str
    verdict: str
    reason: str


class Database:
    """The database of the contest in ``folder``, opened (and made, with its tables) in WAL mode.
    A damaged file is a ``ContestError`` saying how to make it again."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.path = Path(folder) / NAME
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise self.problem(exc) from None

    def problem(self, exc: sqlite3.Error) -> ContestError:
        """The one line for a database that failed: full, damaged, not writable. A full disk
        reaches SQLite as "database or disk is full" or, when its WAL or shared-memory file
        cannot grow, "disk I/O error": both are said as the disk's being full when it is."""
        folder = self.path.parent
        full = disk_full(folder)
        if full is not None and ("disk" in str(exc) or "full" in str(exc)):
            return ContestError(f"the contest's database {self.path}: the disk is full ({full}); free some space "
                                f"and run the command again (nothing played or submitted is lost)")
        if isinstance(exc, sqlite3.DatabaseError) and "disk is full" not in str(exc) and not isinstance(
                exc, sqlite3.OperationalError):
            return ContestError(f"the contest's database {self.path} is damaged ({exc}): "
                                f"arcade contest rebuild {folder} makes it again from the records")
        return ContestError(f"the contest's database {self.path}: {exc}")

    def write(self, sql: str, rows=None) -> None:
        """One statement (or, with ``rows``, one statement a row: none for no rows) in one transaction."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                if rows is not None:
                    self.db.executemany(sql, list(rows))
                else:
                    self.db.execute(sql)
        except sqlite3.Error as exc:
            raise self.problem(exc) from None

    def read(self, sql: str, args=()) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self.problem(exc) from None

    def add_submission(self, team: str, digest: str, entry: str, submitted: str, verdict: str,
                       reason: str = "", id: int | None = None) -> int:
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                cursor = self.db.execute(
                    "INSERT INTO submissions (id, team, digest, entry, submitted, verdict, reason) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", (id, team, digest, entry, submitted, verdict, reason))
                assert cursor.lastrowid is not None  # an INSERT's row
                return cursor.lastrowid
        except sqlite3.Error as exc:
            raise self.problem(exc) from None

    def submissions(self) -> list[Submission]:
        return [Submission(*row) for row in self.read(
            "SELECT id, team, digest, entry, submitted, verdict, reason FROM submissions ORDER BY id")]

    def current(self) -> list[Submission]:
        """Each team's current submission (its last accepted one), the newest first."""
        return [Submission(*row) for row in self.read(
            "SELECT id, team, digest, entry, submitted, verdict, reason FROM submissions WHERE id IN "
            "(SELECT MAX(id) FROM submissions WHERE verdict = 'accepted' GROUP BY team) ORDER BY id DESC")]

    def owner(self, digest: str) -> str | None:
        """The team whose accepted submission these files are, if any."""
        rows = self.read("SELECT team FROM submissions WHERE digest = ? AND verdict = 'accepted' LIMIT 1", (digest,))
        return rows[0][0] if rows else None

    def add_games(self, a: str, b: str, games) -> None:
        """Games of pair ``(a, b)`` (``GameRecord``s), each once: one already there is left as it is."""
        self.write("INSERT OR IGNORE INTO games (a, b, number, winner, forfeit, reason) VALUES (?, ?, ?, ?, ?, ?)",
                   [(a, b, g.number, g.winner, g.forfeit, g.reason) for g in games])

    def played(self, a: str, b: str) -> set[int]:
        return {row[0] for row in self.read("SELECT number FROM games WHERE a = ? AND b = ?", (a, b))}

    def counts(self) -> dict[tuple[str, str], int]:
        """Games played by each pair."""
        return {(a, b): n for a, b, n in self.read("SELECT a, b, COUNT(*) FROM games GROUP BY a, b")}

    def games_of(self, digests: set[str], both: bool = True) -> list[tuple]:
        """``(a, b, number, winner, forfeit, reason)`` of every game between two of ``digests``
        (``both=False``: every game of one of them)."""
        rows = self.read("SELECT a, b, number, winner, forfeit, reason FROM games")
        keep = all if both else any
        return [row for row in rows if keep((row[0] in digests, row[1] in digests))]

    def set_exact(self, a: str, b: str, chance: float) -> None:
        self.write("INSERT OR REPLACE INTO exact (a, b, chance) VALUES (?, ?, ?)", [(a, b, float(chance))])

    def exact(self) -> dict[tuple[str, str], float]:
        return {(a, b): chance for a, b, chance in self.read("SELECT a, b, chance FROM exact")}

    def forget_exact(self, digest: str) -> None:
        """No pair of ``digest``'s computed any more (it has no table): they are played."""
        self.write("DELETE FROM exact WHERE a = ? OR b = ?", [(digest, digest)])

    def set_tabled(self, digest: str, vs_always_roll_6: float | None, why: str) -> None:
        self.write("INSERT OR REPLACE INTO tabled (digest, vs_always_roll_6, why) VALUES (?, ?, ?)",
                   [(digest, vs_always_roll_6, why)])

    def tabled(self) -> dict[str, tuple[float | None, str]]:
        """Each submission asked for its table: its win rate against always_roll(6), and why not exact."""
        return {d: (vs, why) for d, vs, why in self.read("SELECT digest, vs_always_roll_6, why FROM tabled")}

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
