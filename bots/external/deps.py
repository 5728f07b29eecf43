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
  out first and given to pip as that copy. Anything else pip would take (archives of any suffix, folders, URLs, VCS, options,
  includes, constraints) is refused before pip runs, with one line (``GRAMMAR``).
- pip follows nothing of a package's: each requirement's one wheel is fetched alone (``pip
  download --no-deps``), every wheel (fetched or the folder's) is checked before anything
  unpacks it (``check_wheel``: its METADATA parsed by ``packaging.metadata``, the rules pip reads
  it by, so a ``Requires-Dist`` folded over two lines is one value; no dependency by URL; its
  members' count, uncompressed bytes and compression ratio capped: a zip bomb is refused), the
  dependencies are resolved here from those parses (``resolve``), and pip installs exactly those
  files with ``--no-deps --no-index``; what it writes is capped again as it is placed. Both pip
  steps run in a bwrap of their own where bwrap runs (the machine read-only but the staging
  folder, no capability, the network only to fetch from an index: ``confined``).
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

import errno
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
from typing import TYPE_CHECKING, Callable, Sequence

from bots import DEPS
from bots.external import safe_files
from bots.external.safe_files import UnsafePath

if TYPE_CHECKING:
    from packaging.requirements import Requirement
    from packaging.version import Version

REQUIREMENTS = "requirements.txt"
INSTALLING = f"{DEPS}.installing"
OLD = f"{DEPS}.old"
MAX_REQUIREMENTS = 64 << 10
"""Bytes of ``requirements.txt`` read at most."""
MAX_LINE = 300
WHEEL_BYTES = 2 << 30
"""The most the wheels of one install may unpack to, together (and each): a zip bomb's 399 KiB
that unpacks to 400 MiB is refused by its ratio first (``WHEEL_RATIO``)."""
WHEEL_FILES = 200_000
"""The most members one wheel may hold."""
WHEEL_RATIO = 100
"""The most a wheel's member over 1 MiB may be compressed (real wheels stay under ~20 times)."""
METADATA_BYTES = 1 << 20
MAX_PACKAGES = 300
"""The most packages one install may choose (a resolution that grows past it is refused)."""

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
    if not build:  # exactly the wheels given: no dependency followed, nothing built, nothing fetched
        argv += ["--only-binary", ":all:", "--no-deps", "--no-cache-dir"]
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
                  wheels: Path) -> tuple[list[Requirement], list[Path]]:
    """The requirements as parsed, and a copy (made in ``wheels``) of each wheel the folder holds."""
    from packaging.requirements import Requirement

    requirements, copies = [], []
    for number, line, item in wanted:
        if item.kind == "requirement":
            requirements.append(Requirement(item.text))
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
        copies.append(copy)
    return requirements, copies


@dataclass(frozen=True)
class Wheel:
    """A wheel checked before anything unpacks it (``check_wheel``): its file, its project's
    canonical ``name``, its ``version``, its dependencies as parsed (``packaging.metadata``: the
    rules pip reads METADATA by, folded lines and all), its members' uncompressed ``size`` and
    their number."""

    path: Path
    name: str
    version: Version
    requires: tuple[Requirement, ...]
    size: int
    files: int


def check_wheel(path: Path, shown: str) -> Wheel:
    """``path`` read as a wheel by its zip's central directory (what an unpacker writes: a
    member's declared size bounds what it yields, a lie is a CRC error): at most ``WHEEL_FILES``
    members, ``WHEEL_BYTES`` uncompressed, none compressed more than ``WHEEL_RATIO`` times (a
    zip bomb's members are ~1000 times), one ``NAME-VERSION.dist-info/METADATA`` at its top that
    matches its file name, parsed by ``packaging.metadata`` with validation, no dependency named
    by URL. ``InstallError`` naming ``shown`` otherwise."""
    from packaging.metadata import InvalidMetadata, Metadata
    from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

    try:
        name, version, _build, _tags = parse_wheel_filename(path.name)
    except InvalidWheelFilename:
        raise InstallError(f"{shown}: {path.name} is no wheel's file name") from None
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            if len(members) > WHEEL_FILES:
                raise InstallError(f"{shown}: {path.name} holds {len(members):,} files, over {WHEEL_FILES:,}: refused")
            size = sum(m.file_size for m in members)
            if size > WHEEL_BYTES:
                raise InstallError(f"{shown}: {path.name} unpacks to {size:,} bytes, over {WHEEL_BYTES:,}: refused")
            bomb = next((m for m in members if m.file_size > (1 << 20)
                         and m.file_size > WHEEL_RATIO * max(m.compress_size, 1)), None)
            if bomb is not None:
                raise InstallError(f"{shown}: {path.name}'s {bomb.filename[:60]!r} unpacks {bomb.file_size:,} bytes "
                                   f"from {bomb.compress_size:,} (over {WHEEL_RATIO} times): refused as a zip bomb")
            metadata = [m for m in members if m.filename.count("/") == 1 and m.filename.endswith(".dist-info/METADATA")]
            if len(metadata) != 1:
                raise InstallError(f"{shown}: {path.name} holds {len(metadata)} METADATA files at its top, not one")
            if metadata[0].file_size > METADATA_BYTES:
                raise InstallError(f"{shown}: {path.name}'s METADATA is over {METADATA_BYTES:,} bytes")
            text = archive.read(metadata[0]).decode("utf-8")
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError, EOFError) as exc:
        raise InstallError(f"{shown}: {path.name} is no readable wheel ({exc})") from None
    try:
        meta = Metadata.from_email(text, validate=True)
    except (InvalidMetadata, ExceptionGroup, ValueError) as exc:
        raise InstallError(f"{shown}: {path.name}'s METADATA is not valid ({_first(exc)}): refused") from None
    if canonicalize_name(meta.name) != canonicalize_name(name) or meta.version != version:
        raise InstallError(f"{shown}: {path.name}'s METADATA names {meta.name} {meta.version}, not its file name's")
    requires = tuple(meta.requires_dist or ())
    by_url = next((r for r in requires if r.url is not None), None)
    if by_url is not None:
        raise InstallError(f"{shown}: {path.name} names a dependency by URL ({str(by_url)[:80]}), which pip "
                           "would fetch and may build: refused")
    return Wheel(path, canonicalize_name(name), version, requires, size, len(members))


