"""The board: each team's current submission against every other current one, and the points.

A team's **score** is its wins (STATS 306: "your score will be equal to the number of times your
strategy wins"); with Hog's exact scoring, a pair computed exactly counts its expected wins
(``games_per_pair`` × the win chance, both orders alike) instead. The board is ordered by score,
then fewer forfeits, then the team's name; equal scores share a rank.

With **Hog's exact scoring** (``arcade.contest.hog_exact``) the board says where a score comes
from: ``computed`` is the team's pairs computed from the two strategies' tables, not played (its
``games`` are the sampled ones alone), ``vs_always_roll_6`` its exact win rate against
``always_roll(6)`` (the course's own score; none without a table), ``scored`` ``exact``,
``sampled`` (``why``: its table did not fit ``table_seconds``, differed between two fresh
processes, changed when asked again, or failed) or ``pending`` (not asked yet).

On a **ladder** (``arcade.contest.ladder``) a team's score is its ``rating`` (OpenSkill's μ, 2
decimals), shown with its ``uncertainty`` (σ): teams meet different opponents, a different number
of times, so their wins do not compare. Its games, wins, draws, losses and forfeits are all its
current submission's games, those against a submission replaced since included (the rating counts
them too).

**Points** (``points = "stats306"``), the rule's text: the team(s) with the highest score get 6,
the others ``5 × score / high score`` (rounded to 2 decimals). The seed's example table gives the
top team 5; the text is followed. Before anyone has won a game, every team has 0.

**Points** (``points = "cs4341"``): the course's extra credit, which only its tournament earned
(``arcade.contest.closing``): 2 for each game won, 1 for each draw, 5 for completing at least one
game (won, lost or drawn: one it did not forfeit), 5 when the team's new player beat its original
one (``arcade.contest.closing.extra_credit``). Each team has 0 until the closing stage is played, then what
``closing.json`` gives it.
"""

from __future__ import annotations

from dataclasses import dataclass

from arcade.contest.config import Config
from arcade.contest.db import Database


@dataclass
class Row:
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
        ladder = {"rating": self.rating, "uncertainty": self.uncertainty} if self.rating is not None else {}
        exact = {key: getattr(self, key) for key in EXACT} if self.scored is not None else {}
        return {key: getattr(self, key) for key in COLUMNS} | ladder | exact | {"digest": self.digest}


COLUMNS = ("rank", "team", "score", "wins", "draws", "losses", "games", "forfeits", "points", "submitted")
LADDER_COLUMNS = COLUMNS[:3] + ("rating", "uncertainty") + COLUMNS[3:]
EXACT = ("vs_always_roll_6", "computed", "scored", "why")
EXACT_COLUMNS = COLUMNS[:3] + EXACT[:2] + COLUMNS[3:] + EXACT[2:]


def columns(config: Config) -> tuple[str, ...]:
    """The board's columns: a ladder's have ``rating`` and ``uncertainty`` after the score, exact
    scoring's ``vs_always_roll_6`` and ``computed`` after it and ``scored`` and ``why`` at the end."""
    if config.format == "ladder":
        return LADDER_COLUMNS
    return EXACT_COLUMNS if config.scoring == "exact" else COLUMNS


def legend(games: int, computed: str = "computed", vs: str = "vs_always_roll_6") -> str:
    """What an exact season's numbers are (``games`` a pair), in one line, under the names the
    board at hand gives the two columns: the command's, the app's and the site's."""
    return (f"{computed}: pairs computed from the two strategies' tables, not played, each counting its expected "
            f"wins over {games} games (games a pair × the exact win chance, each side first in half); "
            f"{vs}: the exact win rate against always_roll(6), the course's own score")


def points(scores: list[float], rule: str = "stats306") -> list[float]:
    """Each score's points under ``rule``: ``stats306`` 6 for the highest score, ``5 × score /
    high`` for the rest (0 for all while the high score is 0); ``none`` 0."""
    high = max(scores, default=0)
    if rule != "stats306" or high <= 0:
        return [0.0 for _ in scores]
    return [6.0 if score == high else max(0.0, round(5 * score / high, 2)) for score in scores]


def standings(db: Database, config: Config) -> list[Row]:
    """The board of the contest now, ranked, with the points."""
    current = db.current()
    rows = {s.digest: Row(s.team, s.submitted, s.digest) for s in current}
    for a, b, _number, winner, forfeit, _reason in db.games_of(set(rows), both=config.format != "ladder"):
        for player, digest in enumerate((a, b)):
            row = rows.get(digest)
            if row is None:
                continue
            row.games += 1
            row.draws += winner is None
            row.wins += winner == player
            row.losses += winner == 1 - player
            row.forfeits += forfeit == player
    for row in rows.values():
        row.score = row.wins
    if config.format == "ladder":
        from arcade.contest.ladder import board

        for digest, rating in board(db.path.parent, db, list(rows)).items():
            rows[digest].rating, rows[digest].uncertainty = round(rating.mu, 2), round(rating.sigma, 2)
            rows[digest].score = rows[digest].rating
    if config.scoring == "exact":
        tabled = db.tabled()
        for row in rows.values():
            vs, why = tabled.get(row.digest, (None, None))
            row.vs_always_roll_6 = vs
            row.scored, row.why = ("pending", "") if why is None else ("sampled" if why else "exact", why)
        for (a, b), chance in db.exact().items():
            if a in rows and b in rows:
                rows[a].score = round(rows[a].score + config.games * chance, 2)
                rows[b].score = round(rows[b].score + config.games * (1 - chance), 2)
                rows[a].computed += 1
                rows[b].computed += 1
    ranked = sorted(rows.values(), key=lambda r: (-r.score, r.forfeits, r.team))
    for i, row in enumerate(ranked):
        row.rank = ranked[i - 1].rank if i and ranked[i - 1].score == row.score else i + 1
    for row, value in zip(ranked, points([r.score for r in ranked], config.points)):
        row.points = value
    if config.points == "cs4341":  # earned in the closing stage alone
        from arcade.contest.closing import closing_credit

        credit = closing_credit(db.path.parent)
        for row in ranked:
            row.points = credit.get(row.team, 0)
    return ranked


def as_dicts(rows: list[Row]) -> list[dict]:
    return [row.as_json() for row in rows]

