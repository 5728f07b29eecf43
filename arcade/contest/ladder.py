"""``format = "ladder"``: a field too big for all pairs (40 Othello entries at 10 s a move are six
days of games on one machine) rated as it plays, each next meeting chosen where it tells most,
until a stated rule says the board is settled.

**Ratings.** Each current submission has an OpenSkill rating (the ``openskill`` package's
Plackett-Luce model, its defaults: μ 25, σ 25/3, β 25/6; no drift, τ = 0, for a submission does not
change): ``rating`` μ, the estimate, and ``uncertainty`` σ, its standard deviation. Ratings are never
stored: they are the games replayed, a round after another, each round's meetings in their order,
each meeting's games by number (a forfeit is a loss, a draw a tie), so the database, the records
and a run killed at any moment all give the same ratings.

**Rounds.** The plan of the ladder is ``DIR/ladder.jsonl``, one line a round (its meetings:
two digests, the first game's number, the games), appended and flushed to the disk before any of
its games is played; it is evidence as the records are. A meeting plays ``games_per_pair`` games,
each side first in half, numbered after the pair's earlier meetings' games and dealt as every
contest game is (the secret, the game's number and the sides' roles: ``arcade.contest.evidence``):
two equal strategies' k-th meetings with an opponent are the same games (with an even
``games_per_pair``: an odd one's last game has no mirror). A meeting's first number is odd (after
an odd ``games_per_pair`` one number is skipped), so that each deal, two games with the same dice
and the sides swapped, is whole within a meeting. A round is played to its end before the next is
planned; a run killed in a round plays what it misses on the next run (games of a submission
replaced since are left out), then plans the next.

**Which meetings.** An entry *needs* games while all three hold: its σ is at least
``ladder_sigma``, it has played fewer than ``ladder_games`` games, and its place is not settled
(a neighbour on the board by μ is within ``SETTLED`` standard deviations of the difference,
``|μi − μj| < 2 √(σi² + σj²)``). Every pair of current entries of which one needs games is a
candidate, valued by the **expected information** of one game: the shrinking of the two ratings'
variances the model's own update gives (``information``: for a win or a loss it depends only on
the win chance p and the σs, most at p = ½ and large σ, so the closest ratings with the most
uncertainty first). A round is the candidates taken greedily by that value, each entry at most once
(ties broken by a hash of the contest's secret, the round and the pair: deterministic from the
contest's seed).

**Stopping rule.** The ladder stops when no entry needs games: every entry's σ is under
``ladder_sigma`` or its place is settled against both neighbours, or it has played its
``ladder_games``. A new submission (σ 25/3) needs games again, and so the ladder goes on.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade.contest.config import Config, ContestError
from arcade.contest.evidence import pair_of
from arcade.seeds import ladder_tie

LOG = "ladder.jsonl"
MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
KAPPA = 0.0001
REPEAT = 1.0
"""A pair's value is divided by ``1 + REPEAT × its meetings so far``."""
SETTLED = 2.0
"""Standard deviations of a difference of ratings beyond which two neighbours' order is settled."""


@dataclass(frozen=True)
class Meeting:
    """Games ``first .. first + count - 1`` of pair ``(a, b)`` (``a`` the smaller digest)."""

    a: str
    b: str
    first: int
    count: int

    @property
    def numbers(self) -> range:
        return range(self.first, self.first + self.count)


@dataclass(frozen=True)
class Round:
    number: int
    meetings: tuple[Meeting, ...]

    def as_json(self) -> dict:
        return {"round": self.number, "meetings": [[m.a, m.b, m.first, m.count] for m in self.meetings]}


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


def model():
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=0.0)


# -- the plan: DIR/ladder.jsonl -------------------------------------------------------------------

def _round_of(text: str, expected: int) -> Round:
    data = json.loads(text)
    meetings = []
    for a, b, first, count in data["meetings"]:
        if not (isinstance(a, str) and isinstance(b, str) and a < b and type(first) is int and first >= 1
                and type(count) is int and count >= 1):
            raise ValueError("a meeting is not [a, b, first, count]")
        meetings.append(Meeting(a, b, first, count))
    if data["round"] != expected:
        raise ValueError(f"round {data['round']!r} where round {expected} was due")
    return Round(expected, tuple(meetings))


def read_rounds(folder: str | os.PathLike) -> list[Round]:
    """The rounds planned so far, in order; a last line cut short (a kill while it was written,
    before any of its games) is no round. ``ContestError`` for a damaged line."""
    path = Path(folder) / LOG
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ContestError(f"cannot read the ladder's plan {path}: {getattr(exc, 'strerror', None) or exc}") from None
    lines = text.split("\n")[:-1]  # the part after the last newline is cut short, or empty
    rounds = []
    for number, line in enumerate(lines, start=1):
        try:
            rounds.append(_round_of(line, number))
        except (ValueError, KeyError, TypeError) as exc:
            raise ContestError(f"the ladder's plan {path} line {number} is damaged ({exc}): the games "
                               f"played stay in the records; remove the line and what follows to plan again") from None
    return rounds


def append_round(folder: str | os.PathLike, planned: Round) -> None:
    """``planned`` appended to the plan (a line cut short by a kill cut away first), on the disk
    before its games are played."""
    path = Path(folder) / LOG
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "r+b") as handle:
            data = handle.read()
            keep = data.rfind(b"\n") + 1
            if keep != len(data):
                handle.truncate(keep)
            handle.seek(keep)
            handle.write((json.dumps(planned.as_json(), separators=(",", ":")) + "\n").encode())
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise ContestError(f"cannot write the ladder's plan {path}: {exc.strerror or exc}") from None


