"""The one bot resolver: a game's bots by name, and students' file bots by path.

Every caller that turns a name into a bot comes here: ``arcade match``, ``arcade tournament``
(and its worker processes), the setup screen, the tournament screen, the game screen and the
Othello player. A name is a built-in bot of the game (``bots/<game id>``'s ``BOTS``, imported only
when asked) or a file bot, ``path/to/file.py:function`` in the course's signature, run in a
process of its own (``bots.external``), contained by bubblewrap where it can (``bots.sandbox``).
Every entry answers ``probe(game)`` (load it now: ``None``
or what is wrong) and ``close()`` (release its process), built-in bots with nothing to do.
The game screen finds a game's analysis engine here too (``analyser_for``).
"""

from __future__ import annotations

import importlib
from typing import Callable

from bots.base import BotEntry
from bots.external import DEFAULT_MEMORY, BadSpec, file_entry, is_file_spec
from bots.sandbox import MODES as SANDBOXES
from bots.sandbox import SandboxUnavailable, choose
from games.base import Analysis


class UnknownBot(KeyError):
    """A bot name the game does not have, or a file bot that names no loadable function; the
    message says why and lists the valid names."""

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


def load_all(game, specs, time_limit: float | None = None, memory: int | None = DEFAULT_MEMORY,
             sandbox: str = "auto") -> list[BotEntry]:
    """Every bot of ``specs`` resolved for ``game`` and probed now (a file bot is started and its
    file loaded), so that a bot that cannot play is one clear message before any game:
    ``UnknownBot`` saying which and why, with every entry made so far closed. The caller closes
    the entries it gets."""
    entries: list[BotEntry] = []
    try:
        for spec in specs:
            entry = resolve(game.id, spec, time_limit=time_limit, memory=memory, sandbox=sandbox)
            entries.append(entry)
            problem = entry.probe(game)
            if problem:
                raise UnknownBot(problem)
    except BaseException:
        for entry in entries:
            entry.close()
        raise
    return entries


def resolve(game_id: str, spec: str, time_limit: float | None = None, memory: int | None = DEFAULT_MEMORY,
            sandbox: str = "auto") -> BotEntry:
    """The entry of bot ``spec`` for ``game_id``: a built-in name, or a file bot
    ``path/to/file.py[:function]`` with its ``time_limit`` (seconds a move, ``None``: the game's),
    ``memory`` cap (bytes, ``None``: no cap) and ``sandbox`` (``bots.sandbox``: ``auto`` is bwrap
    where it works, else a plain process; the caller warns with ``choose(mode).warning``).
    ``UnknownBot`` says why not (``bwrap`` asked for where it cannot run, too)."""
    if sandbox not in SANDBOXES:
        raise ValueError(f"unknown sandbox {sandbox!r}; sandboxes: {', '.join(SANDBOXES)}")
    if is_file_spec(spec):
        try:
            mode = choose(sandbox).mode
        except SandboxUnavailable as exc:
            raise UnknownBot(f"bot {spec!r}: {exc}") from None
        try:
            return file_entry(game_id, spec, time_limit=time_limit, memory=memory, sandbox=mode)
        except BadSpec as exc:
            raise UnknownBot(str(exc)) from None
    bots = bots_for(game_id)
    try:
        return bots[spec]
    except KeyError:
        raise UnknownBot(
            f"unknown bot {spec!r} for {game_id}; valid bots: {', '.join(bots)}, or a file path/to/bot.py:function"
        ) from None
