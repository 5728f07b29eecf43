"""The CS4341 Othello file protocol: a player program and a referee, as the course runs them.

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
symbolic link or waiting on a named pipe (``bots.othello.external``'s ``read_file``,
``write_file``, ``touch``), and a file that is not text, too large, a link, a directory or gone, or
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
from bots.othello.external import (
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
    write_file,
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
    go, end, moves = folder / f"{name}.go", folder / END_FILE, folder / MOVE_FILE
    game = Othello(time_limit=time_limit)
    player = bot.make(game)
    rng = random.Random(seed)
    state = game.initial_state()
    me: int | None = None
    written: str | None = None
    started = time.time()

    def before_us(when: int | None) -> bool:
        """A file time (``changed_at``) from before this program started: an earlier game's."""
        return when is not None and when < (started - 0.05) * 1e9

    def end_text() -> str | None:
        when = changed_at(end)
        if when is None or before_us(when):
            return None  # not there, or left over from an earlier game
        text = read_file(end)
        # empty: created, not yet written (the writer's open comes before its write)
        return text if text.strip() else None

    # An earlier game's end_game here means its other files are here too (both .go files, its
    # last move): none of them is this game's until a referee clears them and creates our .go anew.
    stale_go = file_signature(go) if before_us(changed_at(end)) else None
    if stale_go is not None:
        out(f"{name}: the files of an earlier game are in {printable(str(folder))}; waiting for the referee "
            "to start a new one")

    while True:
        # wait for our turn (or the end), using no CPU but a short sleep between looks
        while True:
            result = end_text()
            if result is not None:
                out(printable(result.strip(), multiline=True))
                state = _catch_up(state, moves, written, name)
                if me is not None:
                    nb, no = state.counts()
                    out(f"{name} played {'blue' if me == BLUE else 'orange'}; discs: blue {nb}, orange {no}")
                return 0
            if folder_gone(folder):
                raise FileTrouble(f"the folder {folder} is gone")
            if os.path.lexists(go) and (stale_go is None or file_signature(go) != stale_go):
                stale_go = None
                try:
                    line = last_line(read_file(moves))
                except FileTrouble as exc:
                    if not exc.missing or me is not None:
                        raise
                    line = ""  # no move_file yet: we move first
                if line.strip() != (written or "") or written is None:
                    break
            time.sleep(poll)
        turn_started = time.perf_counter()
        tokens = line.split()
        shown = printable(line.strip())
        if not tokens:
            if me is not None:
                out(f"{name}: move_file is empty in the middle of the game; stopping")
                return 1
            me = BLUE
        else:
            if len(tokens) < 3:
                out(f"Invalid move: {shown!r}: a move is '<name> <column> <row>'")
                return 1
            if me is None:
                me = ORANGE
            group, col, row = tokens[:3]
            if group == name:
                out(f"{name}: move_file holds our own move {shown!r} on our turn (left from an unfinished "
                    "earlier game? start the referee first: it clears them); stopping")
                return 1
            checked = check_move(state, group, col, row)
            if checked.move is None:
                out(printable(f"Invalid move by {group}: {checked.text} ({checked.problem})"))
                return 1
            state = game.play(state, checked.move)
        if state.over:
            written = line.strip()  # nothing to play: wait for the referee's end_game
            continue
        if state.to_move != me:
            out(f"{name}: it is not our turn by the board ({game.sides[state.to_move].name} to move); stopping")
            return 1
        ctx = Context(rng=rng, time_limit=time_limit)
        ctx.started = turn_started - poll  # the .go file appeared up to one look ago
        try:
            move = player.choose(state, ctx)
            after = game.play(state, move)  # an illegal move is the bot's bug
        except Forfeit as exc:  # a file bot's fault, in the course's words
            out(f"{name}: our bot {exc}; stopping")
            return 1
        except Exception as exc:  # noqa: BLE001 - a bot's bug stops the program, with its reason
            out(printable(f"{name}: our bot failed ({type(exc).__name__}: {exc}); stopping"))
            return 1
        text = move_line(name, move)
        write_whole(moves, text)
        written = text
        state = after
        out(f"{name} ({game.sides[me].name}) plays {square_name(move)} in {time.perf_counter() - turn_started:.2f} s")


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
        write_file(folder / MOVE_FILE, "")
    except FileTrouble as exc:
        raise ProtocolError(f"cannot start the game: {exc}") from None

    course = "INVALID"  # a fault that is no ProgramFault (an error on a program's turn) ends as invalid
    reason = broken = None
    while not session.over:
        answer = session.ask()
        loser = answer.side
        if isinstance(answer.forfeit, ProgramFault) and answer.forfeit.course == "OOO":
            loser = 1 - answer.side
            session.forfeit_by(loser, answer.forfeit)  # the other program wrote out of turn
        else:
            session.apply(answer)
        if answer.forfeit is None:
            out(f"Board:\n{referee_board_text(session.state.blue, session.state.orange)}\n")
            continue
        if isinstance(answer.forfeit, ProgramFault):
            course = answer.forfeit.course
        if isinstance(answer.forfeit, FileFault):
            broken = answer.forfeit.detail
        elif not isinstance(answer.forfeit, ProgramFault):
            broken = str(answer.forfeit)
        reason = f"{players[loser]} {answer.forfeit}"
    state = session.state
    if session.forfeit is not None:
        winner = players[session.forfeit.winner]
        message = end_message(course, winner, orange if winner == blue else blue)
    else:
        nb, no = state.counts()
        if nb == no:
            message = end_message("TIE")
        else:
            winner = blue if nb > no else orange
            message = end_message("VALID", winner, orange if winner == blue else blue)
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
    out(f"Final Board:\n{referee_board_text(state.blue, state.orange)}")
    return Refereed(message, reason, broken)
