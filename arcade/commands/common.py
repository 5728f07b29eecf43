"""What the ``arcade`` commands share: the usage error, options, the bots' resolution, output.

Errors in what the user typed (an unknown game, bot or option) are ``UsageError``s: ``arcade``
prints one line naming the valid choices and exits with status 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence

from arcade.catalog import CATALOG, GameEntry, UnknownGame
from arcade.catalog import entry as catalog_entry

if TYPE_CHECKING:  # pragma: no cover
    from bots.base import BotEntry

EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in the command line; the message names the valid choices."""


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id: " + ", ".join(CATALOG))


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--memory", type=int, default=1024, metavar="MIB",
        help="memory cap of each file bot's process in MiB (default 1024; 0: no cap)",
    )


def memory_bytes(memory_mib: int) -> int | None:
    """``--memory`` in bytes, ``None`` for no cap; ``UsageError`` if negative."""
    if memory_mib < 0:
        raise UsageError("--memory must be 0 (no cap) or more MiB")
    return memory_mib << 20 or None


def resolve_bots(game, names: Sequence[str], memory_mib: int = 1024, time_limit: float | None = None) -> list[BotEntry]:
    """The bots' entries, through the one resolver (``bots.registry.resolve``); every entry is
    probed now (a file bot is started and its file loaded), so that a bot that cannot be loaded is
    a one-line error before any game is played. The caller closes them."""
    from bots.registry import UnknownBot, load_all

    try:
        return load_all(game, names, time_limit=time_limit, memory=memory_bytes(memory_mib))
    except UnknownBot as exc:
        raise UsageError(str(exc)) from None


def bot_logs(entries) -> list[str]:
    """The log files of the file bots among ``entries``."""
    return sorted({str(e.source.log_path) for e in entries if getattr(e, "source", None) is not None})


def game_entry(game_id: str) -> GameEntry:
    try:
        return catalog_entry(game_id)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option {pair!r} must look like KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def make_game(game_id: str, options: dict[str, str]):
    from games.base import OptionError

    cls = game_entry(game_id).load()
    try:
        return cls(**options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None


def progress_bar(title: str, quiet: bool):
    """A transient Rich progress bar on stderr (off with ``quiet`` or when stderr is no terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True)
    return Progress(
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )
