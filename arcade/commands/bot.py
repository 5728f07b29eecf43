"""``arcade bot install DIR``: install a bot folder's ``requirements.txt`` into ``DIR/.deps``
(``bots.external.deps``), before any match: the sandbox has no network."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from arcade.commands.common import UsageError
from bots import DEPS_RULE


def register(subparsers) -> None:
    bot = subparsers.add_parser("bot")
    actions = bot.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install", help="install DIR/requirements.txt into DIR/.deps, where the bot (and its sandbox) finds it",
        description="Install the packages DIR/requirements.txt lists into DIR/.deps with the arcade's Python "
                    "(pip install --target), wheels only unless --build. The bot finds them just after its own "
                    "folder on sys.path, in the sandbox too: " + DEPS_RULE + ". Run it once before the matches: "
                    "a match never installs anything.")
    install.add_argument("folder", metavar="DIR", help="the bot's folder (holding requirements.txt): the folder "
                                                       "its file is in, a package's own folder for a bot in one")
    install.add_argument("--find-links", action="append", default=[], metavar="PATH_OR_URL",
                         help="also look for packages here (a folder of wheels; repeatable)")
    install.add_argument("--no-index", action="store_true", help="do not use the package index (PyPI)")
    install.add_argument("--build", action="store_true",
                         help="allow building packages from source, and pip options, URLs and paths in "
                              "requirements.txt: runs their build code as you, outside any sandbox")
    install.set_defaults(run=run_install)


def run_install(args: argparse.Namespace) -> int:
    """Install, with one progress line on a terminal (pip's latest line) and a line at the end;
    a failure is one line, ``arcade: error: pip could not install …: <pip's errors>``, status 1."""
    from bots.external.deps import InstallError, install, requirements_of

    folder = Path(args.folder)
    if folder.is_file():  # the bot's file, or a package's module: its folder
        folder = folder.parent
    try:
        wanted = requirements_of(folder, args.build) if folder.is_dir() else None
    except InstallError as exc:
        raise UsageError(str(exc)) from None
    if wanted is None:
        raise UsageError(f"{folder} is not a folder: give the bot's folder (the one holding requirements.txt)")
    live = sys.stderr.isatty()
    width = shutil.get_terminal_size((80, 24)).columns - 1
    print(f"Installing {len(wanted)} requirement{'s' if len(wanted) != 1 else ''} of {folder / 'requirements.txt'} "
          f"into {folder / '.deps'} (pip, Python {sys.version_info.major}.{sys.version_info.minor})…",
          file=sys.stderr, flush=True)
    say_the_rule(folder)

    def progress(line: str) -> None:
        if live:
            print(f"\r\x1b[K  {line[:width - 2]}", end="", file=sys.stderr, flush=True)

    try:
        done = install(folder, args.find_links, args.no_index, args.build, progress)
    except InstallError as exc:
        if live:
            print("\r\x1b[K", end="", file=sys.stderr)
        print(f"arcade: error: {exc}", file=sys.stderr)
        return 1
    if live:
        print("\r\x1b[K", end="", file=sys.stderr)
    names = ", ".join(done.packages) or "nothing new"
    print(f"Installed {names} into {done.folder} ({done.size / (1 << 20):.1f} MiB)")
    return 0


def say_the_rule(folder: Path) -> None:
    """Where the bot finds what is installed (``bots.DEPS_RULE``), on standard
    error; and, for each package in ``folder`` (a subfolder holding ``__init__.py``, a few named),
    that a bot in it does not see ``folder/.deps``."""
    print(f"Where: {DEPS_RULE}.", file=sys.stderr)
    try:
        packages = sorted(p for p in folder.iterdir()
                          if p.is_dir() and not p.is_symlink() and (p / "__init__.py").is_file())
    except OSError:
        return
    for package in packages[:3]:
        print(f"Note: {package} is a package: a bot in it finds {package / '.deps'}, not {folder / '.deps'} "
              f"(put its requirements.txt there and run arcade bot install {package})", file=sys.stderr)
    if len(packages) > 3:
        print(f"Note: and {len(packages) - 3} more packages in {folder}, the same", file=sys.stderr)
