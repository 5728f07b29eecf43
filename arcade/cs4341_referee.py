"""The CS4341 referee and player: Othello over files, as the course runs its programs.

Files in one directory (the seed's PROGRAM COMMUNICATION section and the course referee v6):

- ``move_file``: the last move, one line ``<name> <COL> <ROW>`` (``<name> P <row>`` for a pass);
  empty at the start.
- ``<name>.go``: present while it is ``<name>``'s turn.
- ``end_game``: the result, ``<winner> WINS! <loser> LOSES! <reason>`` or ``Match TIED!``.

``run_player`` plays one game as a course program: wait for ``<name>.go`` (stop if ``end_game``
exists), read the opponent's move from ``move_file`` (empty: we are blue and move first), check it
(an invalid move is printed with its reason and the program stops), think under the time limit and
write the answer in one write.

``run_referee`` does what the course referee does: random colours, ``.go`` files, polling
``move_file`` every 50 ms for up to the time limit, reading it 100 ms after it changes, its checks in
its order (a move under the opponent's name: out of order; a pass while a move exists, an occupied,
off-board or non-flipping square: invalid), its ``end_game`` texts exactly, the board printed after
each move as it prints it. Differences, all on purpose: it removes only its own files at the start
(the course's pattern also deleted any file whose name contains a character followed by "go");
a malformed line is an invalid move instead of a crash; at the end it creates both ``.go`` files,
as the seed says, so that waiting players look for ``end_game``.

Files that fail never crash either side. Both read and write the files without following a
symbolic link or waiting on a named pipe (``bots.othello.cs4341_program``'s ``read_file``,
``write_whole``, ``touch``), and a file that is not text, too large, a link, a directory or gone, or
a folder that is gone, is a ``FileTrouble`` naming it: the player prints it and stops (status 1);
the referee ends the game as an invalid move by the program to move (``FileFault``), prints the
reason, writes ``end_game`` if it still can, and its command exits with status 1. Text from the
files is printed ``printable`` (no escape sequence reaches the terminal).
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from arcade.session import Session
from bots.base import Bot, BotEntry, Context, Forfeit, printable
from bots.limits import move_time
from bots.othello.cs4341_program import (
    FileTrouble,
    NoMove,
    await_move,
    changed_at,
    file_signature,
    folder_gone,
    last_line,
    read_file,
    remove,
    touch,
    write_whole,
)
from games.base import Termination
from games.othello import (
    BLUE,
    COLUMNS,
    ORANGE,
    PASS,
    TIME_LIMIT,
    Othello,
    OthelloState,
    end_message,
    legal_bits,
    move_problem,
    referee_board_text,
    square_name,
)

MOVE_FILE = "move_file"
END_FILE = "end_game"


class ProtocolError(Exception):
    """The files say something the protocol does not allow (a message for the user)."""


@dataclass
class ParsedMove:
    """A move line checked against a position: the move, or why it is invalid."""

    group: str
    col: str
    row: str
    move: int | None
    problem: str

    @property
    def text(self) -> str:
        return f"{self.col} {self.row}"


def check_move(state: OthelloState, group: str, col: str, row: str) -> ParsedMove:
    """Check ``col row`` for the side to move, naming the seed's reason when it is invalid."""
    p, o = state.mover_bits()
    if col.upper() == "P":
        problem = "pass while a move exists" if legal_bits(p, o) else ""
        return ParsedMove(group, col, row, None if problem else PASS, problem)
    try:
        r = int(row)
    except ValueError:
        return ParsedMove(group, col, row, None, "off the board")
    c = col.upper()
    if len(c) != 1 or c not in COLUMNS or not 1 <= r <= 8:
        return ParsedMove(group, col, row, None, "off the board")
    square = (r - 1) * 8 + COLUMNS.index(c)
    problem = move_problem(p, o, square)
    return ParsedMove(group, col, row, None if problem else square, problem)


def move_line(name: str, move: int) -> str:
    """What a player writes: ``name E 3``, or ``name P 1`` for a pass."""
    if move == PASS:
        return f"{name} P 1"
    text = square_name(move)
    return f"{name} {text[0]} {text[1]}"


# -- the player ------------------------------------------------------------------------------------

def run_player(
    name: str,
    bot: BotEntry,
    time_limit: float = TIME_LIMIT,
    directory: str | os.PathLike = ".",
    poll: float = 0.01,
    out: Callable[[str], None] = print,
    seed: int | None = None,
) -> int:
    """Play one game as program ``name``; return 0 when ``end_game`` says it is over, 1 on a
    protocol error, an invalid opponent move or a file that cannot be used (``move_file`` or
    ``end_game`` not text, a symbolic link, a directory, gone; the folder gone), printed with its
    reason. Text from the files is printed ``printable``."""
    folder = Path(directory).absolute()
    try:
        return _play(name, bot, time_limit, folder, poll, out, seed)
    except FileTrouble as exc:
        out(f"{name}: {exc}; stopping")
        return 1


