"""A side played by an external CS4341 program through the course's file protocol.

The arcade acts as the referee for that one program: it writes the other side's last move to
``move_file`` (empty when the program plays blue and moves first) whole, by replacing the file
(``write_whole``: a program that reads it at any moment never finds it emptied by a write under
way), creates ``NAME.go``, waits up to the time limit for ``move_file`` to change, reads the
answer 100 ms later, and checks it. An invalid answer (named with its reason), a silent program
or a move under another name forfeits the game, as the course's referee would rule.

The program's name and directory come from the environment, because course programs usually
carry their name inside them: ``ARCADE_OTHELLO_PROGRAM`` (default ``opponent``) and
``ARCADE_OTHELLO_DIR`` (default: the directory the arcade was started in). However the game ends
(the program's move, the other side's, or a forfeit), ``end_game`` is written for it in the
course referee's words and its ``.go`` file created, so that it stops: from ``choose`` when its
own move ends the game or breaks a rule, otherwise from ``game_over``; a game left unfinished
(the screen left, a new game, the app quit, an exception) from ``left``, or at exit.

A program the arcade starts itself (a CS4341 submission, ``path/to/team/team:program``:
``bots.external.program``) has this referee beside it, inside its sandbox: ``referee_main`` is
that process (``Referee``), which copies the program's folder into a private working folder,
starts the program there, and plays each of its turns through the same ``ExternalProgramBot``.
"""

from __future__ import annotations

import atexit
import errno
import os
import stat
import time
import weakref
from contextlib import contextmanager, suppress
from pathlib import Path

from bots.base import Bot, Context, Forfeit, printable
from bots.external import safe_files
from bots.limits import move_time
from games.base import Result, Termination
from games.othello import (COLUMNS, PASS, Othello, OthelloEvent, OthelloState, end_message, move_problem,
                           square_name)

OUR_NAME = "arcade"


MAX_FILE = 1 << 16
"""The most a protocol file may hold (a move line is a dozen bytes): 64 KiB."""

_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
"""Every open of a protocol file: never through a symbolic link, never blocked by a named pipe."""


class FileTrouble(Exception):
    """A protocol file, or its folder, that cannot be used as one; the message names the file and
    what is wrong with it (gone, a symbolic link, a directory, not text, too large). ``missing``:
    the file does not exist (its folder does)."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(printable(message))
        self.missing = missing


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"


def folder_gone(folder: Path) -> bool:
    """Whether ``folder`` was deleted (or replaced by something that is no folder)."""
    try:
        info = os.stat(folder)
    except OSError:
        return True
    return not stat.S_ISDIR(info.st_mode) or info.st_nlink == 0


def trouble(path: Path, exc: OSError, doing: str = "use") -> FileTrouble:
    """The ``FileTrouble`` an ``OSError`` on protocol file ``path`` means, in words."""
    name, code = path.name, exc.errno
    if code in (errno.ENOENT, errno.ENOTDIR) and folder_gone(path.parent):
        return FileTrouble(f"the folder {path.parent} is gone")
    if code == errno.ENOENT:
        return FileTrouble(f"{name} is gone (deleted)", missing=True)
    if code == errno.ELOOP:
        return FileTrouble(f"{name} is a symbolic link, not followed")
    if code == errno.EISDIR:
        return FileTrouble(f"{name} is a directory, not a file")
    if code == errno.ENXIO:
        return FileTrouble(f"{name} is a named pipe, not a file")
    if code in (errno.EACCES, errno.EPERM):
        return FileTrouble(f"cannot {doing} {name}: permission denied")
    return FileTrouble(f"cannot {doing} {name}: {exc.strerror or exc}")


@contextmanager
def _folder_of(path: Path, doing: str):
    """The descriptor of protocol file ``path``'s folder (the folder the program was given, whose
    path is trusted: ``ARCADE_OTHELLO_DIR``, ``--dir``), for the operation on the file's name in
    it (``bots.external.safe_files``): a program that renames its folder or swaps a name for a
    link between two steps of one operation bends nothing."""
    try:
        folder = safe_files.open_folder(path.parent)
    except OSError as exc:
        raise trouble(path, exc, doing) from None
    try:
        yield folder
    finally:
        os.close(folder)


def _open_regular(folder: int, path: Path, flags: int, doing: str) -> int:
    """``path``'s name opened in the folder open as ``folder``, a regular file; one opened to be
    changed (written, its time renewed: ``O_WRONLY``, ``O_CREAT``) has one name only, since a
    hard link is someone else's file too (truncated only once that is known)."""
    try:
        fd = os.open(path.name, flags | _FLAGS, 0o666, dir_fd=folder)
    except OSError as exc:
        raise trouble(path, exc, doing) from None
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise trouble(path, exc, doing) from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise FileTrouble(f"{path.name} is {_kind(info.st_mode)}, not a file")
    if flags & (os.O_WRONLY | os.O_CREAT) and info.st_nlink > 1:
        os.close(fd)
        raise FileTrouble(f"{path.name} is a hard link (a file with another name too), not changed")
    return fd


