"""``arcade bot install DIR``: the packages a bot's ``requirements.txt`` names, installed into
its folder (``DIR/.deps``) ahead of any match, since the sandbox has no network.

pip runs with the arcade's own interpreter (``python -I -m pip install --target``), so the
packages fit the Python the bot runs with; the bot's process puts ``.deps`` just after the bot's
folder on ``sys.path`` (``bots.external.child.load_function``) and the sandbox binds it at
``/bot/.deps`` (``bots.DEPS``).

pip runs as whoever runs the arcade, outside the sandbox, so nothing of the student's may reach
it that could run code or steer where it writes:

- ``requirements.txt`` is read by a grammar, never by pip: each line is a requirement, a name
  with extras, version specifiers and an environment marker (``numpy>=1.26,<2``,
  ``scipy; python_version >= "3.11"``), installed from **wheels only** (``--only-binary
  :all:``: installing a wheel runs none of its code); or the path of a regular file inside the
  bot's folder whose name parses as a wheel's (``wheels/mine-1.0-py3-none-any.whl``), copied
  out first and given to pip as that copy, and refused when its metadata names a dependency by
  URL. Anything else pip would take (archives of any suffix, folders, URLs, VCS, options,
  includes, constraints) is refused before pip runs, with one line (``GRAMMAR``).
- pip gets the requirements as arguments (no requirements file of the student's: pip expands
  variables and options in one), runs in isolated mode (``-I``: no user site, no ``PYTHON*``;
  ``--isolated``: no ``PIP_*``; ``PIP_CONFIG_FILE=/dev/null``: no configuration file), from an
  empty folder, with its temporary files and its target in a private staging folder **outside**
  the bot's folder (``tempfile.mkdtemp``).
- The result is copied into the bot's folder as ``.deps.installing`` (made here: ``mkdir``
  fails on any existing name) from descriptors, never through a link, with modes set on what was
  made (readable by the sandbox's ``nobody`` whatever the ``umask``), then renamed to ``.deps``
  (the old one renamed aside and removed without following links). A folder whose ``.deps``,
  ``.deps.installing`` or ``.deps.old`` is a link, a FIFO or anything but a plain folder is
  refused; a ``requirements.txt`` that is a link or a hard link is refused.

A failed install leaves the last good ``.deps``. ``build=True`` (``--build``) gives pip the
folder's own ``requirements.txt``, from the folder, building from source allowed: for a folder
you trust.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Sequence

from bots import DEPS
from bots.external import safe_files
from bots.external.safe_files import UnsafePath

REQUIREMENTS = "requirements.txt"
INSTALLING = f"{DEPS}.installing"
OLD = f"{DEPS}.old"
MAX_REQUIREMENTS = 64 << 10
"""Bytes of ``requirements.txt`` read at most."""
MAX_LINE = 300

GRAMMAR = ("a requirement (a name, [extras], versions, a marker: numpy>=1.26,<2) from the index's wheels, "
           "or the path of a .whl file inside the bot's folder")

_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_WHEEL_PATH = re.compile(r"(?:\./)?(?:[A-Za-z0-9_+-][A-Za-z0-9._+-]*/)*[A-Za-z0-9_][A-Za-z0-9._+!-]*\.whl")
_ARCHIVES = (".whl", ".zip", ".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tlz", ".gz", ".bz2", ".xz", ".lz",
             ".lzma", ".zst", ".7z", ".rar", ".egg")
"""A requirement's name may not end so: pip takes a name that looks like an archive for a file."""


class InstallError(Exception):
    """The install could not be done; the message is one line for the user."""


@dataclass(frozen=True)
class Installed:
    """What an install put in ``folder``: ``packages`` as pip names them (``numpy-1.26.4``) and
    their size in bytes."""

    folder: Path
    packages: tuple[str, ...]
    size: int


@dataclass(frozen=True)
class Wanted:
    """One line of ``requirements.txt`` under the grammar: a ``requirement`` (as pip gets it,
    rewritten from its parse) or a ``wheel`` (its path inside the bot's folder)."""

    kind: str
    text: str


def parse_line(line: str) -> Wanted | None:
    """``line`` under the grammar (``GRAMMAR``), or ``None`` when it is outside it."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    if len(line) > MAX_LINE or not line.isprintable():
        return None
    if _WHEEL_PATH.fullmatch(line):
        try:
            parse_wheel_filename(line.rsplit("/", 1)[-1])
        except InvalidWheelFilename:
            return None
        path = line.removeprefix("./")
        return Wanted("wheel", path) if ".." not in path.split("/") else None
    if not _NAME.match(line) or "@" in line or "\\" in line or "/" in line or " -" in line:
        return None
    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        return None
    name = requirement.name
    if (requirement.url is not None or not _NAME.fullmatch(name) or name.lower().endswith(_ARCHIVES)
            or any(not _NAME.fullmatch(extra) for extra in requirement.extras)):
        return None
    return Wanted("requirement", str(requirement))


def _lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines of a requirements file, comments and blank lines left out."""
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = "" if raw.lstrip().startswith("#") else raw.split(" #", 1)[0].strip()
        if line:
            found.append((number, line))
    return found


