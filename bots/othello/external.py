"""A side played by an external CS4341 program through the course's file protocol.

The arcade acts as the referee for that one program: it writes the other side's last move to
``move_file`` (empty when the program plays blue and moves first), creates ``NAME.go``, waits up
to the time limit for ``move_file`` to change, reads the answer 100 ms later, and checks it. An
invalid answer (named with its reason), a silent program or a move under another name forfeits
the game, as the course's referee would rule.

The program's name and directory come from the environment, because course programs usually
carry their name inside them: ``ARCADE_OTHELLO_PROGRAM`` (default ``opponent``) and
``ARCADE_OTHELLO_DIR`` (default: the directory the arcade was started in). However the game ends
(the program's move, the other side's, or a forfeit), ``end_game`` is written for it in the
course referee's words and its ``.go`` file created, so that it stops: from ``choose`` when its
own move ends the game or breaks a rule, otherwise from ``game_over``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from bots.base import Bot, Context, Forfeit
from games.base import Result, Termination
from games.othello import COLUMNS, PASS, Othello, OthelloState, end_message, move_problem, square_name

OUR_NAME = "arcade"


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees no file or the whole text, never an empty
    one just created (a program polling for ``end_game`` may read it at any moment)."""
    part = path.with_name(f".{path.name}.part")
    part.write_text(text)
    os.replace(part, path)


class ExternalProgramError(Forfeit):
    """The program broke the protocol (the message says how); it forfeits the game. ``reason`` is
    the course referee's end condition: ``INVALID``, ``OOO`` (out of order) or ``TIME_OUT``."""

    def __init__(self, message: str, reason: str = "INVALID") -> None:
        super().__init__(message, "", Termination.TIME if reason == "TIME_OUT" else Termination.INVALID)
        self.reason = reason


class ExternalProgramBot(Bot):
    """Plays the moves a program writes into ``move_file``."""

    rewindable = False
    """A course program keeps its own board and the protocol cannot tell it a position: an undo
    would leave it out of step, so the session refuses undo in a game with a program."""

    def __init__(self, game: Othello, name: str | None = None, directory: str | None = None,
                 poll: float = 0.05, read_delay: float = 0.1) -> None:
        super().__init__(game)
        self.name = name or os.environ.get("ARCADE_OTHELLO_PROGRAM", "opponent")
        self.folder = Path(directory or os.environ.get("ARCADE_OTHELLO_DIR", "."))
        self.poll = poll
        self.read_delay = read_delay
        self.started = False
        self.told = False  # end_game written for this game
        self.side = 0

    @property
    def go(self) -> Path:
        return self.folder / f"{self.name}.go"

    def _start(self) -> None:
        for name in ("move_file", "end_game", f"{self.name}.go"):
            try:
                (self.folder / name).unlink()
            except FileNotFoundError:
                pass
        self.started = True
        self.told = False

    def choose(self, state: OthelloState, ctx: Context) -> int:
        moves_file = self.folder / "move_file"
        if not self.started:
            self._start()
        self.side = state.to_move
        event = state.event
        if event is None or event.side == state.to_move:
            line = ""
        elif event.move == PASS:
            line = f"{OUR_NAME} P 1"
        else:
            text = square_name(event.move)
            line = f"{OUR_NAME} {text[0]} {text[1]}"
        with open(moves_file, "w") as handle:
            handle.write(line)
        limit = ctx.time_limit if ctx.time_limit is not None else self.game.time_limit
        mtime = moves_file.stat().st_mtime_ns
        ctx.report(f"waiting for {self.name} ({self.folder.resolve()}/{self.name}.go)")
        self.go.touch()
        deadline = time.perf_counter() + limit
        try:
            try:
                while True:
                    if ctx.cancelled():
                        return self.game.legal_moves(state)[0]
                    if moves_file.stat().st_mtime_ns > mtime:
                        break
                    if time.perf_counter() > deadline:
                        raise ExternalProgramError(f"{self.name} did not move within {limit:g} s (Time out!)", "TIME_OUT")
                    time.sleep(self.poll)
                time.sleep(self.read_delay)
                answer = ""
                for candidate in moves_file.read_text().splitlines(keepends=True):
                    if candidate.isspace():
                        break
                    answer = candidate
            finally:
                try:
                    self.go.unlink()
                except FileNotFoundError:
                    pass
            move = self.check(state, answer)
        except ExternalProgramError as exc:
            # as the course's referee: the program is told it lost, and why
            self.tell(end_message(exc.reason, OUR_NAME, self.name))
            raise
        after = self.game.play(state, move)
        if after.over:
            self.finish(after)
        return move

    def game_over(self, state: OthelloState, result: Result) -> None:
        """The game ended without the program's move ending it: tell the program."""
        if not self.started or self.told:
            return
        if state.over:
            self.finish(state)
        elif result.winner is not None:
            # the other side forfeited (in the app: a bot that failed): the program wins
            names = {self.side: self.name, 1 - self.side: OUR_NAME}
            self.tell(end_message("INVALID", names[result.winner], names[1 - result.winner]))

    def check(self, state: OthelloState, answer: str) -> int:
        tokens = answer.split()
        if len(tokens) < 3:
            raise ExternalProgramError(f"{self.name} wrote {answer.strip()!r}, not '<name> <column> <row>' (Invalid move!)")
        group, col, row = tokens[:3]
        if group != self.name:
            raise ExternalProgramError(f"move written under the name {group!r}, not {self.name!r} (Out-of-order move!)", "OOO")
        p, o = state.mover_bits()
        if col == "P":
            move = PASS
        elif col in COLUMNS and row.isdigit() and 1 <= int(row) <= 8:
            move = (int(row) - 1) * 8 + COLUMNS.index(col)
        else:
            raise ExternalProgramError(f"{self.name} played {col} {row}: off the board (Invalid move!)")
        problem = move_problem(p, o, move)
        if problem:
            raise ExternalProgramError(f"{self.name} played {col} {row}: {problem} (Invalid move!)")
        return move

    def finish(self, state: OthelloState) -> None:
        """Write ``end_game`` for the program and give it its ``.go`` to read it."""
        nb, no = state.counts()
        if nb == no:
            text = end_message("TIE")
        else:
            winner = 0 if nb > no else 1
            names = {self.side: self.name, 1 - self.side: OUR_NAME}
            text = end_message("VALID", names[winner], names[1 - winner])
        self.tell(text)

    def tell(self, text: str) -> None:
        """Write ``text`` to ``end_game`` and create the program's ``.go`` so it reads it."""
        write_whole(self.folder / "end_game", text)
        self.go.touch()
        self.told = True
