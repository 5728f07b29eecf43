"""What the ``arcade`` commands share: the usage error, options, the run's limits, admitting the bots,
output.

Errors in what the user typed (an unknown game, bot or option) are ``UsageError``s: ``arcade``
prints one line naming the valid choices and exits with status 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence

from arcade.catalog import CATALOG, GameEntry, UnknownGame
from arcade.catalog import entry as catalog_entry
from bots.limits import DEFAULT_MEMORY_MIB, SANDBOXES, Limits, LimitsError

if TYPE_CHECKING:  # pragma: no cover
    from bots.base import BotEntry

EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in the command line; the message names the valid choices."""


def seconds(text: str) -> float:
    """The type of every ``--time-limit``: a positive, finite number of seconds. Anything else is
    a ``UsageError`` (one line, exit status 2), NaN and infinity included: argparse's ``float``
    takes ``nan`` (every bot would then forfeit) and ``inf`` (a hung bot would never be stopped)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise UsageError(f"--time-limit must be a positive, finite number of seconds, not {text!r}")
    return value


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id: " + ", ".join(CATALOG))


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """``--memory MIB`` (0: no cap): the command line's own unit, turned into ``Limits``'s bytes
    once (``limits_of``)."""
    parser.add_argument(
        "--memory", type=int, default=DEFAULT_MEMORY_MIB, metavar="MIB",
        help=f"memory cap of each file bot's process in MiB (default {DEFAULT_MEMORY_MIB}; 0: no cap)",
    )


def add_sandbox_option(parser: argparse.ArgumentParser, default: str, what: str) -> None:
    parser.add_argument(
        "--sandbox", choices=SANDBOXES, default=default,
        help=f"how file bots are contained: bwrap (bubblewrap), none (a plain process), or auto "
             f"(bwrap where it works, else none with a warning); default {what}",
    )


def add_seed_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, default=None,
        help="random seed of the dice and the bots (default: a secret drawn for this run, printed at "
             "the end so that the run can be replayed with --seed)",
    )


def seed_of(args: argparse.Namespace) -> tuple[int, bool]:
    """The run's seed and whether it is a secret: ``--seed``; resuming a ``--record`` made without
    one, the (secret) seed it was made with; else 63 bits from ``os.urandom`` that no bot can guess
    (it is in no command line, environment or file a bot can read)."""
    from arcade.seeds import secret

    if args.seed is not None:
        return args.seed, False
    if getattr(args, "record", None):
        from arcade.records.reader import recorded_seed

        recorded = recorded_seed(args.record)
        if recorded is not None:
            return recorded, True
    return secret(), True


def seed_text(seed: int, secret: bool) -> str:
    """The seed for a table's title: ``seed 4``, or ``secret seed`` (``replay_text`` gives it)."""
    return "secret seed" if secret else f"seed {seed}"


def replay_text(seed: int) -> str:
    """The line printed after a run with a secret seed."""
    return f"secret seed {seed}: replay this match with --seed {seed}"


class Interrupted(KeyboardInterrupt):
    """Ctrl+C in a run whose line must say more than "interrupted" (its secret seed, how to
    resume its record): ``arcade.cli`` prints the text."""


def interrupted(seed: int, secret: bool, run: str, record: str | None) -> Interrupted:
    """The ``Interrupted`` of a ``run`` stopped by Ctrl+C: with a secret seed, the seed (lost
    otherwise: the games so far cannot be replayed without it); with a record (once it exists: a
    run stopped before it was made has none), how to go on."""
    from pathlib import Path

    resume = f"; run it again with --record {record} to go on" if record and Path(record).exists() else ""
    return Interrupted(stopped("interrupted", seed, secret, run) + resume)


def stopped(problem: object, seed: int, secret: bool, run: str = "match") -> str:
    """The one line of a ``run`` (a match, a tournament) that stopped midway (a full disk, a
    worker lost): the problem, and with a secret seed, the seed (the record holds it too, and
    resuming uses it)."""
    return f"{problem}; {replay_text(seed).replace('match', run)}" if secret else str(problem)


def check_output(path: str, option: str) -> None:
    """A file the run writes at its end (``--csv``), checked before any game: a ``UsageError`` in
    one line if it is no regular file (a directory, a device such as ``/dev/full``, a FIFO) or
    cannot be made or written there (a read-only or missing folder). A file made to try is
    removed again."""
    import os
    import stat

    from arcade.untrusted import clean

    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write {option} {clean(path)}: {clean(getattr(exc, 'strerror', None) or exc)}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError(f"{option} {clean(path)} is not a regular file (a directory, a device or a FIFO): "
                         f"{option} writes a file")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise UsageError(f"cannot write {option} {clean(path)}: {clean(exc.strerror or exc)}") from None
    os.close(fd)
    if mode is None:
        try:
            os.unlink(path)
        except OSError:
            pass