def _read(folder: int, shown: Path) -> str:
    """The text of ``requirements.txt`` in the folder open as ``folder`` (``InstallError``: not a
    regular file of one name, too big, not UTF-8)."""
    if safe_files.kind_at(folder, REQUIREMENTS) is None:
        raise InstallError(f"{shown} does not exist: list the bot's packages there, one a line (numpy>=1.26)")
    try:
        return safe_files.read_file_under(folder, REQUIREMENTS, str(shown), MAX_REQUIREMENTS).decode("utf-8")
    except UnsafePath as exc:
        raise InstallError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {shown}: {exc}") from None


def wanted_of(folder: int, shown: Path, build: bool = False) -> list[tuple[int, str, Wanted | None]]:
    """Each line of the requirements in the folder open as ``folder`` with its number and its
    parse (``None`` with ``build`` only); ``InstallError`` for a line outside the grammar."""
    found = []
    for number, line in _lines(_read(folder, shown)):
        wanted = parse_line(line)
        if wanted is None and not build:
            raise InstallError(f"{shown}, line {number}: {line[:80]!r} is not {GRAMMAR}: nothing else is "
                               "installed (archives, folders, URLs and options may run code as you); "
                               "--build allows them")
        found.append((number, line, wanted))
    return found


def requirements_of(folder: Path, build: bool = False) -> list[str]:
    """The requirement lines of ``folder``'s ``requirements.txt`` (comments and blank lines left
    out); ``InstallError`` for a missing file or, without ``build``, a line outside the grammar
    (named with its line number)."""
    try:
        fd = safe_files.open_folder(folder)
    except UnsafePath as exc:
        raise InstallError(f"{exc.strerror}: give the bot's folder (the one holding {REQUIREMENTS})") from None
    try:
        return [line for _number, line, _wanted in wanted_of(fd, Path(folder) / REQUIREMENTS, build)]
    finally:
        os.close(fd)


def pip_command(target: Path, arguments: Sequence[str], find_links: Sequence[str] = (), no_index: bool = False,
                build: bool = False) -> list[str]:
    """The pip command line that installs ``arguments`` (requirements, wheels' paths; with
    ``build``, ``-r FILE``) into ``target``."""
    argv = [sys.executable, "-I", "-m", "pip", "install", "--isolated", "--target", str(target), "--no-input",
            "--disable-pip-version-check", "--no-warn-script-location", "--progress-bar", "off", "--no-compile"]
    if not build:
        argv += ["--only-binary", ":all:"]
    for link in find_links:
        argv += ["--find-links", str(link)]
    if no_index:
        argv.append("--no-index")
    return argv + ["--", *arguments] if not build else argv + list(arguments)