def _play(name: str, bot: BotEntry, time_limit: float, folder: Path, poll: float,
          out: Callable[[str], None], seed: int | None) -> int:
    return _Player(name, bot, time_limit, folder, poll, out, seed).play()


class _Player:
    """``run_player``'s game: the files it watches, the board as the moves came, our colour
    (``None`` until the first turn says it) and the last line we wrote."""

    def __init__(self, name: str, bot: BotEntry, time_limit: float, folder: Path, poll: float,
                 out: Callable[[str], None], seed: int | None) -> None:
        self.name, self.folder, self.poll, self.out, self.time_limit = name, folder, poll, out, time_limit
        self.go, self.end, self.moves = folder / f"{name}.go", folder / END_FILE, folder / MOVE_FILE
        self.game = Othello(time_limit=time_limit)
        self.player = bot.make(self.game)
        self.rng = random.Random(seed)
        self.state = self.game.initial_state()
        self.me: int | None = None
        self.written: str | None = None
        self.started = time.time()
        self.stale_go: tuple | None = None

    def before_us(self, when: int | None) -> bool:
        """A file time (``changed_at``) from before this program started: an earlier game's."""
        return when is not None and when < (self.started - 0.05) * 1e9

    def end_text(self) -> str | None:
        when = changed_at(self.end)
        if when is None or self.before_us(when):
            return None  # not there, or left over from an earlier game
        text = read_file(self.end)
        # empty: created, not yet written (the writer's open comes before its write)
        return text if text.strip() else None

    def play(self) -> int:
        # An earlier game's end_game here means its other files are here too (both .go files, its
        # last move): none of them is this game's until a referee clears them and creates our .go anew.
        self.stale_go = file_signature(self.go) if self.before_us(changed_at(self.end)) else None
        if self.stale_go is not None:
            self.out(f"{self.name}: the files of an earlier game are in {printable(str(self.folder))}; waiting "
                     "for the referee to start a new one")
        while True:
            line = self.wait_for_turn()
            if line is None:
                return 0
            turn_started = time.perf_counter()
            failed = self.take(line)
            if failed is not None:
                return failed
            if self.state.over:
                self.written = line.strip()  # nothing to play: wait for the referee's end_game
                continue
            failed = self.answer(turn_started)
            if failed is not None:
                return failed

    def wait_for_turn(self) -> str | None:
        """Wait for our turn, using no CPU but a short sleep between looks: our ``.go`` file and
        a ``move_file`` line that is not ours (the opponent's move; empty: we move first).
        ``None`` when ``end_game`` says the game is over (printed, with our final count)."""
        while True:
            result = self.end_text()
            if result is not None:
                self.finish(result)
                return None
            if folder_gone(self.folder):
                raise FileTrouble(f"the folder {self.folder} is gone")
            if os.path.lexists(self.go) and (self.stale_go is None or file_signature(self.go) != self.stale_go):
                self.stale_go = None
                try:
                    line = last_line(read_file(self.moves))
                except FileTrouble as exc:
                    if not exc.missing or self.me is not None:
                        raise
                    line = ""  # no move_file yet: we move first
                if not line.strip() and self.me is not None:
                    pass  # a write under way (a referee's open empties the file before it writes)
                elif line.strip() != (self.written or "") or self.written is None:
                    return line
            time.sleep(self.poll)

    def finish(self, result: str) -> None:
        self.out(printable(result.strip(), multiline=True))
        self.state = _catch_up(self.state, self.moves, self.written, self.name)
        if self.me is not None:
            nb, no = self.state.counts()
            self.out(f"{self.name} played {'blue' if self.me == BLUE else 'orange'}; discs: blue {nb}, orange {no}")

    def take(self, line: str) -> int | None:
        """The opponent's move of ``line`` played on our board (none: we are blue and move
        first); 1, with the reason printed, when it is no valid move."""
        tokens = line.split()
        shown = printable(line.strip())
        if not tokens:  # empty only on our first turn (``wait_for_turn`` waits out any other)
            self.me = BLUE
            return None
        if len(tokens) < 3:
            self.out(f"Invalid move: {shown!r}: a move is '<name> <column> <row>'")
            return 1
        if self.me is None:
            self.me = ORANGE
        group, col, row = tokens[:3]
        if group == self.name:
            self.out(f"{self.name}: move_file holds our own move {shown!r} on our turn (left from an unfinished "
                     "earlier game? start the referee first: it clears them); stopping")
            return 1
        checked = check_move(self.state, group, col, row)
        if checked.move is None:
            self.out(printable(f"Invalid move by {group}: {checked.text} ({checked.problem})"))
            return 1
        self.state = self.game.play(self.state, checked.move)
        return None

    def answer(self, turn_started: float) -> int | None:
        """Our bot's move, thought under the time limit and written in one write; 1, with the
        reason printed, when it is not our turn by the board or our bot failed."""
        name, state = self.name, self.state
        if state.to_move != self.me:
            self.out(f"{name}: it is not our turn by the board ({self.game.sides[state.to_move].name} to move); "
                     "stopping")
            return 1
        ctx = Context(rng=self.rng, time_limit=self.time_limit)
        ctx.started = turn_started - self.poll  # the .go file appeared up to one look ago
        try:
            move = self.player.choose(state, ctx)
            after = self.game.play(state, move)  # an illegal move is the bot's bug
        except Forfeit as exc:  # a file bot's fault, in the course's words
            self.out(f"{name}: our bot {exc}; stopping")
            return 1
        except Exception as exc:  # noqa: BLE001 - a bot's bug stops the program, with its reason
            self.out(printable(f"{name}: our bot failed ({type(exc).__name__}: {exc}); stopping"))
            return 1
        text = move_line(name, move)
        write_whole(self.moves, text)
        self.written = text
        self.state = after
        self.out(f"{name} ({self.game.sides[self.me].name}) plays {square_name(move)} in "
                 f"{time.perf_counter() - turn_started:.2f} s")
        return None


