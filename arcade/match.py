"""Headless play: one game between two bots, and matches of many games (``arcade match``).

Player A plays side 0 (which moves first) in odd-numbered games and side 1 in even ones. Every
game gets its own generators derived from the match seed and the game's number (``arcade.seeds``;
the global ``random`` is seeded from them before each game too, for course bots that draw from
it), so the same seed gives the same result whatever else runs. A contest season's games are
dealt instead from the season's seed, the game's deal and each side's role in it, whichever pair
plays them (``season``: ``arcade.seeds.season_rngs``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from arcade.seeds import match_rngs, season_rngs, seed_global_random, seed_season_random
from arcade.session import Session
from bots.base import Bot, BotEntry
from bots.limits import Limits
from games.base import Game, Result, State, Termination


@dataclass
class GameRecord:
    """One finished game from the match's point of view (players A = 0 and B = 1)."""

    number: int
    first: int  # the player (0 = A, 1 = B) who played side 0
    winner: int | None  # the winning player, None for a draw
    reason: str
    plies: int
    forfeit: int | None = None  # the player who forfeited, if any
    termination: Termination = Termination.NORMAL  # how the game ended (a forfeit: why)
    max_move_seconds: tuple[float, float] = (0.0, 0.0)
    moved_first: int | None = None  # the player who moved first, when that is not side 0's
    moves: list[str] = field(default_factory=list)  # every move and chance outcome, as text
    times: list[float] = field(default_factory=list)  # every bot answer's seconds, in order

    def as_json(self) -> dict:
        """The record as one JSON object (a line of a record log)."""
        # the fields as ``asdict`` gives them, in their order, without its deep copy of every move
        # (which was most of what a season's coordinator spent a game)
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["moves"] = list(self.moves)
        data["termination"] = self.termination.value
        data["max_move_seconds"] = [round(s, 6) for s in self.max_move_seconds]
        data["times"] = [round(s, 6) for s in self.times]
        return data

    @classmethod
    def from_json(cls, data: dict) -> "GameRecord":
        data = dict(data)
        data["termination"] = Termination(data.get("termination", "normal"))
        data["max_move_seconds"] = tuple(data.get("max_move_seconds", (0.0, 0.0)))
        return cls(**{key: value for key, value in data.items() if key in cls.__dataclass_fields__})


class Tally:
    """Counts over ``records``, a list of ``GameRecord`` (players A = 0 and B = 1)."""

    records: list[GameRecord]

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> list[int]:
        return [sum(r.winner == p for r in self.records) for p in (0, 1)]

    @property
    def draws(self) -> int:
        return sum(r.winner is None for r in self.records)

    @property
    def forfeits(self) -> list[int]:
        return [sum(r.forfeit == p for r in self.records) for p in (0, 1)]


@dataclass
class MatchSummary(Tally):
    game: str
    players: tuple[str, str]
    settings: dict
    seed: int
    records: list[GameRecord] = field(default_factory=list)

    @property
    def forfeit_reasons(self) -> list[dict[str, int]]:
        """For each player, how many games it forfeited for each reason."""
        reasons: list[dict[str, int]] = [{}, {}]
        for r in self.records:
            if r.forfeit is not None:
                reasons[r.forfeit][r.reason] = reasons[r.forfeit].get(r.reason, 0) + 1
        return reasons

    @property
    def first_player_wins(self) -> list[int]:
        return [sum(r.winner == p and _moved_first(r) == p for r in self.records) for p in (0, 1)]

    @property
    def side0_wins(self) -> list[int]:
        """Wins of each player while playing side 0 (differs from moving first in Robot Ludo)."""
        return [sum(r.winner == p and r.first == p for r in self.records) for p in (0, 1)]

    @property
    def max_move_seconds(self) -> list[float]:
        return [max((r.max_move_seconds[p] for r in self.records), default=0.0) for p in (0, 1)]

    def as_json(self) -> dict:
        return {
            "game": self.game,
            "players": list(self.players),
            "options": self.settings,
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "forfeits": self.forfeits,
            "forfeit_reasons": self.forfeit_reasons,
            "first_player_wins": self.first_player_wins,
            "side0_wins": self.side0_wins,
            "max_move_seconds": [round(s, 6) for s in self.max_move_seconds],
        }


_MS = re.compile(r"(\d+(?:\.\d+)?) ms")
SHOWN_DETAILS = 2
"""Different details (an error's message) a grouped forfeit line names before "and N more"."""