def _first(exc: BaseException) -> str:
    inner = getattr(exc, "exceptions", None)
    return _first(inner[0]) if inner else str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__


def resolve(requirements: list[Requirement], local: list[Path], fetch: Callable[[Requirement], Path],
            shown: str) -> list[Wheel]:
    """Every wheel to install: ``local`` ones (the folder's) and, for each requirement (the
    folder's, then each chosen wheel's ``Requires-Dist`` whose marker holds here, for the extras
    asked of it), one that ``fetch`` gets (``pip download --no-deps``: pip reads no dependency),
    each checked by ``check_wheel`` before the next step. A name chosen once is kept: a later
    requirement it does not satisfy is a conflict, said in one line; at most ``MAX_PACKAGES``."""
    from packaging.utils import canonicalize_name

    chosen: dict[str, Wheel] = {}
    extras: dict[str, set[str]] = {}
    queue: list[tuple[Requirement, str]] = []

    def take(wheel: Wheel, asked: set[str], why: str) -> None:
        if wheel.name in chosen and chosen[wheel.name].path != wheel.path:
            raise InstallError(f"{shown}: {wheel.name} is wanted twice ({why})")
        chosen[wheel.name] = wheel
        new = asked - extras.get(wheel.name, set()) if wheel.name in extras else asked | {""}
        extras.setdefault(wheel.name, set()).update(new)
        for requirement in wheel.requires:
            for extra in new:
                if requirement.marker is None or requirement.marker.evaluate({"extra": extra}):
                    queue.append((requirement, f"{wheel.name} {wheel.version} needs it"))
                    break

    queue.extend((r, "the folder's requirements.txt") for r in requirements
                 if r.marker is None or r.marker.evaluate({"extra": ""}))
    for path in local:  # the folder's own requirements first, then what its wheels need
        take(check_wheel(path, shown), set(), "a wheel of the folder")
    while queue:
        requirement, why = queue.pop(0)
        name = canonicalize_name(requirement.name)
        have = chosen.get(name)
        if have is None:
            if len(chosen) >= MAX_PACKAGES:
                raise InstallError(f"{shown}: over {MAX_PACKAGES} packages wanted: refused")
            wheel = check_wheel(fetch(requirement), shown)
            if wheel.name != name:
                raise InstallError(f"{shown}: asked for {name}, pip fetched {wheel.path.name}")
            take(wheel, set(requirement.extras), why)
            have = wheel
        elif set(requirement.extras) - extras.get(name, set()):
            take(have, set(requirement.extras), why)
        if not requirement.specifier.contains(have.version, prereleases=True):
            raise InstallError(f"{shown}: {requirement} ({why}) conflicts with {name} {have.version}, chosen already")
    if sum(w.size for w in chosen.values()) > WHEEL_BYTES:
        raise InstallError(f"{shown}: the packages unpack to over {WHEEL_BYTES:,} bytes together: refused")
    return list(chosen.values())


