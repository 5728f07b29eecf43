"""Tournament formats and standings: what a tournament is, with no process in sight.

Round robin (``round-robin``), as the STATS 306 contest scored it: every pair of bots plays
``games`` games (the contest's 100), each bot moving first in half of them (A first in odd
games), and a bot's score is its wins. Standings are ordered by wins, then fewer forfeits, then
the order the bots were given; bots with equal wins share a rank.

Groups (``groups``), the CS4341 structure: the bots are drawn at random (from the seed) into
groups, each bot plays every other bot of its group, and the best two of each group go on;
groups rounds repeat while more than four bots remain (at least 2 groups, at most 4, of five
bots at most while four groups do: 16 bots make 4 groups of 4, then 8 make 2 groups of 4; 11
make groups of 4, 4 and 3). The last four (or three) play
a semi-final round robin; the top two play the final, the other two the match for third place.
A group's ranking is the course's points (2 a win, 1 a draw), then wins, then fewer forfeits,
then a lot drawn from the seed. A final that ends level goes to the better semi-finalist.

Before either, a tournament may play **challenges** (``CHALLENGE``), as CS4341 did: "The new player
you submit on Oct. 11th will play against your original player from Oct. 1st … The winner of this
match will represent your team in the tournament." ``representative`` says who goes on.

``run_groups`` plays the groups format on whatever plays a stage's pairs (``Plays``: the
tournament's ``arcade.tournament.runner.Runner``, or a test's stand-in).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol, Sequence

from arcade.match import GameRecord, Tally
from arcade.seeds import groups_rng

FORMATS = ("round-robin", "groups")
CHALLENGE = "original vs new"
"""The stage of CS4341's matches of a team's new player against its original one."""
DEFAULT_GAMES = {"round-robin": 100, "groups": 2}
"""Games per pair when not given: the STATS 306 contest's 100; 2 in groups (each side first once)."""


class TournamentError(ValueError):
    """A tournament that cannot be run as asked (a message for the user)."""


# -- results -----------------------------------------------------------------------------------

@dataclass
class PairResult(Tally):
    """The games between two bots, ``a`` first in odd-numbered games."""

    stage: str
    a: str
    b: str
    records: list[GameRecord] = field(default_factory=list)

    def forfeit_reasons(self, player: int) -> list[str]:
        return sorted({r.reason for r in self.records if r.forfeit == player})

    def as_json(self) -> dict:
        return {
            "stage": self.stage,
            "bots": [self.a, self.b],
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "forfeits": self.forfeits,
        }


@dataclass
class Standing:
    bot: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    forfeits: int = 0
    stage: str = ""
    rank: int = 0

    @property
    def points(self) -> int:
        """The CS4341 tournament's points: 2 a win, 1 a draw."""
        return 2 * self.wins + self.draws

    def as_json(self) -> dict:
        data = {
            "rank": self.rank,
            "bot": self.bot,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "games": self.games,
            "forfeits": self.forfeits,
            "points": self.points,
        }
        if self.stage:
            data["stage"] = self.stage
        return data


def tally(bots: Sequence[str], pairs: Sequence[PairResult]) -> dict[str, Standing]:
    """Each bot's wins, draws, losses, games and forfeits over ``pairs``."""
    table = {bot: Standing(bot) for bot in bots}
    for pair in pairs:
        for p, bot in enumerate((pair.a, pair.b)):
            row = table.setdefault(bot, Standing(bot))
            row.wins += pair.wins[p]
            row.draws += pair.draws
            row.losses += pair.wins[1 - p]
            row.games += pair.games
            row.forfeits += pair.forfeits[p]
    return table


def round_robin_standings(bots: Sequence[str], pairs: Sequence[PairResult]) -> list[Standing]:
    """STATS 306 order: wins, then fewer forfeits, then the given order; equal wins share a rank."""
    order = {bot: i for i, bot in enumerate(bots)}
    rows = sorted(tally(bots, pairs).values(), key=lambda s: (-s.wins, s.forfeits, order.get(s.bot, 0)))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].wins == row.wins else i + 1
    return rows


@dataclass
class Group:
    name: str
    bots: list[str]
    standings: list[Standing] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"name": self.name, "bots": self.bots, "standings": [s.as_json() for s in self.standings]}


@dataclass
class Round:
    name: str
    groups: list[Group]

    def as_json(self) -> dict:
        return {"name": self.name, "groups": [g.as_json() for g in self.groups]}


@dataclass
class TournamentResult:
    game: str
    settings: dict
    format: str
    games_per_pair: int
    seed: int
    bots: list[str]
    pairs: list[PairResult] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    from_record: int = 0
    """Games read from the ``--record`` file resumed (not played again); not in ``as_json``."""
    challenges: list[PairResult] = field(default_factory=list)
    """CS4341's matches played before the tournament, each ``(new, original)``: a team's new
    player against its original one, the winner its player in the tournament (``run_tournament``'s
    ``challenges``); not in ``pairs`` nor in the standings."""

    def as_json(self) -> dict:
        data = {
            "game": self.game,
            "options": self.settings,
            "format": self.format,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "standings": [s.as_json() for s in self.standings],
            "pairs": [p.as_json() for p in self.pairs],
        }
        if self.rounds:
            data["rounds"] = [r.as_json() for r in self.rounds]
        if self.challenges:
            data["challenges"] = [p.as_json() for p in self.challenges]
        return data