def forfeit_lines(forfeits: Iterable[tuple[str, str]]) -> list[str]:
    """``(player, reason)`` of each forfeit, as the lines ``arcade match`` and ``arcade
    tournament`` print: one a player and wording, the most frequent first, its games counted and
    its details (the part in brackets) brought together: ``slow forfeited 10×: Player 1 strategy
    took >100ms to return a move (503–613 ms)``; other details are named, ``SHOWN_DETAILS`` at
    most (``(ValueError: x; KeyError: 'a'; and 3 more)``)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for player, reason in forfeits:
        wording, detail = split_reason(reason)
        groups.setdefault((player, wording), []).append(detail)
    lines = []
    for (player, wording), details in sorted(groups.items(), key=lambda item: (item[0][0], -len(item[1]), item[0][1])):
        said = detail_text(details)
        lines.append(f"{player} forfeited {len(details)}×: {wording}{f' ({said})' if said else ''}")
    return lines


def split_reason(reason: str) -> tuple[str, str]:
    """A forfeit's reason as its wording and its detail: ``Blue strategy took >1s to return a
    move (1503 ms)`` → (``Blue strategy took >1s to return a move``, ``1503 ms``)."""
    start = reason.find(" (")
    if start < 0 or not reason.endswith(")"):
        return reason, ""
    return reason[:start], reason[start + 2:-1]


def detail_text(details: list[str]) -> str:
    """The details of one kind of forfeit together: times as a range (``503–613 ms``), other
    details each once, in the order first met."""
    times = [float(found[1]) for detail in details if (found := _MS.fullmatch(detail))]
    others = list(dict.fromkeys(detail for detail in details if detail and not _MS.fullmatch(detail)))
    parts = []
    if times:
        low, high = min(times), max(times)
        parts.append(f"{low:g} ms" if low == high else f"{low:g}–{high:g} ms")
    parts.extend(others[:SHOWN_DETAILS])
    if len(others) > SHOWN_DETAILS:
        parts.append(f"and {len(others) - SHOWN_DETAILS} more")
    return "; ".join(parts)


def _moved_first(record: GameRecord) -> int:
    return record.first if record.moved_first is None else record.moved_first


@dataclass
class Outcome:
    """How ``play_out`` ended: the final state and result (``result.forfeited``: who forfeited)."""

    state: State
    result: Result
    move_seconds: tuple[float, float]
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    @property
    def forfeit(self) -> int | None:
        return self.result.forfeited


def play_out(
    game: Game,
    bots: tuple[Bot, Bot],
    chance_rng: random.Random,
    bot_rngs: tuple[random.Random, random.Random],
    limits: Limits | None = None,
    state: State | None = None,
) -> Outcome:
    """Play ``bots[0]`` (side 0) against ``bots[1]`` (side 1) to the end in a ``Session``, which
    tells both bots how it ended (``Bot.game_over``), under ``limits`` (``bots.limits``).

    A bot that raises, or returns a move that is not legal, forfeits: the other side wins, in the
    courses' words (``arcade.session``), e.g. "Michigan strategy took >100ms to return a move".
    """
    session = Session(game, {0: bots[0], 1: bots[1]}, chance_rng, bot_rngs, limits, state)
    result = session.play_to_end()
    return Outcome(session.state, result, (session.slowest[0], session.slowest[1]), session.move_texts(),
                   session.times)


def run_match(
    game: Game,
    entries: tuple[BotEntry, BotEntry],
    games: int = 100,
    seed: int = 0,
    limits: Limits | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    first_game: int = 1,
    log=None,
    season: bool = False,
) -> MatchSummary:
    """Play ``games`` games between two bots, A first in odd games, B first in even ones, each
    move under ``limits``'s time (the entries were admitted under the same ``limits``).

    ``first_game`` numbers the first game (a tournament plays a pair's games in chunks: game
    ``k`` is the same game whichever chunk plays it). File bots' processes are killed at the end.
    With a ``log`` (``arcade.records.log.RecordLog``) each game is appended as it ends, and a game the
    log holds already is taken from it instead of played (a resumed match).

    ``season``: ``seed`` is a contest season's (``arcade.seeds.season_seed``) and each game is
    dealt by ``season_rngs``: its dice and the first and second movers' generators (and the
    global ``random``) from its deal and the roles, not from which player is A, so that equal
    strategies get equal games against every opponent.
    """
    try:
        return _run_match(game, entries, games, seed, limits, on_game, first_game, log, season)
    finally:
        for entry in entries:
            entry.close()


def _run_match(game, entries, games, seed, limits, on_game, first_game, log, season) -> MatchSummary:
    summary = MatchSummary(game.id, (entries[0].name, entries[1].name), dict(game.settings), seed)
    for number in range(first_game, first_game + games):
        recorded = log.get("match", entries[0].name, entries[1].name, number) if log is not None else None
        if recorded is not None:
            summary.records.append(recorded)
            if on_game is not None:
                on_game(recorded)
            continue
        first = 0 if number % 2 else 1
        # A game whose first mover is an option (Robot Ludo's ``starting``) gives each game its
        # variant, so that colour and first move alternate independently.
        this_game = game.match_variant(number)
        # Course bots draw from the global ``random`` (D-Football's random_move, as the course's
        # did): seed it per game too, so that a game does not depend on the games played before
        # it in this process (a tournament's chunks run in any order over its workers).
        if season:
            chance_rng, rng_first, rng_second = season_rngs(seed, number)
            seed_season_random(seed, number)
            mover = this_game.first_side
            rngs = (rng_first, rng_second) if mover == 0 else (rng_second, rng_first)
        else:
            chance_rng, rng_a, rng_b = match_rngs(seed, number)
            seed_global_random(seed, number)
            rngs = (rng_a, rng_b) if first == 0 else (rng_b, rng_a)
        players = (entries[first].make(this_game), entries[1 - first].make(this_game))
        outcome = play_out(this_game, players, chance_rng, rngs, limits)

        def player_of(side: int | None) -> int | None:
            return None if side is None else (side if first == 0 else 1 - side)

        seconds = outcome.move_seconds if first == 0 else outcome.move_seconds[::-1]
        record = GameRecord(
            number=number,
            first=first,
            winner=player_of(outcome.result.winner),
            reason=outcome.result.reason,
            plies=outcome.state.ply,
            forfeit=player_of(outcome.forfeit),
            termination=outcome.result.termination,
            max_move_seconds=(seconds[0], seconds[1]),
            moved_first=player_of(this_game.first_side),
            moves=outcome.moves,
            times=outcome.times,
        )
        summary.records.append(record)
        if log is not None:
            log.append("match", entries[0].name, entries[1].name, seed, record)
        if on_game is not None:
            on_game(record)
    return summary
