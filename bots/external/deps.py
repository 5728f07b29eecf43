"""``arcade bot install DIR``: the packages a bot's ``requirements.txt`` names, installed into
its folder (``DIR/.deps``) ahead of any match, since the sandbox has no network.

pip runs with the arcade's own interpreter (``python -m pip install --target``), so the packages
fit the Python the bot runs with; the bot's process puts ``.deps`` just after the bot's folder
on ``sys.path`` (``bots.external.child.load_function``) and the sandbox binds it at
``/bot/.deps`` (``bots.DEPS``). The install goes to a fresh folder that replaces
``.deps`` only once pip succeeded, so a failed install leaves the last good one.

pip runs as whoever runs the arcade, outside the sandbox, so by default it installs **wheels
only** (installing a wheel runs none of its code) and ``requirements.txt`` may hold plain
requirements only (``numpy>=1.26,<2``, ``scipy; python_version >= "3.11"``): a line of pip
options (``--no-binary``, ``-e``, ``--index-url``, ``-r``), a URL or a path would let a student's
file build a package from source, running its code as the instructor. ``build=True``
(``--build``) lifts both rules for a folder you trust.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Sequence

from bots import DEPS

REQUIREMENTS = "requirements.txt"

_PLAIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:\[[A-Za-z0-9._,\s-]*\])?"
                    r"\s*(?:(?:===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+\s*"
                    r"(?:,\s*(?:===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+\s*)*)?(?:;[^@]*)?")
"""A plain requirement: a name, extras, version specifiers, an environment marker; no URL, path
or option."""


_ARCHIVE = re.compile(r"\.(whl|zip|tar|tgz|gz|bz2|xz)\b", re.IGNORECASE)
"""A file name (pip installs an existing ``pkg.tar.gz`` as a file, building it)."""


class InstallError(Exception):
    """The install could not be done; the message is one line for the user."""


@dataclass(frozen=True)
class Installed:
    """What an install put in ``folder``: ``packages`` as pip names them (``numpy-1.26.4``) and
    their size in bytes."""

    folder: Path
    packages: tuple[str, ...]
    size: int


def requirements_of(folder: Path, build: bool = False) -> list[str]:
    """The requirement lines of ``folder``'s ``requirements.txt`` (comments and blank lines left
    out); ``InstallError`` for a missing file, or, without ``build``, a line that is not a plain
    requirement (named with its line number)."""
    path = folder / REQUIREMENTS
    if not path.is_file():
        raise InstallError(f"{path} does not exist: list the bot's packages there, one a line (numpy>=1.26)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        if not build and (not _PLAIN.fullmatch(line) or " -" in line or _ARCHIVE.search(line.split(";")[0])):
            raise InstallError(f"{path}, line {number}: {line[:80]!r} is not a plain requirement (a name and "
                               "versions): options, URLs and paths may build code as you; --build allows them")
        lines.append(line)
    return lines


def pip_command(folder: Path, target: Path, find_links: Sequence[str] = (), no_index: bool = False,
                build: bool = False) -> list[str]:
    """The pip command line that installs ``folder``'s requirements into ``target``."""
    argv = [sys.executable, "-m", "pip", "install", "--target", str(target), "--no-input",
            "--disable-pip-version-check", "--no-warn-script-location", "--progress-bar", "off",
            "-r", str(folder / REQUIREMENTS)]
    if not build:
        argv += ["--only-binary", ":all:"]
    for link in find_links:
        argv += ["--find-links", str(link)]
    if no_index:
        argv.append("--no-index")
    return argv


def install(folder: Path, find_links: Sequence[str] = (), no_index: bool = False, build: bool = False,
            progress: Callable[[str], None] = lambda line: None) -> Installed:
    """Install ``folder``'s ``requirements.txt`` into ``folder/.deps``; ``progress`` gets each
    line pip prints. ``InstallError`` with pip's own error lines when it fails (the old
    ``.deps`` then stays as it was)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InstallError(f"{folder} is not a folder: give the bot's folder (the one holding {REQUIREMENTS})")
    requirements_of(folder, build)
    if find_spec("pip") is None:
        raise InstallError(f"pip is not installed for {sys.executable} (python -m ensurepip installs it)")
    deps = folder / DEPS
    if deps.is_symlink() or (deps.exists() and not deps.is_dir()):
        raise InstallError(f"{deps} is not a folder: remove it first")
    fresh = folder / f"{DEPS}.installing"
    shutil.rmtree(fresh, ignore_errors=True)
    output: list[str] = []
    try:
        with subprocess.Popen(pip_command(folder, fresh, find_links, no_index, build), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                              errors="replace") as pip:
            for line in pip.stdout:
                output.append(line.rstrip())
                if line.strip():
                    progress(line.strip())
        if pip.returncode != 0:
            raise InstallError(f"pip could not install {folder / REQUIREMENTS}: {pip_errors(output, build)}")
        readable_by_all(fresh)
        if deps.exists():
            shutil.rmtree(deps)
        fresh.rename(deps)
    except OSError as exc:
        raise InstallError(f"installing into {deps} failed: {exc}") from None
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    done = [line for line in output if line.startswith("Successfully installed ")]
    packages = tuple(done[-1].removeprefix("Successfully installed ").split()) if done else ()
    size = sum(p.stat().st_size for p in deps.rglob("*") if p.is_file() and not p.is_symlink())
    return Installed(deps, packages, size)


def readable_by_all(folder: Path) -> None:
    """Let everyone read (and enter) what pip installed, whatever the installer's ``umask``: the
    sandbox's bot is ``nobody`` and, as root, reads ``.deps`` through a bind, not a copy."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        path.chmod(mode | 0o444 | (0o111 if path.is_dir() or mode & 0o100 else 0))


def pip_errors(output: list[str], build: bool) -> str:
    """pip's error lines as one line (its last line when it printed none), with a hint when a
    package has no wheel and only wheels were allowed."""
    errors = [line.removeprefix("ERROR: ").strip() for line in output if line.startswith("ERROR:")]
    text = "; ".join(errors) if errors else next((line for line in reversed(output) if line.strip()), "no output")
    if not build and any("from versions: none" in line or "No matching distribution" in line for line in errors):
        text += " (only wheels are installed: a package that exists only as source needs --build)"
    return text