def _place(staged: Path, folder: int, shown: Path, limit: int | None = None) -> int:
    """Copy ``staged`` (pip's target) into the folder open as ``folder`` as ``.deps``: made as
    ``.deps.installing`` (from descriptors, ``safe_files.copy_tree``, at most ``limit`` bytes: past
    it the copy is removed and the old ``.deps`` stays), the old ``.deps`` renamed aside and
    removed without following links. The bytes placed."""
    for name in (INSTALLING, OLD):
        if safe_files.kind_at(folder, name) == "folder":  # a plain folder left by a killed install
            safe_files.remove_tree(folder, name)
    source = os.open(staged, safe_files.DIR_FLAGS)
    try:
        size = safe_files.copy_tree(source, folder, INSTALLING, limit=limit)
    except OSError:
        if safe_files.kind_at(folder, INSTALLING) == "folder":
            safe_files.remove_tree(folder, INSTALLING)
        raise
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
        if not wanted:
            raise InstallError(f"{folder / REQUIREMENTS} names no package (only comments or blank lines): "
                               "nothing to install")
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
    """``install``'s work, pip's files in ``staging`` (a private folder of ours). Without
    ``build``: the folder's wheels copied out, each requirement's wheel fetched alone (``pip
    download --no-deps``), every wheel checked and its dependencies read by ``resolve``, then pip
    installs exactly those files with ``--no-deps --no-index``: pip follows no dependency, fetches
    nothing and builds nothing; both pip steps run confined where bwrap can (``confined``)."""
    for name in ("cwd", "tmp", "wheels", "fetched"):
        (staging / name).mkdir()
    target = staging / "target"
    env = pip_environment(staging)
    if build:
        arguments, cwd = ["-r", str(folder.resolve() / REQUIREMENTS)], folder.resolve()
    else:
        requirements, local = _stage_wheels(fd, folder, wanted, staging / "wheels")
        cwd = staging / "cwd"
        fetched = iter(range(1, 10 ** 6))

        def fetch(requirement) -> Path:
            dest = staging / "fetched" / str(next(fetched))
            dest.mkdir()
            status, output = run_pip(confined(download_command(dest, str(requirement), find_links, no_index),
                                              staging, network=not no_index), cwd, env, progress)
            got = sorted(dest.glob("*.whl"))
            if status != 0 or len(got) != 1:
                raise InstallError(f"pip could not install {folder / REQUIREMENTS}: fetching {requirement}: "
                                   f"{pip_errors(output, build) if status else f'{len(got)} wheels came'}")
            return got[0]

        chosen = resolve(requirements, local, fetch, str(folder / REQUIREMENTS))
        arguments = [str(w.path) for w in chosen]
        if not arguments:
            target.mkdir()
    if build or arguments:
        argv = pip_command(target, arguments, (), no_index=not build, build=build)
        status, output = run_pip(argv if build else confined(argv, staging, network=False), cwd, env, progress)
        if status != 0:
            raise InstallError(f"pip could not install {folder / REQUIREMENTS}: {pip_errors(output, build)}")
    else:
        output = []
    if not target.is_dir():
        target.mkdir()
    try:
        size = _place(target, fd, folder, None if build else WHEEL_BYTES)
    except OSError as exc:
        if exc.errno == errno.ENOSPC and not build and not _full(staging):
            raise InstallError(f"the packages for {folder / REQUIREMENTS} are over {WHEEL_BYTES:,} bytes: "
                               "refused (the last good .deps stays)") from None
        raise InstallError(f"installing into {folder / DEPS} failed: {exc.strerror or exc}") from None
    done = [line for line in output if line.startswith("Successfully installed ")]
    packages = tuple(done[-1].removeprefix("Successfully installed ").split()) if done else ()
    return Installed(folder / DEPS, packages, size)


