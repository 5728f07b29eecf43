"""Toothpick Takeaway bots, from the notebook's simple strategies to perfect play."""

from __future__ import annotations

from bots.base import BotEntry, Context, random_move
from games.toothpicks import TakeState, Toothpicks, winning_take


def always_1(game: Toothpicks, state: TakeState, ctx: Context) -> int:
    """Always take one toothpick."""
    return 1


def always_2(game: Toothpicks, state: TakeState, ctx: Context) -> int:
    """Take two toothpicks whenever two are there, else one."""
    return min(2, game.max_take, state.left)


def mirror(game: Toothpicks, state: TakeState, ctx: Context) -> int:
    """Take what the opponent just took (one on the first move, fewer if fewer are left).

    The notebook's notes: "p2 mirroring is a bad strategy".
    """
    last = state.event.taken if state.event is not None else 1
    return min(last, state.left)


def perfect(game: Toothpicks, state: TakeState, ctx: Context) -> int:
    """Leave a multiple of largest-take + 1; when that cannot be done, take one."""
    return winning_take(state.left, game.max_take) or 1


BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry.function("perfect", "leaves a multiple of largest-take + 1; takes 1 when it cannot", perfect),
        BotEntry.function("random", "takes a random legal number", random_move),
        BotEntry.function("always_1", "always takes one toothpick", always_1),
        BotEntry.function("always_2", "takes two whenever it can", always_2),
        BotEntry.function("mirror", "takes what the opponent just took (a bad strategy, says the notebook)", mirror),
    )
}
