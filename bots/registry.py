"""The one bot resolver: a game's bots by name, and students' file bots by path.

Every caller that turns a name into a bot comes here: ``arcade match``, ``arcade tournament``
(and its worker processes), the setup screen, the tournament screen, the game screen and the
Othello player. A name is a built-in bot of the game (``bots/<game id>``'s ``BOTS``, imported only
when asked) or a file bot, ``path/to/file.py:function`` in the course's signature, run in a
process of its own (``bots.external``), contained by bubblewrap where it can (``bots.external.sandbox``);
a CS4341 program, ``path/to/team/team:program``, is a file bot whose process is the arcade's
referee of the program's files (``bots.external.program``), dispatched in ``resolve``.
Every entry answers ``probe(game)`` (load it now: ``None`` or what is wrong) and ``close()``
(release its process), built-in bots with nothing to do.

``admit(game, specs, limits)`` is the one way a front end admits the bots of a run: it settles
the sandbox (``contain``), resolves every name and probes every entry, in the sandbox the run
will use, closing what it made when one fails. Front ends only turn its errors (``UnknownBot``,
``bots.external.sandbox.SandboxUnavailable``) into their own messages.

The game screen finds a game's analysis engine here too (``analyser_for``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from bots.base import BotEntry
from bots.external import BadSpec, file_entry, is_file_spec, parse_spec
from bots.external.program import program_entry
from bots.external.specs import is_program_spec
from bots.limits import Limits
from bots.external.sandbox import SandboxUnavailable, choose
from games.base import Analysis


class UnknownBot(KeyError):
    """A bot name the game does not have, or a file bot that names no loadable function; the
    message says why and lists the valid names. ``index``: which of ``admit``'s specs it is."""

    index: int | None = None

    def __str__(self) -> str:
        return str(self.args[0])


def bots_for(game_id: str) -> dict[str, BotEntry]:
    """The game's built-in bots by name, in the order the setup screen lists them."""
    module = importlib.import_module(f"bots.{game_id}")
    return dict(module.BOTS)


def analyser_for(game_id: str) -> Callable[..., Analysis] | None:
    """The game's ``analyse(game, state, cancelled=...) -> Analysis`` (``bots/<game id>``), the
    engine behind the game screen's analysis, which runs it in a worker thread (``cancelled()``
    turns true when the position changed; a long analysis stops early then); ``None`` for a game
    whose board works its analysis out alone (Hog's table, Toothpick Takeaway's multiples)."""
    module = importlib.import_module(f"bots.{game_id}")
    return getattr(module, "analyse", None)


@dataclass(frozen=True)
class Contained:
    """How a run's file bots are contained: ``limits`` with the sandbox settled (``bwrap`` or
    ``none`` when there are file bots), and the warning to show when ``auto`` fell back to none."""

    limits: Limits
    warning: str | None = None


def contain(specs: Iterable[str], limits: Limits, required: bool = False) -> Contained:
    """Settle the sandbox of the file bots among ``specs`` (``bots.external.sandbox.choose``): cheap, so
    a front end may call it first for a message at once; ``admit`` calls it too. ``required``
    (a tournament's file bots): ``auto`` means ``bwrap``, never a fallback to no sandbox.
    ``SandboxUnavailable`` when bwrap is asked for (or required) and cannot run. Without file
    bots nothing is contained (``bwrap`` is kept as ``auto``, as records have it)."""
    if not any(is_file_spec(spec) for spec in specs):
        return Contained(limits if limits.sandbox != "bwrap" else limits.with_sandbox("auto"))
    choice = choose("bwrap" if required and limits.sandbox == "auto" else limits.sandbox)
    return Contained(limits.with_sandbox(choice.mode), choice.warning)


@dataclass(frozen=True)
class Admitted:
    """The bots ``admit`` let in: their ``entries`` (in the order of the specs; the caller closes
    them), the ``limits`` they run under (the sandbox settled) and ``contain``'s warning."""

    entries: list[BotEntry]
    limits: Limits
    warning: str | None = None

    def close(self) -> None:
        for entry in self.entries:
            entry.close()


def admit(game, specs: Sequence[str], limits: Limits = Limits(), required: bool = False) -> Admitted:
    """Every bot of ``specs`` for ``game``, admitted under ``limits``: the sandbox settled
    (``contain``), each name resolved and each entry probed now (a file bot is started in that
    sandbox and its file loaded), so that a bot that cannot play is one clear message before any
    game. ``UnknownBot`` says which (``index``) and why, and ``SandboxUnavailable`` that the
    sandbox cannot run; either way every entry made so far is closed."""
    contained = contain(specs, limits, required)
    if any(map(is_file_spec, specs)):
        problem = log_folder_problem()
        if problem:
            raise UnknownBot(problem)
    entries: list[BotEntry] = []
    try:
        for index, spec in enumerate(specs):
            try:
                entry = resolve(game.id, spec, contained.limits)
                entries.append(entry)
                problem = entry.probe(game)
            except UnknownBot as exc:
                exc.index = index
                raise
            if problem:
                fault = UnknownBot(problem)
                fault.index = index
                raise fault
    except BaseException:
        for entry in entries:
            entry.close()
        raise
    return Admitted(entries, contained.limits, contained.warning)


def log_folder_problem() -> str | None:
    """What stops the file bots' logs being written (``bots.external.logs.log_dir``: a folder
    that cannot be made or written, a device, a full disk), in one line, or ``None``. Checked
    before any game: a log is a bot's evidence, and a run does not start without it."""
    import os
    import tempfile

    from bots.base import printable
    from bots.external.logs import log_dir

    folder = log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"arcade log check\n")
            probe.flush()
            os.fsync(probe.fileno())
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        return (f"cannot write the file bots' logs in {printable(folder, cap=1024)}: {printable(why, cap=200)} "
                "(ARCADE_BOT_LOGS names another folder)")
    return None


def check(game_id: str, spec: str) -> None:
    """``UnknownBot`` (``resolve``'s words) if ``spec`` names no bot of ``game_id``: an unknown
    name, or a file bot whose file is missing or whose function is no name. Makes nothing."""
    if is_file_spec(spec):
        try:
            parse_spec(spec, game_id)
        except BadSpec as exc:
            raise UnknownBot(str(exc)) from None
        return
    _built_in(game_id, spec)


def resolve(game_id: str, spec: str, limits: Limits = Limits()) -> BotEntry:
    """The entry of bot ``spec`` for ``game_id``: a built-in name, or a file bot
    ``path/to/file.py[:function]`` run under ``limits`` (its time, its memory cap and its
    sandbox: ``auto`` is bwrap where it works, else a plain process; ``admit`` settles it and
    gives the warning). ``UnknownBot`` says why not (``bwrap`` asked for where it cannot run, too)."""
    if is_file_spec(spec):
        try:
            mode = choose(limits.sandbox).mode
        except SandboxUnavailable as exc:
            raise UnknownBot(f"bot {spec!r}: {exc}") from None
        make = program_entry if is_program_spec(spec) else file_entry  # a CS4341 program: its referee's process
        try:  # the file bot's process takes the limits as its own arguments
            return make(game_id, spec, limits.with_sandbox(mode))
        except BadSpec as exc:
            raise UnknownBot(str(exc)) from None
    return _built_in(game_id, spec)


def _built_in(game_id: str, name: str) -> BotEntry:
    bots = bots_for(game_id)
    try:
        return bots[name]
    except KeyError:
        raise UnknownBot(
            f"unknown bot {name!r} for {game_id}; valid bots: {', '.join(bots)}, or a file path/to/bot.py:function"
        ) from None
