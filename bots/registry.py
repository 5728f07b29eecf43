"""Find a game's bots by game id, importing ``bots/<game id>.py`` only when asked."""

from __future__ import annotations

import importlib

from bots.base import BotEntry


class UnknownBot(KeyError):
    """A bot name the game does not have; the message lists the valid names."""

    def __str__(self) -> str:
        return str(self.args[0])


def bots_for(game_id: str) -> dict[str, BotEntry]:
    """The game's bots by name, in the order the setup screen lists them."""
    module = importlib.import_module(f"bots.{game_id}")
    return dict(module.BOTS)


def get_bot(game_id: str, name: str) -> BotEntry:
    """The bot called ``name``; ``UnknownBot`` naming the valid bots otherwise.

    ``name`` may also be a file bot, ``path/to/file.py:function`` in the course's signature
    (``bots.external``): its entry runs it in a process of its own. ``UnknownBot`` says why if the
    file is missing or the name is not a function name.
    """
    from bots.external import BadSpec, file_entry, is_file_spec

    if is_file_spec(name):
        try:
            return file_entry(game_id, name)
        except BadSpec as exc:
            raise UnknownBot(str(exc)) from None
    bots = bots_for(game_id)
    try:
        return bots[name]
    except KeyError:
        raise UnknownBot(
            f"unknown bot {name!r} for {game_id}; valid bots: {', '.join(bots)}, or a file path/to/bot.py:function"
        ) from None