def read_file(path: Path, limit: int = MAX_FILE) -> str:
    """The text of protocol file ``path``, read without following a symbolic link or waiting on a
    pipe; ``FileTrouble`` when it is gone, not a regular file, larger than ``limit`` bytes or not
    text (bytes that are not UTF-8)."""
    with _folder_of(path, "read") as folder:
        fd = _open_regular(folder, path, os.O_RDONLY, "read")
    chunks, size = [], 0
    try:
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise trouble(path, exc, "read") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileTrouble(f"{path.name} holds more than {limit >> 10} KiB")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise FileTrouble(f"{path.name} holds bytes that are not UTF-8 text") from None


def _write_at(folder: int, path: Path, text: str) -> None:
    fd = _open_regular(folder, path, os.O_WRONLY | os.O_CREAT, "write")
    try:
        os.ftruncate(fd, 0)
        data = text.encode()
        while data:
            data = data[os.write(fd, data):]
    except OSError as exc:
        raise trouble(path, exc, "write") from None
    finally:
        os.close(fd)


def touch(path: Path) -> None:
    """Create ``path`` (a ``.go`` file) or renew its time, never through a symbolic link."""
    with _folder_of(path, "create") as folder:
        fd = _open_regular(folder, path, os.O_RDONLY | os.O_CREAT, "create")
    try:
        os.utime(fd)
    except OSError:
        pass  # not ours to renew: it exists, which is what a player looks for
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    """Remove ``path`` if it is there (a symbolic link itself, never its target)."""
    with _folder_of(path, "remove") as folder:
        _remove_at(folder, path)


def _remove_at(folder: int, path: Path) -> None:
    try:
        os.unlink(path.name, dir_fd=folder)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise trouble(path, exc, "remove") from None


def changed_at(path: Path) -> int | None:
    """When ``path`` itself last changed (``lstat``: a symbolic link is not followed), in ns;
    ``None`` when it does not exist (its folder does). To tell whether it changed since an
    earlier look, compare ``file_signature``s instead."""
    signature = file_signature(path)
    return None if signature is None else signature[2]


def file_signature(path: Path) -> tuple[int, int, int, int] | None:
    """What tells that ``path`` was written or replaced since an earlier look (``lstat``, a symbolic
    link not followed): its inode, size, and modification and change times in ns; ``None`` when
    it does not exist (its folder does). The times alone miss a change: a file's times come from a
    coarse clock (a few ms a tick), so a file replaced in the same tick keeps the same mtime; a
    replaced file has a new inode, a rewritten one most often a new size or ctime."""
    try:
        with _folder_of(path, "use") as folder:
            st = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
    except FileTrouble as problem:
        if problem.missing:
            return None
        raise
    except OSError as exc:
        problem = trouble(path, exc)
        if problem.missing:
            return None
        raise problem from None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def last_line(text: str) -> str:
    """The line the course referee reads: the last non-empty line before a blank one."""
    line = ""
    for candidate in text.splitlines(keepends=True):
        if candidate.isspace():
            break
        line = candidate
    return line


class NoMove(Exception):
    """No move was written to ``move_file`` within the time limit; the message says what was seen."""


