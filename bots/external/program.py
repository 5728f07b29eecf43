"""A CS4341 program as a bot: ``path/to/team/team:program``, the executable named the team (a
script with its ``#!`` line, or a compiled program) that plays Othello through the course's files
(``move_file``, ``team.go``, ``end_game``), as CS4341 collected them: "the code of their program
and an executable (or script) named groupname".

The arcade starts it itself, for each game, the way it starts every file bot
(``bots.external.transport.ProcessTransport``: the bwrap sandbox with no network, its rlimits and
cgroups, frozen between its turns, its output in its log). The process started is the arcade's
referee (``bots.othello.cs4341_program.referee_main``): it copies the program's folder into a
private, writable working folder in the sandbox's own ``/tmp`` (a small tmpfs), starts the program
there and plays its turns through the course's files, never through a link
(``ExternalProgramBot``). So a program writes nowhere but that folder, its ``/tmp`` and
``/dev/shm``, and the arcade's side of the files is never within its reach.

The arcade's clock holds as for every file bot (a turn's round trip, the answer stamped by the
kernel), with the course's limit a move (Othello's ``time_limit`` option, 10 s, or the run's) and
``SLACK`` for the referee's own reading (100 ms after ``move_file`` changed, as the course's
referee read it); the course measured time on the wall clock, so a program's CPU time (a JVM's
threads) is not counted against it. A forfeit is said in the referee's words: ``gamma played
D 3: space occupied (Invalid move!)``, ``gamma did not move within 10 s (Time out!)``,
``move written under the name 'delta', not 'gamma' (Out-of-order move!)``. However a game ends,
the program is told (``end_game``: the course's last message), given a moment to end by itself,
then killed with everything it started (its sandbox with it); the next game starts a fresh one.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bots.base import ERROR, MEMORY, Bot, Forfeit
from bots.external.host import (ALL_PROCESSES, UNCONTAINED, Cancelled, Eof, ExternalEntry, FileBotSource, TimedOut,
                                memory_text)
from bots.external.wire import Move, Moved
from bots.limits import Limits, move_time
from games.base import Result, Termination

SLACK = 1.0
"""Seconds past a move's limit the arcade's clock allows a program's answer: the referee keeps
the course's limit itself (the move written in time), then reads ``move_file`` 100 ms after it
changed (as the course's referee did) and waits for the program to go still (at most 0.5 s:
``bots.othello.cs4341_program.AFTER_MOVE``)."""
END_TIMEOUT = 5.0
"""Seconds the referee has to tell the program its end (it waits ``END_WAIT``, 1 s, for the
program to end by itself) before the arcade kills them both anyway."""
RULINGS = {"INVALID": Termination.INVALID, "OOO": Termination.INVALID, "TIME_OUT": Termination.TIME}
"""The referee's rulings (``ExternalProgramError.reason``) and how each ends the game."""


def position(state) -> list:
    """``state`` as the referee rebuilds it: blue's and orange's discs, the side to move, the ply
    and the move before (``[side, square]``, ``None`` at the start)."""
    event = state.event
    return [state.blue, state.orange, state.to_move, state.ply, None if event is None else [event.side, event.move]]


def time_out(name: str, limit: float) -> str:
    """The referee's words for a program that did not move in time."""
    return f"{name} did not move within {limit:g} s (Time out!)"


