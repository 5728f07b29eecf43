"""A season's pace: what its games have cost on this machine (``DIR/pace.json``, written by ``run``)
and what the games still missing will take (``arcade contest status``'s estimate).

A batch's cost is split in three: loading its bots (each worker loads each bot it meets once, and
keeps it: ``arcade.tournament.worker.KEEP``; ``LOAD`` seconds each), what the two bots of each
game spent answering (their recorded answers' seconds, ``GameRecord.times``), and the rest (a
game's processes, the sandbox, the records: the overhead, about the same for every game of a
season). Each bot's share is its own: from the games
it played (the mean of its games' answering, less the field's half), else from its admission
probe's seconds a move (``arcade.contest.submit.keep_probe_pace``) times the answers a bot gives
in a game, else the field's. So a newcomer that thinks ten times as long as the field is estimated
at its own pace before it has played a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from arcade.files import write_whole

PACE = "pace.json"
"""``DIR/pace.json``: the season's pace (``record``)."""

KEPT = 20
"""Batches a pace keeps (the last ones)."""

LOAD = 0.15
"""Seconds a bot's process takes to start and load its file in the sandbox (measured: 0.10–0.15 s
CPU, ``bench/contest.py exact``), once a worker."""


@dataclass
class Thinking:
    """What a batch's bots spent answering: its games, their answers' seconds and count, and for
    each submission the games it played and their answering seconds (both sides')."""

    games: int = 0
    seconds: float = 0.0
    answers: int = 0
    bots: dict[str, list] = field(default_factory=dict)

    def add(self, a: str, b: str, times: list[float]) -> None:
        spent = sum(times)
        self.games += 1
        self.seconds += spent
        self.answers += len(times)
        for digest in (a, b):
            games, seconds = self.bots.get(digest, (0, 0.0))
            self.bots[digest] = [games + 1, seconds + spent]


def _read(folder: Path) -> dict:
    try:
        data = json.loads((Path(folder) / PACE).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _number(value: object) -> bool:
    return type(value) in (int, float) and value >= 0  # type: ignore[operator]


def _batches(data: dict) -> list[dict]:
    found = data.get("batches")
    if not isinstance(found, list):
        return []
    return [b for b in found if isinstance(b, dict) and type(b.get("games")) is int and b["games"] > 0
            and _number(b.get("seconds")) and type(b.get("jobs")) is int]


def _bots(data: dict) -> dict[str, tuple[int, float]]:
    found = data.get("bots")
    if not isinstance(found, dict):
        return {}
    return {d: (v[0], float(v[1])) for d, v in found.items()
            if isinstance(v, list) and len(v) == 2 and type(v[0]) is int and v[0] > 0 and _number(v[1])}


def _start(data: dict) -> float:
    value = data.get("start")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else 0.0


def batches(folder: Path) -> list[dict]:
    """The batches ``record`` kept (none where there is no readable pace)."""
    return _batches(_read(folder))


def bots(folder: Path) -> dict[str, tuple[int, float]]:
    """Each submission's games measured and their answering seconds."""
    return _bots(_read(folder))


def run_start(folder: Path) -> float:
    """What the last run took to begin (``record``'s ``start``; 0 before one)."""
    return _start(_read(folder))


def record(folder: Path, games: int, seconds: float, jobs: int, start: float | None = None,
           thinking: Thinking | None = None) -> None:
    """Add a batch's ``games``, played in ``seconds`` over ``jobs`` processes, to the season's pace:
    the process-seconds a game took (the wall time × the processes, so that an estimate for any
    number of processes divides it again), what its bots spent answering (``thinking``), the
    batches' last ``KEPT`` kept and each bot's totals; ``start``: what the last run took to begin
    (the sandbox settled, the workers started). A pace that cannot be written is left as it was
    (it is an estimate's input, not evidence)."""
    data = _read(folder)  # read once: the batches, the bots and the start
    kept = _batches(data)
    per_bot = {d: list(v) for d, v in _bots(data).items()}
    if games:
        batch: dict = {"games": games, "seconds": round(seconds, 4), "jobs": max(1, jobs)}
        if thinking is not None and thinking.games:
            batch.update(think=round(thinking.seconds * games / thinking.games, 4),
                         answers=round(thinking.answers * games / thinking.games),
                         loads=len(thinking.bots) * min(max(1, jobs), games))
            for digest, (count, spent) in thinking.bots.items():
                had = per_bot.get(digest, [0, 0.0])
                per_bot[digest] = [had[0] + count, round(had[1] + spent, 4)]
        kept.append(batch)
    begin = _start(data) if start is None else round(start, 4)
    try:
        write_whole(Path(folder) / PACE, json.dumps({"batches": kept[-KEPT:], "start": begin, "bots": per_bot}))
    except OSError:
        pass


@dataclass(frozen=True)
class Pace:
    """A season's measured pace: the process-seconds a game (``game``, loads included), of which
    its bots' answering (``think``) and the rest but the loads (``rest``), the answers a game, the
    games measured, and each bot's own."""

    game: float
    think: float
    rest: float
    answers: float
    games: int
    bots: dict[str, tuple[int, float]]

    def side(self, folder: Path, digest: str) -> float:
        """What ``digest`` spends answering in a game: its own games' mean less the field's half,
        else its probe's seconds a move times a side's answers in a game, else the field's half."""
        from arcade.contest.submit import probe_pace

        half = self.think / 2
        own = self.bots.get(digest)
        if own is not None:
            return max(0.0, own[1] / own[0] - half)
        probe = probe_pace(folder, digest)
        if probe is not None and self.answers:
            return probe * self.answers / 2
        return half

    def pair(self, folder: Path, a: str, b: str) -> float:
        """The process-seconds a game of ``a`` against ``b`` may take (its bots loaded)."""
        return self.rest + self.side(folder, a) + self.side(folder, b)

    def left(self, folder: Path, pairs: list[tuple[tuple[str, str], int]]) -> float:
        """The process-seconds the missing games of ``pairs`` (each with its count) may take on
        one process: each pair's at its bots' own pace, and each bot loaded once."""
        bots = {digest for (a, b), _count in pairs for digest in (a, b)}
        return sum(count * self.pair(folder, a, b) for (a, b), count in pairs) + LOAD * len(bots)


def measured(folder: Path) -> Pace | None:
    """The season's pace over the kept batches, ``None`` before a game was played."""
    data = _read(folder)
    kept = _batches(data)
    games = sum(b["games"] for b in kept)
    if not games:
        return None
    game = sum(b["seconds"] * b["jobs"] for b in kept) / games
    timed = [b for b in kept if _number(b.get("think")) and _number(b.get("answers"))]
    timed_games = sum(b["games"] for b in timed)
    if not timed_games:
        return Pace(game, 0.0, game, 0.0, games, _bots(data))
    think = sum(b["think"] for b in timed) / timed_games
    answers = sum(b["answers"] for b in timed) / timed_games
    loads = sum(b["loads"] for b in timed if _number(b.get("loads"))) * LOAD / timed_games
    rest = sum(b["seconds"] * b["jobs"] for b in timed) / timed_games - think - loads
    return Pace(game, think, max(0.0, rest), answers, games, _bots(data))