def await_move(path: Path, before: tuple[int, int, int, int] | None, folder: Path, limit: float, poll: float,
               read_delay: float, cancelled=None) -> str | None:
    """The line a program writes to ``path`` (``move_file``) on its turn, read as the course referee
    reads it: look every ``poll`` seconds until its ``file_signature`` differs from ``before``,
    then read it ``read_delay`` later and take its ``last_line``. A file found empty is a write
    still under way (a program's open truncates before its write), so it is read again at the next
    look rather than taken as an empty move. ``None`` when ``cancelled()``; ``FileTrouble`` when
    the folder is gone, the file cannot be read, or it is gone at the limit; ``NoMove`` when
    ``limit`` seconds pass without a line."""
    deadline = time.perf_counter() + limit
    emptied = False
    while True:
        if cancelled is not None and cancelled():
            return None
        now = file_signature(path)  # None: gone; a program may remove it and write it again
        if now is not None and now != before:
            time.sleep(read_delay)
            line = last_line(read_file(path))
            if line.strip():
                return line
            emptied = True
        if folder_gone(folder):
            raise FileTrouble(f"the folder {folder} is gone")
        if time.perf_counter() > deadline:
            if file_signature(path) is None:
                raise FileTrouble(f"{path.name} is gone (deleted)")
            if emptied:
                raise NoMove(f"{path.name} was emptied but no move written within {limit:g} s")
            raise NoMove(f"no move within {limit:g} s")
        time.sleep(poll)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees no file or the whole text, never an empty
    one just created (a program polling for ``end_game`` may read it at any moment). Never
    through a symbolic link, every step in the same folder's descriptor; ``FileTrouble`` if it
    cannot be done."""
    part = path.with_name(f".{path.name}.part")
    with _folder_of(path, "write") as folder:
        _remove_at(folder, part)
        _write_at(folder, part, text)
        try:
            os.replace(part.name, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError as exc:
            with suppress(OSError):
                os.unlink(part.name, dir_fd=folder)
            raise trouble(path, exc, "write") from None


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
        self.folder = Path(directory or os.environ.get("ARCADE_OTHELLO_DIR", ".")).absolute()
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
            remove(self.folder / name)
        self.started = True
        self.told = False
        _PLAYING.add(self)

    def left(self, state: OthelloState) -> None:
        """The game was left unfinished (the player left, a new game, the app quit or failed):
        the program is told, in the course referee's words, that it won on our time-out (the
        arcade's side stopped moving), so that it stops waiting."""
        if not self.started or self.told:
            return
        with suppress(FileTrouble):
            self.tell(end_message("TIME_OUT", self.name, OUR_NAME))
        _PLAYING.discard(self)

    def choose(self, state: OthelloState, ctx: Context) -> int:
        """The program's move: its files are read and written without following a symbolic link;
        a file that cannot be used (gone, a link, a directory, not text) or a folder that is gone
        forfeits, as ``ExternalProgramError`` naming it."""
        try:
            return self._choose(state, ctx)
        except FileTrouble as exc:
            error = ExternalProgramError(f"{self.name}'s files failed: {exc} (Invalid move!)")
            with suppress(FileTrouble):
                self.tell(end_message(error.reason, OUR_NAME, self.name))
            raise error from None

    def _choose(self, state: OthelloState, ctx: Context) -> int:
        moves_file = self.folder / "move_file"
        if not self.started:
            self._start()
        self.side = state.to_move
        write_whole(moves_file, self.our_last_move(state))
        limit = move_time(self.game, ctx.time_limit)
        before = file_signature(moves_file)
        ctx.report(printable(f"waiting for {self.name} ({self.folder}/{self.name}.go)"))
        touch(self.go)
        try:
            try:
                answer = await_move(moves_file, before, self.folder, limit, self.poll, self.read_delay,
                                    ctx.cancelled)
            except NoMove:
                raise ExternalProgramError(f"{self.name} did not move within {limit:g} s (Time out!)",
                                           "TIME_OUT") from None
            finally:
                with suppress(FileTrouble):
                    remove(self.go)
            if answer is None:  # cancelled: the game is being left
                return self.game.legal_moves(state)[0]
            move = self.check(state, answer)
        except ExternalProgramError as exc:
            # as the course's referee: the program is told it lost, and why
            with suppress(FileTrouble):
                self.tell(end_message(exc.reason, OUR_NAME, self.name))
            raise
        after = self.game.play(state, move)
        if after.over:
            with suppress(FileTrouble):  # the move stands; a program that cannot be told is stuck
                self.finish(after)
        return move

    def our_last_move(self, state: OthelloState) -> str:
        """The line for ``move_file`` that the other program would have written: our side's last
        move (``arcade E 3``, a pass ``arcade P 1``), empty when the program is to open the game."""
        event = state.event
        if event is None or event.side == self.side:
            return ""
        if event.move == PASS:
            return f"{OUR_NAME} P 1"
        text = square_name(event.move)
        return f"{OUR_NAME} {text[0]} {text[1]}"

    def game_over(self, state: OthelloState, result: Result) -> None:
        """The game ended without the program's move ending it: tell the program."""
        if not self.started or self.told:
            return
        if state.over:
            # our move ended it: in move_file first, as the other program's would be, so that
            # the program's own board (and its final count) takes it before reading end_game
            with suppress(FileTrouble):
                line = self.our_last_move(state)
                if line:
                    write_whole(self.folder / "move_file", line)
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
        """Write ``text`` to ``end_game`` and create the program's ``.go`` so it reads it;
        ``FileTrouble`` if the files cannot be written."""
        write_whole(self.folder / "end_game", text)
        touch(self.go)
        self.told = True
        _PLAYING.discard(self)