def representative(challenge: PairResult) -> str:
    """Who plays in the tournament after a challenge (``a`` the new player, ``b`` the original):
    the original only when it won more of their games; the new one on a tie, since a team hands
    in its new player for the tournament unless it asks for its original."""
    return challenge.b if challenge.wins[1] > challenge.wins[0] else challenge.a


# -- the groups format --------------------------------------------------------------------------

def group_sizes(n: int) -> int:
    """How many groups a groups round of ``n`` bots has (CS4341: 4 groups of about 4 or 5):
    groups of five at most while four groups do, at least two groups."""
    return min(4, max(2, -(-n // 5)))


def planned_pairs(n: int) -> int:
    """Pairs a groups tournament of ``n`` bots plays in all (for the progress bar)."""
    total = 0
    while n > 4:
        k = group_sizes(n)
        sizes = [len(range(i, n, k)) for i in range(k)]
        total += sum(s * (s - 1) // 2 for s in sizes)
        n = sum(min(2, s) for s in sizes)
    if n >= 3:
        total += n * (n - 1) // 2
    return total + (2 if n == 4 else 1)


class Plays(Protocol):
    """What plays a stage's pairs: their results in the order of ``pairs``."""

    def play(self, stage: str, pairs: Sequence[tuple[str, str]]) -> list[PairResult]: ...


def run_groups(result: TournamentResult, runner: Plays) -> None:
    """Play the groups format through ``runner``: its groups rounds, semi-final and final, into
    ``result``'s pairs, rounds and standings."""
    rng = groups_rng(result.seed)
    lots = {bot: rng.random() for bot in result.bots}
    out: list[tuple[str, list[Standing]]] = []  # bots knocked out, by round, best first

    def ranked(bots: Sequence[str], pairs: Sequence[PairResult], stage: str) -> list[Standing]:
        rows = sorted(tally(bots, pairs).values(), key=lambda s: (-s.points, -s.wins, s.forfeits, lots[s.bot]))
        for i, row in enumerate(rows):
            row.rank, row.stage = i + 1, stage
        return rows

    current = list(result.bots)
    number = 0
    while len(current) > 4:
        number += 1
        stage = "first round" if number == 1 else "second round" if number == 2 else f"round {number}"
        shuffled = current[:]
        rng.shuffle(shuffled)
        k = group_sizes(len(shuffled))
        groups = [Group(f"{stage} · group {'ABCD'[i]}", shuffled[i::k]) for i in range(k)]
        pairs = [pair for g in groups for pair in combinations(g.bots, 2)]
        played = runner.play(stage, pairs)
        result.pairs.extend(played)
        advancing, knocked = [], []
        for g in groups:
            mine = [p for p in played if p.a in g.bots and p.b in g.bots]
            g.standings = ranked(g.bots, mine, stage)
            advancing += [s.bot for s in g.standings[:2]]
            knocked += g.standings[2:]
        result.rounds.append(Round(stage, groups))
        knocked.sort(key=lambda s: (-s.points, -s.wins, s.forfeits, lots[s.bot]))
        out.append((stage, knocked))
        current = advancing

    final_order: list[Standing]
    if len(current) >= 3:
        semi = Group("semi-final", current)
        played = runner.play("semi-final", list(combinations(current, 2)))
        result.pairs.extend(played)
        semi.standings = ranked(current, played, "semi-final")
        result.rounds.append(Round("semi-final", [semi]))
        seeded = [s.bot for s in semi.standings]
    else:
        seeded = list(current)
    final_pairs = [(seeded[0], seeded[1])]
    if len(seeded) == 4:
        final_pairs.append((seeded[2], seeded[3]))
    played = runner.play("final", final_pairs)
    result.pairs.extend(played)
    final_order = []
    names = ["final", "third place"]
    for index, pair in enumerate(played):
        top, bottom = (pair.a, pair.b) if pair.wins[0] >= pair.wins[1] else (pair.b, pair.a)
        for bot in (top, bottom):
            row = tally([bot], [pair])[bot]
            row.stage = names[index]
            final_order.append(row)
    if len(seeded) == 3:
        third = tally([seeded[2]], [])[seeded[2]]
        third.stage = "semi-final"
        final_order.append(third)
    result.rounds.append(Round("final", [Group(names[i], [p.a, p.b], final_order[2 * i:2 * i + 2])
                                         for i, p in enumerate(played)]))
    for _stage, knocked in reversed(out):
        final_order.extend(knocked)
    totals = tally(result.bots, result.pairs)
    standings = []
    for rank, row in enumerate(final_order, start=1):
        total = totals[row.bot]
        total.rank, total.stage = rank, row.stage
        standings.append(total)
    result.standings = standings
