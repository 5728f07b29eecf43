"""What a bot is, and how the app and the match runner call one.

A bot is a player that is not a human. It sees a game (the rules, with their options), a state
where it is to move, and a ``Context`` (its random generator, its time budget, a way to report
what it is thinking, a way to learn that its answer is no longer wanted), and returns one of
``game.legal_moves(state)``. It never touches the UI and never changes the state.

A bot object lives for one game: the runner calls ``bot_entry.make(game)`` at the start of each
game, so a bot may keep memory of the game so far (a transposition table, say). The session
(``arcade.session``) tells it when the game goes back (``restart_at``: an undo) and when it ends
(``game_over``). A bot that cannot follow a rewind (a program with a board of its own) says so
with ``rewindable = False``, and the session refuses the undo with a message instead.

A bot's fault loses it the game: any exception from ``choose`` does, and a bot that wants the
course's words for it raises ``Forfeit`` (a file bot's process: an error, too slow, an invalid
move, a crash, over its memory cap). The session turns either into a ``Result`` whose
``termination`` says which.

Each game's bots live in ``bots/<game id>.py`` as a dict ``BOTS`` of ``BotEntry`` objects, in
the order the setup screen lists them; ``bots.registry`` finds them by game id.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from games.base import Game, Move, Result, State, Termination


_ESCAPES = re.compile(
    r"""
      \x1b\[ [0-?]* [ -/]* [@-~]?                 # CSI: ESC [ parameters, intermediates, final
    | \x9b [0-?]* [ -/]* [@-~]?                    # the same, introduced by the C1 CSI
    | (?: \x1b[]PX^_] | [\x90\x98\x9d\x9e\x9f] )    # OSC, DCS, SOS, PM, APC: a string ...
      .*? (?: \x07 | \x1b\\ | \x9c | \Z )            #   ... up to its terminator (or the end)
    | \x1b [ -/]* [0-~]?                           # any other escape: ESC, intermediates, final
    """,
    re.VERBOSE | re.DOTALL,
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls and DEL, and the bidirectional marks, embeddings, overrides and isolates (a
``\u202e`` makes ``exe.txt`` read ``txt.exe``)."""
_SEPARATORS = re.compile(r"[\u2028\u2029]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")

TEXT_CAP = 1024
"""How much of one text from outside the arcade (a name, a path, an error, a reason) is kept, in
bytes of UTF-8; the rest is cut, and the cut said."""


def as_text(value: object) -> str:
    """``str(value)``, whatever it is: an object whose ``__str__`` fails is named by its type."""
    if isinstance(value, str):
        return value
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - a program's object: its __str__ may do anything
        return f"<{type(value).__name__} that cannot be shown>"


def _cut(text: str, cap: int) -> tuple[str, str]:
    """``text`` within ``cap`` bytes of UTF-8, and the note of the cut (``… (cut, N bytes)``, or
    nothing when it was not longer)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= cap:
        return text, ""
    head = _SURROGATES.sub("\ufffd", text[:cap])  # a lone surrogate and U+FFFD: 3 bytes each
    head = head.encode("utf-8")[:cap].decode("utf-8", "ignore")
    return head, f"… (cut, {size - len(head.encode('utf-8')):,} bytes)"


def printable(text: object, multiline: bool = False, cap: int | None = None) -> str:
    r"""``text`` (from a program: a bot's error, a protocol line, a name) made safe to print or
    show: escape sequences (CSI, OSC and other ``ESC`` sequences, their C1 forms) removed, then
    every other C0 control, DEL and C1 control and the bidirectional overrides; a lone surrogate
    (an undecodable byte) becomes ``�``. A ``multiline`` text keeps its newlines and tabs
    (``
`` becomes ``
``); otherwise they become spaces, so the text stays on one line. With
    a ``cap`` (bytes of UTF-8, ``TEXT_CAP`` for one piece of text) a longer text is cut there,
    and ends saying how much was cut. (What it gives is no markup either: ``arcade.untrusted``
    shows it as plain text in the app and the commands.)"""
    text, cut = _cut(as_text(text), cap) if cap is not None else (as_text(text), "")
    text = _ESCAPES.sub("", text.replace("\r\n", "\n"))
    text = _SEPARATORS.sub("\n", text)
    if not multiline:
        text = text.replace("\n", " ").replace("\t", " ")
    return _SURROGATES.sub("\ufffd", _CONTROLS.sub("", text)) + cut


class Forfeit(Exception):
    """A bot's fault that loses it the game. ``str`` is the course's wording (without the side's
    name), e.g. ``strategy took >100ms to return a move``; ``detail`` says more; ``kind`` is the
    ``Termination`` it ends the game with. Both texts may come from a program (an error's message,
    a protocol line): they are kept ``printable`` on one line and capped at ``TEXT_CAP`` bytes
    here, where they are made, so that a 4 MB message is never copied into every record line."""

    def __init__(self, wording: str, detail: str = "", kind: Termination = Termination.ERROR) -> None:
        wording, detail = printable(wording, cap=TEXT_CAP), printable(detail, cap=TEXT_CAP)
        self.wording = wording
        self.detail = detail
        self.kind = kind
        super().__init__(f"{wording} ({detail})" if detail else wording)


ERROR = "strategy produced an error"
INVALID = "strategy returned an invalid move"
MEMORY = "strategy exceeded the memory cap"
"""The course's words for a forfeit (D-Football's ``play_game``: ``<team> strategy …``)."""


def took_too_long(limit: float) -> str:
    """``strategy took >100ms to return a move``: the course's words, the limit as used."""
    return f"strategy took >{limit_text(limit)} to return a move"