_PLAYING: "weakref.WeakSet[ExternalProgramBot]" = weakref.WeakSet()
"""Programs in a game not yet told its end: told at exit, however the arcade ends (an exception
that never reached the screen's unmount included)."""


@atexit.register
def _tell_the_left() -> None:
    for bot in list(_PLAYING):
        with suppress(Exception):  # the arcade is ending: a folder gone is no reason to fail
            bot.left(bot.game.initial_state())


# -- the referee of a program the arcade starts itself (a CS4341 submission) ----------------------

START_WAIT = 2.0
"""Seconds a program just started may take to settle before its game begins (its interpreter or
JVM loaded, waiting for its ``.go``): the referee waits until its processes' CPU time stays still
for ``SETTLED`` looks, at most this long, so that starting is not charged to its first move."""
SETTLED = 2
LOOK = 0.05
AFTER_MOVE = 0.5
"""Seconds at most the referee waits after a move, its ``.go`` removed, for the program to go
still (one ``LOOK``) before its turn ends and it is frozen until the next: a program that waits
for its ``.go`` to go away before it waits for it again sees it gone."""
WORK_PREFIX = "arcade-program-"
"""The working folder's name, before the referee's pid (``working_copy``)."""
END_WAIT = 1.0
"""Seconds a program told the end (``end_game`` and its ``.go``) has to read it and end by itself
(printing who won, as the course asked) before it is killed with everything it started."""