# -- ratings --------------------------------------------------------------------------------------

def ratings(rounds: list[Round], results: dict[tuple[str, str, int], int | None]) -> dict[str, Rating]:
    """Every entry's rating after the games of ``results`` (``(a, b, number) -> winner``: 0 for
    a, 1 for b, ``None`` a draw), replayed in the rounds' order; an entry with no game is absent."""
    rate = model()
    state: dict[str, Any] = {}
    games: dict[str, int] = {}
    for planned in rounds:
        for m in planned.meetings:
            for number in m.numbers:
                if (m.a, m.b, number) not in results:
                    continue
                winner = results[(m.a, m.b, number)]
                ranks = [1, 1] if winner is None else ([1, 2] if winner == 0 else [2, 1])
                x = state.get(m.a) or rate.rating()
                y = state.get(m.b) or rate.rating()
                [[state[m.a]], [state[m.b]]] = rate.rate([[x], [y]], ranks=ranks)
                games[m.a] = games.get(m.a, 0) + 1
                games[m.b] = games.get(m.b, 0) + 1
    return {d: Rating(r.mu, r.sigma, games[d]) for d, r in state.items()}


def information(x: Rating, y: Rating) -> float:
    """The expected information of one game between ``x`` and ``y``, in nats: the two ratings'
    variances shrunk by the model's update, ``½ ln(σ² / σ'²)`` each. For a win or a loss the
    Plackett-Luce update gives ``σ'² = σ² (1 - (σ / c)³ p (1 - p))``, ``c² = σx² + σy² + 2β²``,
    ``p`` the win chance, whichever side wins (checked against ``openskill`` in the tests)."""
    c = math.sqrt(x.sigma ** 2 + y.sigma ** 2 + 2 * BETA ** 2)
    p = 1 / (1 + math.exp((y.mu - x.mu) / c))
    spread = p * (1 - p)
    return sum(-0.5 * math.log(max(1 - (s / c) ** 3 * spread, KAPPA)) for s in (x.sigma, y.sigma))


def needing(config: Config, rated: dict[str, Rating]) -> set[str]:
    """The entries that need games (the stopping rule: the module's docstring)."""
    order = sorted(rated, key=lambda d: (-rated[d].mu, d))
    need = set()
    for i, digest in enumerate(order):
        me = rated[digest]
        if me.sigma < config.ladder_sigma or me.games >= config.ladder_games:
            continue
        near = [rated[order[j]] for j in (i - 1, i + 1) if 0 <= j < len(order)]
        if any(abs(me.mu - n.mu) < SETTLED * math.hypot(me.sigma, n.sigma) for n in near):
            need.add(digest)
    return need


def plan(config: Config, rounds: list[Round], current: list[str], rated: dict[str, Rating],
         secret: int) -> Round | None:
    """The next round over the ``current`` digests, or ``None`` when no entry needs games."""
    field = {d: rated.get(d, Rating()) for d in current}
    need = needing(config, field)
    number = len(rounds) + 1
    last: dict[tuple[str, str], int] = {}
    met: dict[tuple[str, str], int] = {}
    for earlier in rounds:
        for m in earlier.meetings:
            last[(m.a, m.b)] = max(last.get((m.a, m.b), 0), m.first + m.count - 1)
            met[(m.a, m.b)] = met.get((m.a, m.b), 0) + 1
    candidates = []
    ordered = sorted(field)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if a in need or b in need:
                value = information(field[a], field[b]) / (1 + REPEAT * met.get((a, b), 0))
                candidates.append((-value, ladder_tie(secret, number, a, b), a, b))
    candidates.sort()
    taken: set[str] = set()
    meetings = []
    for _value, _tiebreak, a, b in candidates:
        if a in taken or b in taken:
            continue
        taken |= {a, b}
        after = last.get((a, b), 0)
        meetings.append(Meeting(a, b, after + 1 + after % 2, config.games))  # from an odd number: whole deals
    return Round(number, tuple(meetings)) if meetings else None


# -- what run plays next --------------------------------------------------------------------------

def results_of(db) -> dict[tuple[str, str, int], int | None]:
    return {(a, b, number): winner for a, b, number, winner, _forfeit, _reason in db.read(
        "SELECT a, b, number, winner, forfeit, reason FROM games")}


def next_games(folder: Path, config: Config, db, current: list[str], secret: int) -> list[tuple[tuple[str, str], set[int]]]:
    """The games ``run`` plays next: the last round's that the database lacks (their pairs'
    records are read first: a killed run's games are taken from them), else a new round's,
    planned and written to the plan; ``[]`` when the ladder has stopped."""
    rounds = read_rounds(folder)
    alive = set(current)
    if rounds:
        wanted = []
        for m in rounds[-1].meetings:
            if m.a in alive and m.b in alive:
                missing = set(m.numbers) - db.played(m.a, m.b)
                if missing:
                    wanted.append(((m.a, m.b), missing))
        if wanted:
            return wanted
    planned = plan(config, rounds, current, ratings(rounds, results_of(db)), secret)
    if planned is None:
        return []
    append_round(folder, planned)
    return [(pair_of(m.a, m.b), set(m.numbers)) for m in planned.meetings]


def board(folder: Path, db, current: list[str]) -> dict[str, Rating]:
    """The current entries' ratings (an entry with no game yet: the model's first rating)."""
    rated = ratings(read_rounds(folder), results_of(db))
    return {d: rated.get(d, Rating()) for d in current}
