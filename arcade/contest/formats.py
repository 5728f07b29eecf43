"""A season's format as one strategy object (``format_of(config)``): what it plays next, how it
scores, which columns its board shows and what its progress line says, so that the runner, the
board model, ``status`` and every view ask the format instead of branching on its name.

- ``AllPairs`` (``format = "all-pairs"``): every two current submissions play ``games_per_pair``
  games; the newest submissions' pairs first, ``BATCH`` pairs at a time. Its option ``exact``
  (``scoring = "exact"``, Hog's ``cs61a-hog`` preset, ``arcade.contest.hog_exact``): a pair whose
  two strategies have exact tables is computed, not played, and counts as its expected wins.
- ``Ladder`` (``format = "ladder"``, ``arcade.contest.ladder``): OpenSkill ratings, each round's
  meetings chosen where a game tells the most, until the stopping rule is met; the score is the
  rating's μ, shown ``μ ± σ``.

A format is asked for:

- ``next_games``: the games the run plays next (``arcade.contest.run.play_batch``);
- ``missing``: the pairs with games missing, ``None`` where the format chooses its games as it goes;
- ``board_data`` and ``score``: what its board needs from the database, and the rows' scores from
  it (``arcade.contest.boardmodel.tally``); ``every_game``: whether a row counts all its games or
  only those against the board's other current submissions;
- ``columns``, ``data_columns``, ``score_column``, ``notes``, ``cross_note``: the board's columns,
  ``--csv``'s fields and what is said under the board and the crosstable;
- ``start_text``, ``progress``, ``played_text``: the run's first line, ``status``'s lines, the
  app's summary;
- ``table_seconds``: the time a submission's table may take at its admission (exact scoring).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from arcade.contest import boardparts as m
from arcade.contest.boardparts import Cell, Column, Row

if TYPE_CHECKING:
    from arcade.contest.config import Config
    from arcade.contest.db import Database, Submission

Wanted = list[tuple[tuple[str, str], "set[int]"]]
"""The games to play: each pair (two digests) and its games' numbers."""

BATCH = 32
"""Pairs played at a time (their record files open together)."""


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


class Format:
    """What every format shares (the module's docstring); a subclass sets ``name`` and ``per``."""

    name = ""
    per = "a pair"
    """What ``games_per_pair`` counts: the games of ``per``."""
    every_game = False

    def __init__(self, config: Config) -> None:
        self.config = config

    @property
    def exact(self) -> bool:
        """Hog's exact scoring (``scoring = "exact"``): an option of all pairs alone."""
        return False

    def kind(self) -> str:
        """The season's kind as a title says it: its game (``othello ladder``)."""
        return self.config.game

    @property
    def table_seconds(self) -> float | None:
        return None

    # the games -----------------------------------------------------------------------------

    def missing(self, db: Database, current: list[Submission]) -> list[tuple[str, str]] | None:
        return None

    def next_games(self, folder: Path, db: Database, current: list[Submission], secret: int,
                   say: Callable[[str], None], limits, helpers: dict | None = None) -> tuple[Wanted, bool]:
        """The games to play next, and whether anything else was done (tables asked, pairs
        computed): nothing to play and nothing done is a season with nothing left. ``helpers``:
        what the format keeps for the length of a run (exact scoring's ``Asker``), closed by
        ``close``."""
        raise NotImplementedError

    def more_games(self, db: Database, current: list[Submission], scheduled: set[tuple[str, str]],
                   count: int) -> Wanted:
        """Up to ``count`` pairs' games to add to those in play (``scheduled``: every pair the run
        has in hand), asked as the workers run short (``arcade.contest.run.play_pairs``); none
        where the format's next games wait for the ones in play (a ladder's next round)."""
        return []

    def close(self, helpers: dict) -> None:
        """End what ``next_games`` started for the run (``helpers``)."""

    # the board ----------------------------------------------------------------------------

    def board_data(self, folder: Path, db: Database, current: list[str]) -> dict[str, Any]:
        """What ``score`` needs of the database (``boardmodel.build`` reads it, ``tally`` passes it)."""
        return {}

    def score(self, rows: dict[str, Row], cells: dict[tuple[str, str], Cell], data: Mapping[str, Any]) -> None:
        """Each row's score beyond its wins (which it starts as)."""

    def columns(self) -> tuple[Column, ...]:
        return (m.RANK, m.TEAM, self.score_column, m.WINS, m.DRAWS, m.LOSSES, m.GAMES, m.FORFEITS, m.POINTS,
                m.SUBMITTED)

    @property
    def score_column(self) -> Column:
        return m.SCORE

    def data_columns(self) -> tuple[str, ...]:
        return m.DATA

    def notes(self, rows: list[Row], computed: str, vs: str) -> list[str]:
        return []

    def cross_note(self) -> str:
        return ""

    def team_scoring(self, digest: str, data: Mapping[str, Any]) -> str:
        """How a team's current submission is scored, on its page (``""``: as every team)."""
        return ""

    # what is said as it goes --------------------------------------------------------------

    def start_text(self, db: Database, current: list[Submission]) -> str:
        raise NotImplementedError

    def progress(self, folder: Path, db: Database, current: list[Submission]) -> tuple[list[str], int, int]:
        """``status``'s lines on the games, the games left and the pairs (or meetings) they make."""
        raise NotImplementedError

    def played_text(self, played: int, rows: list[Row]) -> str:
        return plural(played, "game")

    def missing_games(self, db: Database, current: list[Submission]) -> list[tuple[tuple[str, str], int]] | None:
        """The pairs with games missing and how many each (``status``'s estimate, each pair at its
        bots' own pace); ``None`` where the format chooses its games as it goes."""
        pairs = self.missing(db, current)
        if pairs is None:
            return None
        counts = db.counts()
        return [(pair, self.config.games - counts.get(pair, 0)) for pair in pairs]