def _catch_up(state: OthelloState, moves: Path, written: str | None, name: str) -> OthelloState:
    """Apply the opponent's last move if the game ended on it (for the final disc count)."""
    try:
        line = last_line(read_file(moves)).strip()
    except FileTrouble:
        return state
    tokens = line.split()
    if state.over or line == (written or "") or len(tokens) < 3 or tokens[0] == name:
        return state
    checked = check_move(state, *tokens[:3])
    return Othello().play(state, checked.move) if checked.move is not None else state


# -- the referee -----------------------------------------------------------------------------------

class ProgramFault(Forfeit):
    """A refereed program's fault; ``course`` is the referee's end condition for ``end_message``
    (``TIME_OUT``, ``INVALID``, or ``OOO``: the *other* program wrote a move on this one's turn,
    and it is the other that loses)."""

    def __init__(self, course: str, detail: str, wording: str | None = None) -> None:
        kind = Termination.TIME if course == "TIME_OUT" else Termination.INVALID
        super().__init__(wording or REFEREE_WORDS[course], detail, kind)
        self.course = course


class FileFault(ProgramFault):
    """The game's files failed on a program's turn (``move_file`` not text, a symbolic link, a
    directory, gone; the folder gone): the program to move loses, as for an invalid move, and the
    detail names what was wrong."""

    def __init__(self, detail: str) -> None:
        super().__init__("INVALID", detail, "could not be refereed")


REFEREE_WORDS = {"TIME_OUT": "did not move in time", "OOO": "moved out of order", "INVALID": "made an invalid move"}


class RefereedProgram(Bot):
    """One program as the course referee sees it: its ``.go`` file is created (the other's
    removed), ``move_file`` is polled every ``poll`` seconds for up to the time limit, and the
    line read ``read_delay`` after it changed is checked in the referee's order. The files are
    never followed through a symbolic link; one that cannot be used is a ``FileFault``."""

    def __init__(self, game: Othello, name: str, opponent: str, folder: Path, out: Callable[[str], None],
                 poll: float, read_delay: float) -> None:
        super().__init__(game)
        self.name, self.opponent, self.folder = name, opponent, folder
        self.out, self.poll, self.read_delay = out, poll, read_delay

    def choose(self, state: OthelloState, ctx: Context) -> int:
        try:
            return self._choose(state, ctx)
        except FileTrouble as exc:
            raise FileFault(str(exc)) from None

    def _choose(self, state: OthelloState, ctx: Context) -> int:
        moves = self.folder / MOVE_FILE
        remove(self.folder / f"{self.opponent}.go")
        before = file_signature(moves)
        touch(self.folder / f"{self.name}.go")
        limit = move_time(self.game, ctx.time_limit)
        try:
            line = await_move(moves, before, self.folder, limit, self.poll, self.read_delay)
        except NoMove as exc:
            raise ProgramFault("TIME_OUT", str(exc)) from None
        tokens = line.split()
        if tokens and tokens[0] == self.opponent:
            raise ProgramFault("OOO", f"move_file holds {line.strip()!r}")
        self.out(printable(f"Move: {line.rstrip()}"))
        if len(tokens) < 3:
            raise ProgramFault("INVALID", f"{line.strip()!r} is not '<name> <column> <row>'")
        checked = check_move(state, tokens[0], tokens[1], tokens[2])
        # the course referee takes only an upper-case column letter (and 'P')
        if checked.move is None or tokens[1] not in tuple(COLUMNS) + ("P",):
            raise ProgramFault("INVALID", checked.problem or f"column {tokens[1]!r}")
        return checked.move


