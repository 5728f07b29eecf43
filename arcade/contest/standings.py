"""What a score, a rank and the points are: the rules the board (``arcade.contest.boardmodel``, which
counts them once for every view) follows.

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


def legend(games: int, computed: str = "computed", vs: str = "vs_always_roll_6") -> str:
    """What an exact season's numbers are (``games`` a pair), in one line, under the names the
    board at hand gives the two columns: the command's, the app's and the site's."""
    return (f"{computed}: pairs computed from the two strategies' tables, not played, each counting its expected "
            f"wins over {games} games (games a pair × the exact win chance, each side first in half); "
            f"{vs}: the exact win rate against always_roll(6), the course's own score (sampled: scored by "
            f"sampled games instead, why below; pending: its table not asked yet)")


def points(scores: list[float], rule: str = "stats306") -> list[float]:
    """Each score's points under ``rule``: ``stats306`` 6 for the highest score, ``5 × score /
    high`` for the rest (0 for all while the high score is 0); ``none`` 0."""
    high = max(scores, default=0)
    if rule != "stats306" or high <= 0:
        return [0.0 for _ in scores]
    return [6.0 if score == high else max(0.0, round(5 * score / high, 2)) for score in scores]