class AllPairs(Format):
    name = "all-pairs"

    @property
    def exact(self) -> bool:
        return self.config.scoring == "exact"

    @property
    def table_seconds(self) -> float | None:
        return self.config.table_seconds if self.exact else None

    def missing(self, db: Database, current: list[Submission]) -> list[tuple[str, str]]:
        """The pairs of current submissions with games missing, the newest submission's first (a
        pair computed exactly is not missing)."""
        from arcade.contest.evidence import pair_of

        counts = db.counts()
        exact = db.exact() if self.exact else {}
        pairs = []
        for i, newer in enumerate(current):
            for older in current[i + 1:]:
                pair = pair_of(newer.digest, older.digest)
                if counts.get(pair, 0) < self.config.games and pair not in exact:
                    pairs.append(pair)
        return pairs

    def next_games(self, folder, db, current, secret, say, limits, helpers=None) -> tuple[Wanted, bool]:
        if not self.exact:
            pairs = self.missing(db, current)[:BATCH]
            return [(pair, set(range(1, self.config.games + 1))) for pair in pairs], False
        return self._next_exactly(folder, db, current, say, limits, {} if helpers is None else helpers)

    def more_games(self, db, current, scheduled, count) -> Wanted:
        """All pairs stream: the next missing pairs (newest submissions first, the ones that
        arrived meanwhile among them) not in hand. Exact scoring plays its batches as they come
        (a pair may wait for its tables)."""
        if self.exact:
            return []
        every = set(range(1, self.config.games + 1))
        return [(pair, every) for pair in self.missing(db, current) if pair not in scheduled][:count]

    def _next_exactly(self, folder, db, current, say, limits, helpers: dict) -> tuple[Wanted, bool]:
        """Exact scoring: every current submission's table asked off the run's thread
        (``hog_exact.Asker``, even one with no pair left to play); a pair whose two tables are in
        is computed, one with a side scored by sampled games (or with games already) is played,
        one waiting for a table waits while the others go on; with nothing else to do, the run
        waits for a table."""
        from arcade.contest.hog_exact import Asker, score_exactly

        asker = helpers.get("asker")
        if asker is None:
            asker = helpers["asker"] = Asker(folder, self.config, limits, say, workers=helpers.get("workers", 2))
        tabled = db.tabled()
        asker.ask(current, tabled)
        collected = asker.collect(db)
        tabled = db.tabled()
        ready = [pair for pair in self.missing(db, current) if pair[0] in tabled and pair[1] in tabled][:BATCH]
        sampled = score_exactly(folder, self.config, db, ready) if ready else []
        computed = len(ready) - len(sampled)
        if computed:
            say(f"computed {plural(computed, 'pair')} exactly")
        if sampled:
            every = set(range(1, self.config.games + 1))
            return [(pair, every) for pair in sampled], True
        if computed or collected:
            return [], True
        if asker.asked:  # nothing else to do: wait for a table not yet in the database (each bounded by its budget)
            return [], asker.collect(db, wait=5.0) > 0 or bool(asker.asked)
        return [], False

    def close(self, helpers: dict) -> None:
        asker = helpers.pop("asker", None)
        if asker is not None:
            asker.close()

    def board_data(self, folder, db, current) -> dict[str, Any]:
        return {"exact": db.exact(), "tabled": db.tabled()} if self.exact else {}

    def score(self, rows, cells, data) -> None:
        """Hog's exact scoring: how each row is scored, and each pair computed from two tables
        counted as its expected wins (its cells too, both ways)."""
        if not self.exact:
            return
        from dataclasses import replace

        games = self.config.games
        tabled = data.get("tabled") or {}
        for row in rows.values():
            vs, why = tabled.get(row.digest, (None, None))
            row.vs_always_roll_6 = vs
            row.scored, row.why = ("pending", "") if why is None else ("sampled" if why else "exact", why)
        for (a, b), chance in (data.get("exact") or {}).items():
            if a not in rows or b not in rows:
                continue
            wins_a, wins_b = round(games * chance, 2), round(games * (1 - chance), 2)
            cells[(a, b)] = replace(cells.get((a, b), Cell()), chance=chance, expected=wins_a, expected_losses=wins_b)
            cells[(b, a)] = replace(cells.get((b, a), Cell()), chance=1 - chance, expected=wins_b, expected_losses=wins_a)
            for digest, wins in ((a, wins_a), (b, wins_b)):
                rows[digest].score = round(rows[digest].score + wins, 2)
                rows[digest].computed += 1

    def columns(self) -> tuple[Column, ...]:
        """Exact scoring's ``vs_always_roll_6`` and ``computed`` after the score and no draws (Hog
        has none: ``scored`` and ``why`` are said under the board)."""
        if not self.exact:
            return super().columns()
        return (m.RANK, m.TEAM, m.SCORE, m.VS, m.COMPUTED, m.WINS, m.LOSSES, m.GAMES, m.FORFEITS, m.POINTS,
                m.SUBMITTED)

    def data_columns(self) -> tuple[str, ...]:
        return m.DATA[:3] + m.EXACT[:2] + m.DATA[3:] + m.EXACT[2:] if self.exact else m.DATA

    def notes(self, rows, computed, vs) -> list[str]:
        """What exact scoring's numbers are, and each team scored by sampled games and why."""
        if not self.exact:
            return []
        from arcade.contest.standings import legend

        return [legend(self.config.games, computed, vs)] + [
            f"{row.team}: scored by sampled games: {row.why}" for row in rows if row.why]

    def cross_note(self) -> str:
        if not self.exact:
            return ""
        return (f"; {m.COMPUTED_MARK}: computed from the two strategies' tables, not played: the expected "
                f"wins–draws–losses over {self.config.games} games (games a pair × the row team's exact win "
                f"chance, each side first in half), as its score counts them")

    def team_scoring(self, digest, data) -> str:
        if not self.exact:
            return ""
        vs, why = (data.get("tabled") or {}).get(digest, (None, None))
        return ("table not asked yet" if why is None else f"scored by sampled games: {why}" if why else
                f"scored exactly, {vs:.4f} against always_roll(6)")

    def start_text(self, db, current) -> str:
        missing = self.missing(db, current)
        if not missing:
            return "nothing missing"
        counts = db.counts()
        games = sum(self.config.games - counts.get(pair, 0) for pair in missing)
        how = " (computed exactly where each side's table is exact)" if self.exact else ""
        return f"{plural(len(missing), 'pair')} miss {plural(games, 'game')}{how}"

    def progress(self, folder, db, current) -> tuple[list[str], int, int]:
        pairs = self.missing(db, current)
        counts = db.counts()
        on_board = {s.digest for s in current}
        n = len(current)
        all_pairs = n * (n - 1) // 2
        missing = sum(self.config.games - counts.get(pair, 0) for pair in pairs)
        if not self.exact:
            return ([f"pairs: {all_pairs} ({len(pairs)} with games missing); games: "
                     f"{all_pairs * self.config.games - missing} done, {missing} missing"], missing, len(pairs))
        computed = sum(a in on_board and b in on_board for a, b in db.exact())
        played = sum(count for (a, b), count in counts.items() if a in on_board and b in on_board)
        tabled = db.tabled()
        asked = [tabled[s.digest] for s in current if s.digest in tabled]
        return ([f"pairs: {all_pairs} ({computed} computed, {len(pairs)} with games missing); games: {played} "
                 f"played, {missing} missing",
                 f"tables (within {self.config.table_seconds:g} s each, in two processes): "
                 f"{sum(not why for _vs, why in asked)} exact, {sum(bool(why) for _vs, why in asked)} scored by "
                 f"sampled games, {n - len(asked)} not asked yet"], missing, len(pairs))

    def played_text(self, played, rows) -> str:
        if not self.exact:
            return super().played_text(played, rows)
        computed = sum(row.computed for row in rows) // 2
        return f"{plural(played, 'game')} played, {plural(computed, 'pair')} computed"