def _full(path: Path) -> bool:
    """Whether the disk holding ``path`` is out of space (an ``ENOSPC`` that is not our cap)."""
    try:
        return shutil.disk_usage(path).free < (1 << 20)
    except OSError:
        return False


def download_command(dest: Path, requirement: str, find_links: Sequence[str] = (), no_index: bool = False) -> list[str]:
    """The pip command line that fetches ``requirement``'s one wheel into ``dest``, no dependency
    read, nothing built."""
    argv = [sys.executable, "-I", "-m", "pip", "download", "--isolated", "--no-deps", "--only-binary", ":all:",
            "--dest", str(dest), "--no-input", "--disable-pip-version-check", "--progress-bar", "off",
            "--no-cache-dir"]
    for link in find_links:
        argv += ["--find-links", str(link)]
    if no_index:
        argv.append("--no-index")
    return argv + ["--", requirement]


def confined(argv: list[str], staging: Path, network: bool) -> list[str]:
    """``argv`` run in a bwrap of its own where bwrap runs here: the machine read-only but for
    the staging folder (pip's target, its temporary files), no capability, the network only for a
    fetch from the index; as it is
    where bwrap cannot run (a user without namespaces: pip is then as contained as its steps)."""
    if _bwrap() is None:
        return argv
    box = [_bwrap(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", str(staging), str(staging), "--unshare-all", "--die-with-parent", "--new-session",
           "--cap-drop", "ALL"]
    if network:
        box.append("--share-net")
    return box + ["--"] + argv


_BWRAP: list[str | None] = []


def _bwrap() -> str | None:
    """bwrap's path where it runs a contained process here (asked once), else ``None``."""
    if not _BWRAP:
        from bots.external.sandbox import bwrap_problem

        _BWRAP.append(shutil.which("bwrap") if bwrap_problem() is None else None)
    return _BWRAP[0]


def pip_errors(output: list[str], build: bool) -> str:
    """pip's error lines as one line (its last line when it printed none), with a hint when a
    package has no wheel and only wheels were allowed."""
    errors = [line.removeprefix("ERROR: ").strip() for line in output if line.startswith("ERROR:")]
    text = "; ".join(errors) if errors else next((line for line in reversed(output) if line.strip()), "no output")
    if not build and any("from versions: none" in line or "No matching distribution" in line for line in errors):
        text += " (only wheels are installed: a package that exists only as source needs --build)"
    return text