def pip_environment(staging: Path) -> dict[str, str]:
    """pip's environment: the caller's without ``PIP_*`` and ``PYTHON*``, no configuration file,
    temporary files in the staging folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PIP_CONFIG_FILE=os.devnull, TMPDIR=str(staging / "tmp"), PYTHONNOUSERSITE="1")
    return env


def run_pip(argv: list[str], cwd: Path, env: dict[str, str], progress: Callable[[str], None]) -> tuple[int, list[str]]:
    """Run pip (the one place that does; tests replace it): its status and its lines."""
    output: list[str] = []
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                          text=True, errors="replace", cwd=cwd, env=env) as pip:
        for line in pip.stdout:
            output.append(line.rstrip())
            if line.strip():
                progress(line.strip())
    return pip.returncode, output


def _check_names(folder: int, shown: Path) -> None:
    """``InstallError`` when ``.deps``, ``.deps.installing`` or ``.deps.old`` in the folder is
    anything but a plain folder (a link, a FIFO, a file)."""
    for name in (DEPS, INSTALLING, OLD):
        kind = safe_files.kind_at(folder, name)
        if kind not in (None, "folder"):
            raise InstallError(f"{shown / name} is {kind if kind != 'file' else 'a file'}, not a folder: "
                               "remove it first (nothing is installed through it)")


def _stage_wheels(folder: int, shown: Path, wanted: list[tuple[int, str, Wanted | None]],
                  wheels: Path) -> list[str]:
    """pip's arguments: each requirement as parsed, each wheel a copy made in ``wheels`` (one
    with a dependency named by URL is refused: pip would fetch and build it)."""
    arguments = []
    for number, line, item in wanted:
        if item.kind == "requirement":
            arguments.append(item.text)
            continue
        name = item.text.rsplit("/", 1)[-1]
        copy = wheels / name
        try:
            fd = safe_files.open_file_under(folder, item.text, f"{shown / REQUIREMENTS}, line {number}: {line}")
            try:
                safe_files.copy_out(fd, str(copy))
            finally:
                os.close(fd)
        except UnsafePath as exc:
            raise InstallError(str(exc)) from None
        except OSError as exc:
            raise InstallError(f"cannot copy {line} ({exc.strerror})") from None
        by_url = _dependencies_by_url(copy)
        if by_url:
            raise InstallError(f"{shown / REQUIREMENTS}, line {number}: {line} names a dependency by URL "
                               f"({by_url[0][:80]}), which pip would fetch and may build: refused")
        arguments.append(str(copy))
    return arguments


def _dependencies_by_url(wheel: Path) -> list[str]:
    """The ``Requires-Dist`` entries of ``wheel`` that name a URL (``pkg @ file:///x.tbz``);
    an unreadable wheel is left to pip to refuse."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            metadata = [n for n in archive.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
            text = "".join(archive.read(n).decode("utf-8", "replace") for n in metadata)
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
        return []
    found = []
    for line in text.splitlines():
        if line.lower().startswith("requires-dist:") and "@" in line.split(";")[0]:
            found.append(line.split(":", 1)[1].strip())
    return found


def _place(staged: Path, folder: int, shown: Path) -> int:
    """Copy ``staged`` (pip's target) into the folder open as ``folder`` as ``.deps``: made as
    ``.deps.installing`` (from descriptors, ``safe_files.copy_tree``), the old ``.deps`` renamed
    aside and removed without following links. The bytes placed."""
    for name in (INSTALLING, OLD):
        if safe_files.kind_at(folder, name) == "folder":  # a plain folder left by a killed install
            safe_files.remove_tree(folder, name)
    source = os.open(staged, safe_files.DIR_FLAGS)
    try:
        size = safe_files.copy_tree(source, folder, INSTALLING)
    finally:
        os.close(source)
    _check_names(folder, shown)
    if safe_files.kind_at(folder, DEPS) == "folder":
        safe_files.rename_at(folder, DEPS, OLD)
    safe_files.rename_at(folder, INSTALLING, DEPS)
    if safe_files.kind_at(folder, OLD) == "folder":
        safe_files.remove_tree(folder, OLD)
    return size


def install(folder: Path, find_links: Sequence[str] = (), no_index: bool = False, build: bool = False,
            progress: Callable[[str], None] = lambda line: None) -> Installed:
    """Install ``folder``'s ``requirements.txt`` into ``folder/.deps``; ``progress`` gets each
    line pip prints. ``InstallError`` (one line) when a line is outside the grammar, a name is
    not what it must be, or pip fails (with pip's own error lines; the old ``.deps`` then stays
    as it was)."""
    folder = Path(folder)
    try:
        fd = safe_files.open_folder(folder)
    except UnsafePath:
        raise InstallError(f"{folder} is not a folder: give the bot's folder (the one holding {REQUIREMENTS})") from None
    try:
        wanted = wanted_of(fd, folder / REQUIREMENTS, build)
        _check_names(fd, folder)
        if find_spec("pip") is None:
            raise InstallError(f"pip is not installed for {sys.executable} (python -m ensurepip installs it)")
        staging = Path(tempfile.mkdtemp(prefix="arcade-install-"))
        try:
            return _install_staged(fd, folder, wanted, staging, find_links, no_index, build, progress)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        os.close(fd)


def _install_staged(fd: int, folder: Path, wanted, staging: Path, find_links, no_index, build,
                    progress) -> Installed:
    """``install``'s work, pip's files in ``staging`` (a private folder of ours)."""
    for name in ("cwd", "tmp", "wheels"):
        (staging / name).mkdir()
    target = staging / "target"
    if build:
        arguments, cwd = ["-r", str(folder.resolve() / REQUIREMENTS)], folder.resolve()
    else:
        arguments, cwd = _stage_wheels(fd, folder, wanted, staging / "wheels"), staging / "cwd"
    status, output = run_pip(pip_command(target, arguments, find_links, no_index, build), cwd,
                             pip_environment(staging), progress)
    if status != 0:
        raise InstallError(f"pip could not install {folder / REQUIREMENTS}: {pip_errors(output, build)}")
    if not target.is_dir():
        target.mkdir()
    try:
        size = _place(target, fd, folder)
    except OSError as exc:
        raise InstallError(f"installing into {folder / DEPS} failed: {exc.strerror or exc}") from None
    done = [line for line in output if line.startswith("Successfully installed ")]
    packages = tuple(done[-1].removeprefix("Successfully installed ").split()) if done else ()
    return Installed(folder / DEPS, packages, size)


def pip_errors(output: list[str], build: bool) -> str:
    """pip's error lines as one line (its last line when it printed none), with a hint when a
    package has no wheel and only wheels were allowed."""
    errors = [line.removeprefix("ERROR: ").strip() for line in output if line.startswith("ERROR:")]
    text = "; ".join(errors) if errors else next((line for line in reversed(output) if line.strip()), "no output")
    if not build and any("from versions: none" in line or "No matching distribution" in line for line in errors):
        text += " (only wheels are installed: a package that exists only as source needs --build)"
    return text
