"""A run's limits on its bots: one frozen value, built once by each front end.

``Limits`` is what python-chess calls a ``Limit``: the time a move may take, the grace past it
before a silent bot is stopped, the memory cap of a file bot's process and how file bots are
contained. The command line (``arcade match``, ``tournament``, ``othello-player``), the setup
screen, the tournament screen and the game screen each build one, and it travels from there:
``bots.registry.admit`` starts the file bots with it, ``arcade.session.Session`` hands its time
to every bot in the ``Context`` (``Context.time_limit``), a tournament sends it to its workers.

One encoding everywhere: ``time`` in seconds, ``None`` for the game's (or the bot's own) default;
``memory`` in bytes, ``None`` for no cap. The command line's ``--memory MIB`` (0: no cap) is
converted once, by ``Limits.from_cli``.

``move_time(game, seconds)`` is the one place that turns a game and a run's time into this
move's seconds: the run's time when it sets one, else the game's default (the course's where it
had one: 100 ms in D-Football, Othello's ``time_limit`` option, 10 s as in the course; 1 s
otherwise; ``bots.adapters.Adapter.time_limit`` owns each game's).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

SANDBOXES = ("auto", "bwrap", "none")
"""How file bots may be contained (``Limits.sandbox``; ``bots.external.sandbox`` contains them):
``bwrap``, ``none``, or ``auto``, bwrap where it works here and none otherwise."""

DEFAULT_MEMORY = 1 << 30
"""The memory cap of a file bot's process: 1 GiB of address space (``RLIMIT_AS``)."""

DEFAULT_MEMORY_MIB = DEFAULT_MEMORY >> 20
"""``--memory``'s default, in the command line's MiB."""


class LimitsError(ValueError):
    """Limits that make no sense (a negative memory cap, a time that is no positive number, an
    unknown sandbox); the message says which (a message for the user)."""


def move_time(game, seconds: float | None = None) -> float:
    """This move's seconds in ``game``: ``seconds`` (the run's time: ``Limits.time``, a bot's
    ``Context.time_limit``) when it is set, else the game's default (``Adapter.time_limit``: the
    course's limit, Othello's ``time_limit`` option included)."""
    if seconds is not None:
        return seconds
    from bots.adapters import adapter_for

    return adapter_for(game.id).time_limit(game)


@dataclass(frozen=True)
class Limits:
    """How long a bot's move may take and what a file bot's process may use.

    ``time``: seconds a move, ``None`` for the game's default (``move_time``) or, for a built-in
    bot with a clock of its own, its own level (Othello's ``alphabeta-1s``).
    ``grace``: seconds past a move's time before a bot that does not answer is stopped; ``None``
    for half the time, at least half a second (``grace_for``).
    ``memory``: a file bot's address space in bytes, ``None`` for no cap.
    ``sandbox``: how file bots are contained (``bots.external.sandbox``): one of ``SANDBOXES``.
    """

    time: float | None = None
    grace: float | None = None
    memory: int | None = DEFAULT_MEMORY
    sandbox: str = "auto"

    def __post_init__(self) -> None:
        for name in ("time", "grace"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < float("inf"):
                raise LimitsError(f"the {name} must be a finite number of seconds, not {value!r}")
        if self.time is not None and self.time <= 0:
            raise LimitsError(f"the time a move must be more than 0 seconds, not {self.time!r}")
        if self.memory is not None and self.memory <= 0:
            raise LimitsError(f"the memory cap must be a number of bytes or None (no cap), not {self.memory!r}")
        if self.sandbox not in SANDBOXES:
            raise LimitsError(f"unknown sandbox {self.sandbox!r}; sandboxes: {', '.join(SANDBOXES)}")

    @classmethod
    def from_cli(cls, time: float | None = None, memory_mib: int = DEFAULT_MEMORY_MIB,
                 sandbox: str = "auto") -> "Limits":
        """The command line's limits: ``--time-limit`` seconds, ``--memory`` in MiB (0: no cap;
        converted to bytes here, the only place) and ``--sandbox``. ``LimitsError`` for a
        negative memory cap."""
        if memory_mib < 0:
            raise LimitsError("--memory must be 0 (no cap) or more MiB")
        return cls(time=time, memory=(memory_mib << 20) or None, sandbox=sandbox)

    def move_time(self, game) -> float:
        """This move's seconds in ``game`` under these limits (``move_time``)."""
        return move_time(game, self.time)

    def grace_for(self, seconds: float) -> float:
        """Seconds past a move's ``seconds`` before a bot that does not answer is stopped (its
        answer is judged late by the clock; this only bounds a bot that never answers)."""
        return self.grace if self.grace is not None else max(0.5, seconds / 2)

    def with_sandbox(self, sandbox: str) -> "Limits":
        """These limits with file bots contained by ``sandbox`` (the mode a front end settled on)."""
        return replace(self, sandbox=sandbox)

    def as_json(self) -> dict:
        """The limits as a record file's header holds them (``arcade.records``)."""
        return {"time": self.time, "grace": self.grace, "memory": self.memory, "sandbox": self.sandbox}