class ProgramSource(FileBotSource):
    """A program for the games of one match: ``FileBotSource``'s process (its limits, log, clock
    and lock), one process a game. ``played``: the live process has had a turn, so a new game
    kills it and starts another (``ask`` with ``new_game``); ``end`` tells it its game ended and
    kills it."""

    def __init__(self, game_id: str, spec: str, limits: Limits = UNCONTAINED, logs=None, **transport) -> None:
        super().__init__(game_id, spec, limits, logs, **transport)
        self.name = self.path.name
        self.played = False

    def discard(self) -> None:
        """Kill the process (the referee and the program, everything they started); an
        unsandboxed program's working folder is removed too (the sandbox's ``/tmp`` goes with it)."""
        with self.lock:
            proc = getattr(getattr(self.host, "transport", None), "proc", None)
            super().discard()
            self.played = False
            if proc is not None and self.sandbox == "none":  # in the sandbox, it went with its /tmp
                from bots.othello.cs4341_program import WORK_PREFIX, remove_working_copy

                remove_working_copy(Path(tempfile.gettempdir()) / f"{WORK_PREFIX}{proc.pid}")

    def ask(self, game, state, ctx, seed: int | None = None, new_game: bool = False):
        """The program's move in ``state``, ``None`` if ``ctx`` cancelled it, or ``Forfeit`` in the
        referee's words. The clock is the arcade's (``Host.round_trip``), wall time only."""
        limit = self.limit(game, ctx)
        with self.lock:
            if new_game and self.played:  # a game of its own: never the process of another game
                self.discard()
            host = self.ready_host(game)
            self.played = True
            host.thaw()  # its turn: the clock starts after
            try:
                reply, seconds = host.round_trip(Move(["turn", *position(state), limit]),
                                                 limit + SLACK + self.grace(limit), ctx.cancelled)
            finally:
                host.freeze()
            ctx.took = seconds
            if host.memory_exceeded():
                self.discard()
                raise Forfeit(MEMORY, f"{memory_text(self.memory or 0)}, {ALL_PROCESSES}", Termination.MEMORY)
            if isinstance(reply, Cancelled):
                self.discard()
                return None
            return self._ruled(game, state, host, reply, seconds, limit)

    def _ruled(self, game, state, host, reply, seconds: float, limit: float):
        """The move ``reply`` brings, checked by the arcade too, or its ``Forfeit``."""
        if isinstance(reply, TimedOut):
            self.discard()
            raise Forfeit(time_out(self.name, limit), f"no answer after {limit + SLACK + self.grace(limit):g}s; "
                          "stopped", Termination.TIME)
        if isinstance(reply, Eof):
            text = host.exit_text()
            self.discard()
            raise Forfeit(f"{self.name} broke off the game", text, Termination.CRASH)
        if not isinstance(reply, Moved):
            self.discard()
            raise Forfeit(ERROR, getattr(reply, "detail", "") or f"its referee answered {type(reply).__name__}")
        move = reply.move
        if type(move) is dict:
            message = move.get("message")
            if move.get("reason") not in RULINGS or not isinstance(message, str):
                self.discard()
                raise Forfeit(ERROR, "its referee's ruling is garbled")
            raise Forfeit(message, "", RULINGS[move["reason"]])
        if seconds > limit + SLACK:
            self.discard()
            raise Forfeit(time_out(self.name, limit), f"{seconds * 1000:.0f} ms", Termination.TIME)
        if type(move) is not int or move not in game.legal_moves(state):
            self.discard()
            raise Forfeit(ERROR, f"its referee answered {move!r}, no legal move")
        return move

    def end(self, state, result: Result | None) -> None:
        """The game ended at ``state`` with ``result`` (``None``: it was left unfinished): the
        program is told as the course's referee tells it (``end_game``), then killed with
        everything it started, its sandbox with it."""
        with self.lock:
            host = self.host
            if host is not None and host.alive and self.played:
                if result is None:
                    request = ["left"]
                else:
                    request = ["end", *position(state), state.over, result.winner]
                host.thaw()
                try:
                    host.exchange(Move(request), END_TIMEOUT)
                finally:
                    host.freeze()
            self.discard()


class ProgramBot(Bot):
    """One game's side played by a program (``ProgramSource``): its first turn starts the game's
    own process, its end kills it."""

    rewindable = False
    """A program keeps its own board and the referee's files cannot tell it a position."""

    def __init__(self, game, source: ProgramSource) -> None:
        super().__init__(game)
        self.source = source
        self.asked = False

    def choose(self, state, ctx):
        move = self.source.ask(self.game, state, ctx, new_game=not self.asked)
        self.asked = True
        return self.game.legal_moves(state)[0] if move is None else move  # None: no longer wanted

    def move_seconds(self) -> float:
        return move_time(self.game, self.source.limits.time)

    def game_over(self, state, result: Result) -> None:
        self.source.end(state, result)

    def left(self, state) -> None:
        self.source.end(state, None)


def program_entry(game_id: str, spec: str, limits: Limits = UNCONTAINED, logs=None) -> ExternalEntry:
    """The ``BotEntry`` of program ``spec`` (``path/to/team/team:program``) for ``game_id`` under
    ``limits``, their sandbox settled (``bwrap`` or ``none``, as ``bots.registry.admit`` settles a
    file bot's); ``BadSpec`` if it names no program (``bots.external.specs.program_file``)."""
    source = ProgramSource(game_id, spec, limits, logs)
    return ExternalEntry(
        name=spec,
        description=f"the CS4341 program {source.name}, through the referee's files (output: {source.log_path})",
        factory=lambda game: ProgramBot(game, source),
        source=source,
    )