def limit_text(seconds: float) -> str:
    """``100ms``, ``1s``, ``2.5s``: the limit as the forfeit message writes it."""
    if seconds < 1:
        ms = seconds * 1000
        return f"{ms:.0f}ms" if abs(ms - round(ms)) < 1e-6 else f"{ms:.1f}ms"
    return f"{seconds:g}s"


QUICK = 0.01
"""Seconds a move of a bot that keeps no clock is taken to need (a tournament plan's guess)."""


@dataclass
class Context:
    """What a bot gets besides the position.

    ``rng``: the only source of randomness a bot may use (seeded by the runner).
    ``time_limit``: seconds for this move (the run's ``bots.limits.Limits.time``), or ``None``
    for the bot's own level or else the game's default (``bots.limits.move_time``).
    ``report(text)``: show a line of thinking (depth, best line, score) while the bot works.
    ``cancelled()``: true once the answer is no longer wanted (the user left or undid);
    a long search should check it and return early with any legal move.
    ``took``: set by a bot that times itself (a file bot: its process's round trip), the seconds
    the move took; the session keeps them instead of its own clock's (which counts the arcade's
    own delays in a worker thread).
    """

    rng: random.Random = field(default_factory=random.Random)
    time_limit: float | None = None
    report: Callable[[str], None] = lambda text: None
    cancelled: Callable[[], bool] = lambda: False
    started: float = field(default_factory=time.perf_counter)
    took: float | None = None

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class Bot:
    """Base class of bots. Subclasses implement ``choose``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, state: State, ctx: Context) -> Move:
        raise NotImplementedError

    rewindable: bool = True
    """Whether the bot can follow an undo (``restart_at``). A program that keeps its own board
    and cannot be told a position (Othello's ``external``) cannot: the session refuses undo."""

    def move_seconds(self) -> float:
        """The most one move of this bot takes when the run sets no time: what a tournament's
        plan counts (``arcade.tournament.plan``). A bot that keeps no clock answers at once
        (taken as ``QUICK``); a bot that searches to a time says its own."""
        return QUICK

    def left(self, state: State) -> None:
        """The game was left unfinished at ``state`` (the player left it, started another, quit
        the app): nothing by default; a program waiting on files is told it is over."""

    def restart_at(self, state: State) -> None:
        """The game went back to ``state`` (an undo): forget what came after it. Nothing by
        default (a bot that keeps no memory of the game, or only memory that stays true)."""

    def game_over(self, state: State, result: Result) -> None:
        """Called once when a game this bot plays has ended, however it ended (the last state and
        the result, a forfeit included). Nothing by default; a bot that speaks to a program
        tells it here (Othello's ``external`` writes ``end_game``)."""


class FunctionBot(Bot):
    """A bot made of a function ``fn(game, state, ctx) -> move`` (most simple bots)."""

    def __init__(self, game: Game, fn: Callable[[Game, State, Context], Move]) -> None:
        super().__init__(game)
        self.fn = fn

    def choose(self, state: State, ctx: Context) -> Move:
        return self.fn(self.game, state, ctx)


@dataclass(frozen=True)
class BotEntry:
    """A bot as the setup screen and ``arcade bots GAME`` list it.

    ``factory(game)`` builds a fresh bot for one game. Use ``BotEntry.function`` for a bot that
    is a plain function of ``(game, state, ctx)``.
    """

    name: str
    description: str
    factory: Callable[[Game], Bot]
    options: dict[str, Any] = field(default_factory=dict)
    unattended: bool = True  # plays with nobody at the keyboard (tournaments take only these)

    def make(self, game: Game) -> Bot:
        return self.factory(game)

    def probe(self, game: Game) -> str | None:
        """Check that the bot can play ``game``: ``None``, or what is wrong (a file bot loads its
        file in its process here). A built-in bot always can."""
        return None

    def close(self) -> None:
        """Release what the bot holds between games (a file bot's process). Nothing by default."""

    @classmethod
    def function(cls, name: str, description: str, fn: Callable[[Game, State, Context], Move]) -> "BotEntry":
        """A bot that is a plain function: it keeps no clock (``Bot.move_seconds``: ``QUICK``)."""
        return cls(name, description, lambda game: FunctionBot(game, fn))


def random_move(game: Game, state: State, ctx: Context) -> Move:
    """A uniformly random legal move: every game's weakest bot."""
    return ctx.rng.choice(list(game.legal_moves(state)))