class Referee:
    """The arcade's referee of one program, inside the program's sandbox (``referee_main``):
    ``handle`` answers the arcade's requests. ``Load``: the program's folder (at the path the
    sandbox shows) copied into a private working folder (``working_copy``), the program started
    there (``start_program``), ``Loaded``. Then ``Move`` requests whose arguments are the
    referee's own (``bots.external.program``): ``["turn", blue, orange, to_move, ply, last,
    seconds]`` (``last``: ``[side, square]`` of the move before, or ``None``) is one turn of the
    course's files (``ExternalProgramBot``, never through a link), answered ``Moved(square)`` or,
    for a forfeit, ``Moved({"reason": INVALID|OOO|TIME_OUT, "message": the referee's words})``;
    ``["end", blue, orange, to_move, ply, last, over, winner]`` tells the program the end (the
    last move in ``move_file``, ``end_game``) and ``["left"]`` that its game was left; each is
    answered ``Moved(None)`` once the program ended or ``END_WAIT`` passed."""

    def __init__(self, send) -> None:
        self.send = send
        self.bot: ExternalProgramBot | None = None
        self.program = None

    def handle(self, request) -> bool:
        from bots.external.wire import Failed, Load, Loaded, Move, Moved

        if isinstance(request, Load):
            problem = self.load(request) if self.program is None else "loaded twice"
            self.send(Failed(problem) if problem else Loaded())
        elif isinstance(request, Move) and self.bot is not None:
            kind, args = (request.args[0], request.args[1:]) if request.args else (None, [])
            try:
                if kind == "turn":
                    self.send(Moved(self.turn(*args)))
                elif kind in ("end", "left"):
                    self.end(args if kind == "end" else None)
                    self.send(Moved(None))
                else:
                    self.send(Failed(f"the referee has no request {printable(repr(kind)[:40])}"))
            except (TypeError, ValueError) as exc:
                self.send(Failed(f"the referee cannot read the request ({exc})"))
        elif isinstance(request, Move):
            self.send(Failed("no program loaded"))
        return True  # a Seed: a program draws its own randomness

    def load(self, request) -> str | None:
        """Copy the program's folder, start the program; what went wrong, in one line, or ``None``."""
        from bots.external.child import set_caps

        set_caps(request.memory, request.processes)
        path = Path(request.path)
        try:
            work = working_copy(path.parent)
        except OSError as exc:
            return f"the program's folder cannot be copied into its working folder: {exc.strerror or exc}"
        try:
            self.program = start_program(work, path.name)
        except OSError as exc:
            remove_working_copy(work)
            return f"cannot start {printable(path.name)}: {exc.strerror or exc}"
        settle(self.program, START_WAIT, SETTLED)
        if self.program.poll() is not None:
            remove_working_copy(work)
            return f"{printable(path.name)} ended at once, before its first move ({exit_text(self.program)})"
        self.bot = ExternalProgramBot(Othello(), path.name, str(work))
        return None

    def turn(self, blue: int, orange: int, to_move: int, ply: int, last, seconds: float) -> object:
        """The program's move in the position sent, or the referee's ruling of its forfeit."""
        bot = self.bot
        state = OthelloState(to_move=to_move, ply=ply, event=_event(last), blue=blue, orange=orange)
        stopped: list[bool] = []

        def ended() -> bool:  # a program that ended cannot move: no need to wait out its time
            if self.program.poll() is not None:
                stopped.append(True)
            return bool(stopped)

        try:
            move = bot.choose(state, Context(time_limit=float(seconds), cancelled=ended))
        except ExternalProgramError as exc:
            return {"reason": exc.reason, "message": str(exc)}
        if stopped:
            message = f"{bot.name} ended ({exit_text(self.program)}) without a move (Time out!)"
            with suppress(FileTrouble):
                bot.tell(end_message("TIME_OUT", OUR_NAME, bot.name))
            return {"reason": "TIME_OUT", "message": message}
        settle(self.program, AFTER_MOVE, 1)
        return move

    def end(self, args: list | None) -> None:
        """Tell the program its game ended (``args``: the last position, whether it is over, the
        winner) or was left (``None``), then give it ``END_WAIT`` to end by itself."""
        bot = self.bot
        with suppress(FileTrouble):
            if args is None:
                bot.left(Othello().initial_state())
            else:
                blue, orange, to_move, ply, last, over, winner = args
                result = Result(winner, "", Termination.NORMAL)
                state = OthelloState(to_move=to_move, ply=ply, event=_event(last), blue=blue, orange=orange,
                                     result=result if over else None)
                bot.game_over(state, result)
        with suppress(Exception):
            self.program.wait(END_WAIT)

    def stop(self) -> None:
        """Kill the program, the arcade's pipe closed (what it started is in the referee's process
        group and sandbox, which the arcade kills whole)."""
        if self.program is not None:
            with suppress(OSError):
                self.program.kill()


def _event(last) -> OthelloEvent | None:
    """The move before (``[side, square]``, ``PASS`` for a pass) as the position's event."""
    if last is None:
        return None
    side, square = last
    if side not in (0, 1) or type(square) is not int or not 0 <= square <= PASS:
        raise ValueError("no move")
    return OthelloEvent(side, square, "", square=None if square == PASS else square, passed=square == PASS)