class Ladder(Format):
    name = "ladder"
    per = "a meeting"
    every_game = True
    """A row counts all of its current submission's games, as its rating does."""

    def kind(self) -> str:
        return f"{self.config.game} ladder"

    def next_games(self, folder, db, current, secret, say, limits, helpers=None) -> tuple[Wanted, bool]:
        from arcade.contest.ladder import next_games

        return next_games(folder, self.config, db, [s.digest for s in current], secret), False

    def board_data(self, folder, db, current) -> dict[str, Any]:
        from arcade.contest.ladder import board as rated

        return {"ratings": {d: (r.mu, r.sigma) for d, r in rated(folder, db, current).items()}}

    def score(self, rows, cells, data) -> None:
        """The score is the rating's μ, shown with its σ (2 decimals); an entry without a rating
        has the model's first."""
        from arcade.contest.ladder import MU, SIGMA

        ratings = data.get("ratings") or {}
        for digest, row in rows.items():
            mu, sigma = ratings.get(digest, (MU, SIGMA))
            row.rating, row.uncertainty = round(mu, 2), round(sigma, 2)
            row.score = row.rating

    @property
    def score_column(self) -> Column:
        return m.RATING

    def data_columns(self) -> tuple[str, ...]:
        return m.DATA[:3] + m.LADDER + m.DATA[3:]

    def start_text(self, db, current) -> str:
        return "the ladder's rounds are chosen as they are played"

    def progress(self, folder, db, current) -> tuple[list[str], int, int]:
        """The rounds, the entries that still need games, and the most games the stopping rule
        leaves (each entry that needs games playing up to its ``ladder_games``) in meetings."""
        from arcade.contest.ladder import board, needing, read_rounds

        config = self.config
        rated = board(Path(folder), db, [s.digest for s in current])
        need = needing(config, rated)
        left = sum(max(0, config.ladder_games - rated[d].games) for d in need)
        played = sum(db.counts().values())
        line = (f"ladder: {len(read_rounds(folder))} rounds, {played} games played; {len(need)} of {len(current)} "
                f"entries still need games (sigma >= {config.ladder_sigma:g}, fewer than {config.ladder_games} games, "
                f"place not settled): up to {left} games left (their budgets)")
        return [line], left, -(-left // config.games)


FORMATS: dict[str, type[Format]] = {AllPairs.name: AllPairs, Ladder.name: Ladder}
"""Every format by its name in ``contest.toml`` (``arcade.contest.config.FORMATS`` names the same:
a test holds them equal)."""


def format_of(config: Config) -> Format:
    """``config``'s format (a small object: made where it is asked for)."""
    return FORMATS[config.format](config)
