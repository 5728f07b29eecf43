"""The plan: what a tournament will play, checked before anything runs (the command's
pre-flight and ``--plan``, the tournament screen's), with no process started and no bot's code run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from arcade.tournament.formats import DEFAULT_GAMES, FORMATS, TournamentError, planned_pairs
from bots.limits import Limits


def check(game_id: str, bots: Sequence[str], fmt: str, games: int | None) -> int:
    """The games a pair plays (``games``, or the format's default); ``TournamentError`` for an
    unknown format, fewer than two bots, a bot named twice, or fewer than one game a pair."""
    if fmt not in FORMATS:
        raise TournamentError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    if len(bots) < 2:
        raise TournamentError("a tournament needs at least two bots")
    seen = set()
    for bot in bots:
        if bot in seen:
            raise TournamentError(f"bot {bot!r} is named twice; name each bot once")
        seen.add(bot)
    games = DEFAULT_GAMES[fmt] if games is None else games
    if games < 1:
        raise TournamentError("--games must be at least 1")
    return games


def pairs_in(fmt: str, bots: int) -> int:
    """The pairs a tournament of ``bots`` bots plays in all, every round's (the groups format's
    ``planned_pairs``)."""
    if bots < 2:
        return 0
    return bots * (bots - 1) // 2 if fmt == "round-robin" else planned_pairs(bots)


def planned_games(fmt: str, bots: int, games: int) -> int:
    """The games a tournament of ``bots`` bots and ``games`` a pair plays in all (what the
    progress bars count); 0 while that is no tournament (fewer than two bots or games)."""
    return pairs_in(fmt, bots) * games if games >= 1 else 0


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament as it will be played: its ``bots``, ``fmt``, ``games`` a pair, and the
    ``pairs`` that play in all (every round's, in groups); ``total`` games."""

    game_id: str
    bots: tuple[str, ...]
    fmt: str
    games: int
    pairs: int

    @property
    def total(self) -> int:
        return self.pairs * self.games

    def clocks(self, game, limits: Limits = Limits()) -> dict[str, float]:
        """Seconds a move of each bot may take: the run's time (``limits.time``) where it sets
        one; else a file bot's is the game's (``bots.limits.move_time``) and a built-in bot's its
        own (``Bot.move_seconds``: ``alphabeta-1s`` 1 s, a bot that keeps no clock 10 ms)."""
        from bots.external import is_file_spec
        from bots.registry import resolve

        if limits.time is not None:
            return {bot: limits.time for bot in self.bots}
        return {bot: limits.move_time(game) if is_file_spec(bot) else resolve(game.id, bot).make(game).move_seconds()
                for bot in self.bots}


def plan(game_id: str, bots: Sequence[str], fmt: str = "round-robin", games: int | None = None,
         read_files: bool = False, bundle_cap: int | None = None) -> TournamentPlan:
    """The tournament's plan, after its pre-flight: ``check``; no bot that cannot play unattended
    (``BotEntry.unattended``: Othello's ``external``, a program someone starts); every name a bot
    of the game (``bots.registry.check``: a file bot's file exists, its function is a name); with
    ``read_files``, each file bot's file read and compiled too (a plan that runs nothing checks
    what loading it would; ``check_files``); with ``bundle_cap`` (a cluster's run), each file bot's
    folder packed as it would travel (``pack_bots``) and let go. ``TournamentError`` names the first
    problem; nothing runs, no bot's code included."""
    from arcade.tournament.cluster import pack_bots
    from bots.registry import UnknownBot, bots_for
    from bots.registry import check as check_name

    games = check(game_id, bots, fmt, games)
    built_in = bots_for(game_id)
    for bot in bots:
        if bot in built_in and not built_in[bot].unattended:
            raise TournamentError(f"bot {bot!r} cannot play unattended (it needs a program you start); "
                                  "a tournament cannot use it")
        try:
            check_name(game_id, bot)
        except UnknownBot as exc:
            raise TournamentError(str(exc)) from None
    if read_files:
        check_files(game_id, bots)
    if bundle_cap is not None:
        pack_bots(game_id, bots, bundle_cap)
    return TournamentPlan(game_id, tuple(bots), fmt, games, pairs_in(fmt, len(bots)))


def check_files(game_id: str, bots: Sequence[str]) -> None:
    """Check each file bot without running any of its code: the file is valid Python (in its
    declared encoding, UTF-8 by default). (A real run also starts each bot and loads its file, in
    its sandbox.) ``TournamentError`` names the first bad one."""
    from bots.external import is_file_spec, parse_spec, short_name
    from bots.external.specs import is_program_spec

    for bot in bots:
        if not is_file_spec(bot) or is_program_spec(bot):  # a CS4341 program: any language
            continue
        path, _function = parse_spec(bot, game_id)
        try:
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte in the source
            where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            raise TournamentError(f"bot {short_name(bot)!r}: not valid Python{where}: "
                                  f"{getattr(exc, 'msg', None) or exc}") from None
        except OSError as exc:
            raise TournamentError(f"bot {short_name(bot)!r}: cannot read it: {exc.strerror or exc}") from None