def working_copy(folder: Path) -> Path:
    """A private, writable copy of the program's ``folder`` (as the sandbox shows it: itself a
    copy) in the temporary folder (the sandbox's private ``/tmp``, a tmpfs of
    ``bots.external.sandbox.TMP_SIZE``), named for this process: its regular files and folders,
    never through a link (``safe_files.copy_tree``), at most ``FOLDER_MAX`` bytes (as the sandbox's
    own copy), ``.deps`` left out. A submission keeps bytes, not modes, so a file that begins as
    one that runs does (``EXECUTABLE_HEADS``) is made executable."""
    import tempfile

    from bots.external.sandbox_launch import FOLDER_MAX
    from bots.external.specs import EXECUTABLE_HEADS

    name = f"{WORK_PREFIX}{os.getpid()}"
    source = safe_files.open_folder(folder)
    try:
        held = safe_files.open_folder(tempfile.gettempdir())
        try:
            safe_files.copy_tree(source, held, name, skip=".deps", limit=FOLDER_MAX, heads=EXECUTABLE_HEADS)
        finally:
            os.close(held)
    finally:
        os.close(source)
    return Path(tempfile.gettempdir()) / name


def remove_working_copy(work: Path) -> None:
    """Remove the working folder ``work`` (``working_copy``), from descriptors, never through a
    link: the referee's when its program did not start; else the arcade's, once both are killed
    (in the sandbox it goes with the sandbox's ``/tmp``)."""
    try:
        held = safe_files.open_folder(work.parent)
    except OSError:
        return
    try:
        safe_files.remove_tree(held, work.name)
    except OSError:
        pass
    finally:
        os.close(held)


def start_program(work: Path, name: str):
    """The program ``work/name`` started in ``work`` (its standard input empty, its output the
    log's), in the referee's process group, dying with the referee, with an environment of its
    own: never the instructor's (outside the sandbox), a ``PATH``, ``HOME`` its folder, a locale."""
    import subprocess

    env = {"PATH": os.environ.get("PATH") or "/usr/local/bin:/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8"}
    env |= {key: value for key, value in os.environ.items() if key.endswith("_NUM_THREADS")}  # a split cap's
    return subprocess.Popen([str(work / name)], cwd=work, stdin=subprocess.DEVNULL, stdout=2, stderr=2,
                            env=env, close_fds=True, preexec_fn=_die_with_referee)


def _die_with_referee() -> None:
    """In the program's process before it runs: killed when the referee ends (``PR_SET_PDEATHSIG``)."""
    import ctypes

    with suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)


def settle(program, wait: float, looks: int) -> None:
    """Wait until the program's processes use no CPU for ``looks`` looks ``LOOK`` apart (it waits
    for its ``.go``), it ends, or ``wait`` seconds pass."""
    deadline = time.monotonic() + wait
    last, still = _group_cpu(), 0
    while still < looks and time.monotonic() < deadline and program.poll() is None:
        time.sleep(LOOK)
        now = _group_cpu()
        still = still + 1 if now == last else 0
        last = now


def _group_cpu() -> int:
    """Clock ticks of CPU used by the other processes of this process group (the program's)."""
    group, me, total = os.getpgid(0), os.getpid(), 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 12 and fields[2] == str(group):
            total += int(fields[11]) + int(fields[12])
    return total


def exit_text(program) -> str:
    """How the program ended: ``status 1``, ``killed by SIGKILL``."""
    import signal

    code = program.returncode
    if code is not None and code < 0:
        with suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"status {code}"


def referee_main() -> None:
    """The process the arcade starts for a CS4341 program (``bots.external.program``), in the file
    bots' sandbox, in the file bots' way (``bots.external.child``: the requests on standard input,
    the answers on the packet socket of standard output, the rest to the log): it dies with the
    arcade, makes itself not dumpable (the program, the same user, cannot read or write its
    memory) and serves a ``Referee`` until the arcade closes its pipe, then kills the program."""
    from bots.external.child import serve, watch_parent
    from bots.external.sandbox import hide_arcade
    from bots.external.wire import encode

    watch_parent()
    hide_arcade()
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.dup(1)  # a packet socket (``bots.external.transport.answer_channel``)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # the program's output and the referee's go to the log

    def send(message) -> None:
        data = memoryview(encode(message))
        while data:
            data = data[os.write(proto_out, data[:1 << 16]):]

    referee = Referee(send)
    try:
        serve(referee, proto_in)
    finally:
        referee.stop()
