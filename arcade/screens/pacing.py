"""How long the game screen waits before what it plays by itself: the dice, a human's forced pass
(Robot Ludo: no move with this roll), and a bot's move.

A human playing a bot gets a moment to see the position (and a longer one to see dice just
rolled). Bots playing each other go at a pace the watcher sets (``-``/``+``) and can be paused
(``p``) or stepped one move at a time (``s``: no wait at all). The tests set every wait to 0.
"""

from __future__ import annotations

from typing import Literal

PACES = (8.0, 4.0, 2.0, 1.0, 0.5, 0.25, 0.0)
"""The bot-vs-bot paces, as multiples of ``Pacing.WATCH_DELAY``: 6.4 s to no wait."""
NORMAL_PACE = PACES.index(1.0)
"""The pace at the start (an index into ``PACES``)."""

Step = Literal["chance", "forced", "bot"]


class Pacing:
    """The waits, in seconds."""

    BOT_DELAY = 0.35
    """Before a bot moves when a human plays (so the human sees the position)."""
    WATCH_DELAY = 0.8
    """Between moves when bots play each other at the normal pace."""
    CHANCE_DELAY = 0.25
    """Before the dice are rolled."""
    FORCED_DELAY = 0.8
    """A human's forced pass stays on the board this long."""
    DICE_LOOK = 1.2
    """A human gets this long to look at the dice just rolled before a bot moves (Hog, Ludo)."""

    @classmethod
    def watch_delay(cls, pace: int) -> float:
        """Seconds between moves of bots playing each other at ``pace`` (an index into ``PACES``)."""
        return cls.WATCH_DELAY * PACES[pace]

    @classmethod
    def wait(cls, step: Step, *, watching: bool, paused: bool, step_once: bool, pace: int,
             dice_just_rolled: bool) -> float | None:
        """Seconds to wait before ``step``, or ``None`` not to play it now (the bots are paused).
        ``watching``: bots play each other; ``step_once``: the watcher asked for one move (``s``)."""
        if step_once:
            return 0
        if step == "forced":
            return cls.FORCED_DELAY
        if step == "chance":
            return None if paused and watching else cls.CHANCE_DELAY
        if paused:
            return None
        if watching:
            return cls.watch_delay(pace)
        return max(cls.BOT_DELAY, cls.DICE_LOOK) if dice_just_rolled else cls.BOT_DELAY