@dataclass(frozen=True)
class Refereed:
    """How a refereed game ended: ``message``, the ``end_game`` text; ``reason``, the loser's fault
    as printed (``None`` when the game was played out); ``broken``, what went wrong with the files
    (a ``FileFault``, an error that is no program's fault, ``end_game`` that could not be
    written), ``None`` when nothing did. The command exits with status 1 when something did."""

    message: str
    reason: str | None = None
    broken: str | None = None


def run_referee(
    name1: str,
    name2: str,
    time_limit: float = TIME_LIMIT,
    directory: str | os.PathLike = ".",
    rng: random.Random | None = None,
    out: Callable[[str], None] = print,
    poll: float = 0.05,
    read_delay: float = 0.1,
) -> Refereed:
    """Referee one game between programs ``name1`` and ``name2``; return how it ended.

    The game is a ``Session`` whose two bots are the refereed programs: a program's fault is the
    session's forfeit, named in ``end_game`` with the referee's words, and its reason printed. Any
    other error on a program's turn (the files failed) ends the game as an invalid move by the
    program to move. ``end_game`` is written when it still can be; ``ProtocolError`` if the game
    cannot start (a name that is no one word, a file of ours that cannot be removed or written)."""
    if name1 == name2:
        raise ProtocolError("the two programs need different names")
    for name in (name1, name2):
        if not name or any(ch.isspace() for ch in name) or "/" in name or printable(name) != name:
            raise ProtocolError(f"a program name is one printable word without '/', not {name!r}")
    folder = Path(directory).absolute()
    rng = rng or random.Random()
    blue, orange = (name2, name1) if rng.choice([True, False]) else (name1, name2)
    players = (blue, orange)
    try:
        for stale in (MOVE_FILE, END_FILE, f"{name1}.go", f"{name2}.go"):
            remove(folder / stale)
    except FileTrouble as exc:
        raise ProtocolError(f"cannot start the game: {exc}") from None
    game = Othello(time_limit=time_limit)
    programs = {side: RefereedProgram(game, players[side], players[1 - side], folder, out, poll, read_delay)
                for side in (BLUE, ORANGE)}
    session = Session(game, programs)  # each move's time: the game's (``bots.limits.move_time``)
    out(f"Initial Board:\n{referee_board_text(session.state.blue, session.state.orange)}\n")
    try:
        write_whole(folder / MOVE_FILE, "")
    except FileTrouble as exc:
        raise ProtocolError(f"cannot start the game: {exc}") from None
    course, reason, broken = _referee_moves(session, players, out)
    message = _end_text(session, course, players)
    if reason is not None:
        out(f"Reason: {reason}")
    try:
        write_whole(folder / END_FILE, message)
        for name in players:
            touch(folder / f"{name}.go")
    except FileTrouble as exc:
        broken = broken or f"end_game not written: {exc}"
        out(f"The players were not told the end: {exc}")
    out(f"Game Over: {message}")
    out(f"Final Board:\n{referee_board_text(session.state.blue, session.state.orange)}")
    return Refereed(message, reason, broken)


def _referee_moves(session: Session, players: tuple[str, str],
                   out: Callable[[str], None]) -> tuple[str, str | None, str | None]:
    """Ask the programs in turn until the game ends, printing the board after each move. How it
    ended: the referee's end condition of a fault (``INVALID`` for a fault that is no
    ``ProgramFault``: an error on a program's turn), the loser's fault as printed, and what went
    wrong with the files; ``None`` for those two when the game was played out."""
    while not session.over:
        answer = session.ask()
        loser = answer.side
        fault = answer.forfeit
        if isinstance(fault, ProgramFault) and fault.course == "OOO":
            loser = 1 - answer.side
            session.forfeit_by(loser, fault)  # the other program wrote out of turn
        else:
            session.apply(answer)
        if fault is None:
            out(f"Board:\n{referee_board_text(session.state.blue, session.state.orange)}\n")
            continue
        course = fault.course if isinstance(fault, ProgramFault) else "INVALID"
        if isinstance(fault, FileFault):
            broken = fault.detail
        else:
            broken = None if isinstance(fault, ProgramFault) else str(fault)
        return course, f"{players[loser]} {fault}", broken
    return "INVALID", None, None


def _end_text(session: Session, course: str, players: tuple[str, str]) -> str:
    """``end_game``'s text: the forfeit's in the referee's words, else the discs' count."""
    blue, orange = players
    if session.forfeit is not None:
        winner = players[session.forfeit.winner]
        return end_message(course, winner, orange if winner == blue else blue)
    nb, no = session.state.counts()
    if nb == no:
        return end_message("TIE")
    winner = blue if nb > no else orange
    return end_message("VALID", winner, orange if winner == blue else blue)