def limits_of(args: argparse.Namespace) -> Limits:
    """The run's ``Limits``, built once from ``--time-limit``, ``--memory`` (MiB, 0: no cap;
    ``Limits.from_cli`` converts it) and ``--sandbox``; ``UsageError`` if they make no sense."""
    try:
        return Limits.from_cli(args.time_limit, args.memory, args.sandbox)
    except LimitsError as exc:
        raise UsageError(str(exc)) from None


def contained(names: Sequence[str], limits: Limits, required: bool = False) -> Limits:
    """``limits`` with the sandbox of the file bots among ``names`` settled
    (``bots.registry.contain``), the one-line warning on stderr when ``auto`` falls back to no
    sandbox; ``UsageError`` when bwrap is asked for (or ``required``, as a tournament's file bots
    are unless ``--sandbox none``) and cannot run."""
    import sys

    from bots.registry import contain
    from bots.external.sandbox import SandboxUnavailable

    try:
        settled = contain(names, limits, required)
    except SandboxUnavailable as exc:
        hint = "; --sandbox none runs them NOT contained" if required else ""
        raise UsageError(f"file bots {'need' if required else 'asked for'} the sandbox: {exc}{hint}") from None
    if settled.warning:
        print(f"arcade: {settled.warning}", file=sys.stderr)
    return settled.limits


def admit_bots(game, names: Sequence[str], limits: Limits) -> list[BotEntry]:
    """The bots' entries, admitted under ``limits`` (``bots.registry.admit``: each resolved and
    probed now, a file bot started and its file loaded), so that a bot that cannot be loaded is a
    one-line error before any game is played. The caller closes them."""
    from bots.registry import UnknownBot, admit
    from bots.external.sandbox import SandboxUnavailable

    try:
        return admit(game, names, limits).entries
    except (UnknownBot, SandboxUnavailable) as exc:
        raise UsageError(str(exc)) from None


def bot_logs(entries) -> list[str]:
    """The log files of the file bots among ``entries`` (``arcade.untrusted.clean``)."""
    from arcade.untrusted import clean

    return sorted({clean(e.source.log_path) for e in entries if getattr(e, "source", None) is not None})


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


def progress_bar(title: str, quiet: bool, stderr: bool = True):
    """A transient Rich progress bar on stderr (``stderr`` false: on stdout; off with ``quiet``
    or when that stream is no terminal): games done of the total, games a minute, the time so far
    and the time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        RenderableColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from arcade.untrusted import plain

    class GamesPerMinute(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed * 60:,.0f} games/min" if speed else "… games/min", style="progress.data.speed")

    err = plain_console(stderr=stderr)
    return Progress(
        RenderableColumn(plain(title)),  # a bot's name: not markup, nor a format string
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerMinute(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )


def plain_console(stderr: bool = False):
    """The commands' Rich console: it shows every text as it is, never as markup, emoji codes or
    highlighted values, and with no terminal control (every string it prints, a table's cells
    and title included, goes through ``arcade.untrusted.clean``). Bot names, paths and forfeit
    reasons come from outside the arcade (a folder named ``x[/]y``, an exception saying
    ``[link=https://…]`` or holding an escape sequence): printed plainly, they can neither crash
    the command (``MarkupError``) nor put a link, a style or a control in the terminal."""
    from rich.console import Console

    from arcade.untrusted import clean

    class PlainConsole(Console):
        def render_str(self, text: str, **kwargs):
            return super().render_str(clean(text, cap=None, multiline=True), **kwargs)

    return PlainConsole(stderr=stderr, markup=False, emoji=False, highlight=False)


def containment_text(specs, mode: str, memory: int | None) -> str | None:
    """A line on how the file bots among ``specs`` would run in ``mode`` (``auto`` and ``bwrap``:
    in the sandbox, as a tournament runs them; ``none``: not contained) and how their memory cap
    of ``memory`` bytes holds (``memory_mode``); ``None`` without file bots (``--plan``)."""
    from bots.external import cgroups, memory_text, sandbox
    from bots.external.specs import is_file_spec

    if not any(map(is_file_spec, specs)):
        return None
    mode = "none" if mode == "none" else "bwrap"
    where = "in the bwrap sandbox" if mode == "bwrap" else "NOT contained (--sandbox none)"
    problem = sandbox.bwrap_problem() if mode == "bwrap" else None
    if problem is not None:
        where = f"need the bwrap sandbox, which cannot run here ({problem})"
    cap = f"{memory_text(memory)}, {cgroups.memory_mode(mode)}" if memory else "no cap"
    return f"file bots: {where}; memory: {cap}"
