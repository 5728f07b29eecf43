"""The pieces of a season's board (``arcade.contest.boardmodel``): a standings ``Row``, its
``Column``s (each with its heading in the terminal and on the site), a crosstable's ``Cell`` and
how every view writes a number. Below both the formats (``arcade.contest.formats``, which choose
the columns and score the rows) and the board model (which builds the board)."""

from __future__ import annotations

from dataclasses import dataclass

COMPUTED_MARK = "*"
"""What marks a crosstable cell computed from two strategies' tables, not played."""


def number(value: float | int) -> str:
    """A score, a rating or points as every view writes it: a whole number without decimals, else
    to 2 decimals with no trailing zero (``68.4``, ``6``, ``4.17``)."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(int(value))


@dataclass(frozen=True)
class Column:
    """A column of the standings: its row field (``key``, ``as_json``'s), its heading in the
    terminal (the command's table and the app's board: ``short``) and on the site (``long``)."""

    key: str
    short: str
    long: str
    numeric: bool = True


RANK = Column("rank", "#", "Rank")
TEAM = Column("team", "team", "Team", numeric=False)
SCORE = Column("score", "score", "Score")
RATING = Column("rating", "rating ± σ", "Rating ± σ")
VS = Column("vs_always_roll_6", "vs ar6", "vs always_roll(6)")
COMPUTED = Column("computed", "calc", "Computed")
WINS = Column("wins", "won", "W")
DRAWS = Column("draws", "drew", "D")
LOSSES = Column("losses", "lost", "L")
GAMES = Column("games", "games", "Games")
FORFEITS = Column("forfeits", "ff", "Forfeits")
POINTS = Column("points", "points", "Points")
SUBMITTED = Column("submitted", "submitted", "Submitted", numeric=False)

DATA = ("rank", "team", "score", "wins", "draws", "losses", "games", "forfeits", "points", "submitted")
"""A row's fields in ``as_json`` and ``--csv`` (``arcade contest standings --json``'s keys)."""
LADDER = ("rating", "uncertainty")
"""A ladder's fields besides, after the score."""
EXACT = ("vs_always_roll_6", "computed", "scored", "why")
"""Hog's exact scoring's fields besides: the first two after the score, the others at the end."""


@dataclass
class Row:
    """A team on the board: its current submission (``digest``, ``submitted``) and what it came
    to (``arcade.contest.standings`` says what a score is). ``rating`` and ``uncertainty``: a
    ladder's μ and σ (``None`` elsewhere); ``vs_always_roll_6``, ``computed`` (pairs computed, not
    played: its ``games`` are the played ones alone), ``scored`` and ``why``: Hog's exact scoring's."""

    team: str
    submitted: str
    digest: str
    score: float = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    forfeits: int = 0
    points: float = 0.0
    rank: int = 0
    rating: float | None = None
    uncertainty: float | None = None
    vs_always_roll_6: float | None = None
    computed: int = 0
    scored: str | None = None
    """Exact scoring's: ``exact``, ``sampled`` or ``pending`` (``None``: a season scored by wins)."""
    why: str = ""

    def as_json(self) -> dict:
        ladder = {key: getattr(self, key) for key in LADDER} if self.rating is not None else {}
        exact = {key: getattr(self, key) for key in EXACT} if self.scored is not None else {}
        return {key: getattr(self, key) for key in DATA} | ladder | exact | {"digest": self.digest}

    def text(self, key: str, long: bool = False) -> str:
        """The cell of column ``key`` as every view writes it: a ladder's ``rating`` as ``μ ± σ``,
        ``vs_always_roll_6`` to 4 places (``sampled`` or ``pending`` where there is none: why is said
        under the board; ``—`` outside exact scoring), ``submitted`` as ``MM-DD HH:MM`` (``long``: as
        stored, ISO 8601, for the site's times)."""
        if key == "rating":
            return "—" if self.rating is None else f"{self.rating:.2f} ± {self.uncertainty or 0:.2f}"
        if key == "vs_always_roll_6":
            if self.vs_always_roll_6 is not None:
                return f"{self.vs_always_roll_6:.4f}"
            return self.scored if self.scored in ("sampled", "pending") else "—"
        if key == "submitted":
            return self.submitted if long else self.submitted[5:16].replace("T", " ")
        if key in ("score", "points"):
            return number(getattr(self, key))
        return str(getattr(self, key))


@dataclass(frozen=True)
class Cell:
    """The row team's results against the column team's: ``wins``, ``draws``, ``losses`` of the
    games played between their current submissions; with Hog's exact scoring a pair computed from
    the two tables has its ``chance`` (the row team's exact win chance, each side first in half),
    ``expected`` wins (``games_per_pair`` × the chance, 2 decimals, what its score counts) and
    ``expected_losses`` (the column team's expected wins)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    chance: float | None = None
    expected: float = 0.0
    expected_losses: float = 0.0

    @property
    def computed(self) -> bool:
        return self.chance is not None

    @property
    def games(self) -> int:
        """The games played (a computed pair's are none)."""
        return self.wins + self.draws + self.losses

    def score(self) -> tuple[float, float]:
        """The row team's wins and losses as its score counts them (played and expected)."""
        return round(self.wins + self.expected, 2), round(self.losses + self.expected_losses, 2)

    def text(self) -> str:
        """``W–D–L``; a computed pair's expected ``W–D–L`` marked ``*``."""
        if not self.computed:
            return f"{self.wins}–{self.draws}–{self.losses}"
        wins, losses = self.score()
        return f"{number(wins)}–{self.draws}–{number(losses)}{COMPUTED_MARK}"

    def as_json(self) -> dict:
        exact = {"chance": self.chance, "expected_wins": self.expected,
                 "expected_losses": self.expected_losses} if self.computed else {}
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses, "games": self.games,
                "computed": self.computed} | exact
