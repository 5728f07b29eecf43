"""Strategies written in R: D-Football was a STATS 306 (R) contest, so ``path/to/strategy.R:fn``
is a file bot too, run by R (Debian's ``r-base-core``, with ``r-cran-dplyr``).

The bot's process is one long-lived R process per bot, like a Python file bot's: started by
``ProcessTransport`` in the same sandbox, with the same limits, speaking the same protocol
(``bots.external.wire``). It begins as a few lines of Python (``r_child_main``): they read
the arcade's ``Load``, set the memory and process caps (``child.set_caps``, as a Python bot's
process does before the file runs), move the answers off the standard descriptors (to 4; the
requests stay on standard input, which R reads directly; output and error the bot's log), and ``exec``
R on ``r/child.R``, which loads the course's API (``r/d_football.R``, the project's own,
written from the seed) and ``dplyr``, sources the student's file and answers the ``Load`` and
every request after it (``r/json.R`` reads and writes the protocol's JSON in base R). Loading,
``dplyr`` included, happens before the first move's clock starts.

R is started as its launcher would start it, without the launcher (``r_direct``): ``Rscript``
runs the shell script ``R``, which forks (``uname``, ``sed``) to find what it sets before it
``exec``s R's binary, ``R_HOME/bin/exec/R``; under a plain user's caps (no cgroup: 4 processes
and threads, bwrap's first process counted, ``cgroups.process_caps``) those forks fail and R
never starts (it needed 6 for ``Rscript`` and a ``pipe()``, measured). So the few lines of Python
read the launcher's settings (its ``R_HOME`` and the paths it exports, its ``ldpaths`` by one
``sh`` before the caps) and ``exec`` the binary with the arguments ``Rscript`` gives it. Then the
bot holds 3 of its 4 (bwrap's first process, R, the answers' ``cat``: ``child.R`` stops the
ticking thread of ``cli``, which dplyr loads), one left for a ``system()``. Its open files are
``sandbox.R_OPEN_FILES`` where a Python bot's are 64 (R will not start under 167), each file
smaller (``sandbox.R_SPLIT_FILE_SIZE``); the limits are otherwise a Python bot's.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

R_SUFFIXES = (".R", ".r")
"""The endings of an R strategy's file."""
R_GAMES = ("dfootball",)
"""The games whose course used R (the R process knows their API only)."""
R_PACKAGES = "r-base-core r-cran-dplyr"
"""The Debian packages an R strategy needs: R itself, and dplyr (the course's ``dplyr::lead``)."""
R_MISSING = f"Rscript not found: apt-get install --no-install-recommends {R_PACKAGES}"
"""What an R bot is, in one line, where R is not installed."""
R_DIR = Path(__file__).resolve().with_name("r")
"""The R side: ``child.R``, ``json.R`` and ``d_football.R`` (package data)."""
R_NAME = re.compile(r"(?:[A-Za-z]|\.(?![0-9]))[A-Za-z0-9._]*")
"""A syntactic R name (``my_strategy``, ``prefer.jumps``)."""

R_CHILD_CODE = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "from bots.external.rlang import r_child_main; r_child_main()")
"""What an R bot's process runs first: ``python -u -c R_CHILD_CODE <arcade root> <arcade pid>``."""


def is_r_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` names an R strategy's file (``.R``, or ``.r``)."""
    return str(path).endswith(R_SUFFIXES)


def rscript() -> str | None:
    """Where ``Rscript`` is on this ``PATH``, ``None`` if nowhere."""
    return shutil.which("Rscript")


def r_problem(game_id: str, function: str) -> str | None:
    """Why an R strategy cannot be a bot of ``game_id`` here (a game that was not R's, a name
    that is not R's, no ``Rscript``), ``None`` when it can."""
    if game_id not in R_GAMES:
        return f"R strategies play {', '.join(R_GAMES)} only (the course that used R), not {game_id}"
    if not R_NAME.fullmatch(function):
        return f"{function!r} is not an R function name (write path/to/strategy.R:function)"
    if rscript() is None:
        return R_MISSING
    return None


def r_usage(game_id: str) -> str | None:
    """A line on an R strategy for ``game_id`` (``arcade bots``), ``None`` for a game that was
    not R's."""
    if game_id not in R_GAMES:
        return None
    return (f"in R: path/to/strategy.R[:function] (or STATS 306's notebook), the same function in R, with the course's d_football.R "
            f"and dplyr (needs Rscript: apt-get install --no-install-recommends {R_PACKAGES})")


LAUNCHER_EXPORTS = ("R_SHARE_DIR", "R_INCLUDE_DIR", "R_DOC_DIR", "SED")
"""What R's launcher (the shell script ``R``) exports as it sets it, besides ``R_HOME``,
``R_ARCH`` and ``LD_LIBRARY_PATH`` (``r_direct``)."""
WIDE_MACHINES = ("x86_64", "mips64", "ppc64", "powerpc64", "sparc64", "s390x")
"""The machines for which the launcher looks for ``/usr/lib64/R`` before ``/usr/lib/R``."""


def r_direct(program: str) -> tuple[str, dict[str, str]] | None:
    """R's own binary and the environment R's launcher would give it, for ``program``
    (``Rscript``): the launcher is the script ``R`` beside it (Debian's ``/usr/bin/R``), whose
    ``R_HOME_DIR`` (``/usr/lib/R``, or ``/usr/lib64/R`` where that has R, as its ``uname -m``
    case chooses) holds ``bin/exec/R``; the script's ``R_SHARE_DIR``, ``R_INCLUDE_DIR``,
    ``R_DOC_DIR`` and ``SED``, an empty ``R_ARCH``, what ``--vanilla`` sets empty, and the
    ``LD_LIBRARY_PATH`` of its ``etc/ldpaths`` (sourced by one ``sh``: run this before the process
    cap). ``None`` where the launcher is not such a script or the binary is not there (then
    ``Rscript`` runs as it is, launcher and all)."""
    try:
        text = Path(program).resolve().with_name("R").read_text(errors="replace")
    except OSError:
        return None

    def setting(name: str) -> str | None:
        found = re.search(rf"^{name}=(\S+)[ \t]*$", text, re.MULTILINE)
        return found.group(1).strip("\"'") if found else None

    home = setting("R_HOME_DIR")
    if home is None:
        return None
    if home == "/usr/lib/R":  # the launcher's own choice between lib64 and lib
        order = ("lib64", "lib") if os.uname().machine in WIDE_MACHINES else ("lib", "lib64")
        home = next((f"/usr/{nn}/R" for nn in order if os.access(f"/usr/{nn}/R/bin/exec/R", os.X_OK)), home)
    binary = os.path.join(home, "bin", "exec", "R")
    if not os.access(binary, os.X_OK):
        return None
    env = {"R_HOME": home, "R_ARCH": ""}
    for name in LAUNCHER_EXPORTS:
        value = setting(name)
        if value is not None:
            env[name] = value.replace("${R_HOME}", home).replace("$R_HOME", home)
    env.update(dict.fromkeys(("R_ENVIRON", "R_ENVIRON_USER", "R_PROFILE", "R_PROFILE_USER"), ""))  # --vanilla
    libraries = _ld_paths(home)
    if libraries:
        env["LD_LIBRARY_PATH"] = libraries
    return binary, env


def _ld_paths(home: str) -> str | None:
    """The ``LD_LIBRARY_PATH`` R's launcher exports: what ``R_HOME/etc/ldpaths`` makes of this
    process's own (``None`` if it cannot be read)."""
    import subprocess

    ldpaths = os.path.join(home, "etc", "ldpaths")
    if not os.path.isfile(ldpaths):
        return None
    env = {"R_HOME": home, "R_ARCH": "", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    if os.environ.get("LD_LIBRARY_PATH"):
        env["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH"]
    try:
        done = subprocess.run(["/bin/sh", "-c", '. "$1" && printf %s "$LD_LIBRARY_PATH"', "sh", ldpaths],
                              env=env, capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode(errors="replace") if done.returncode == 0 else None


def _read_line(fd: int) -> bytes:
    """One line from ``fd``, read a byte at a time, so nothing after it leaves the pipe."""
    from bots.external.wire import MAX_LINE

    line = bytearray()
    while len(line) <= MAX_LINE:
        byte = os.read(fd, 1)
        if not byte or byte == b"\n":
            break
        line += byte
    return bytes(line)


def _code_file(cells: list) -> str:
    """A notebook's cells as one R file in memory (a ``memfd``, left open across the ``exec``),
    named as R opens it: ``/proc/self/fd/N``."""
    fd = os.memfd_create("notebook.R", 0)  # not close-on-exec: R reads it
    data = "\n".join(source for _, source in cells).encode("utf-8") + b"\n"
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return f"/proc/self/fd/{fd}"


def r_child_main() -> None:
    """The R bot's process until it becomes R: read the ``Load``, find R's binary and its
    launcher's settings (``r_direct``), set the caps, move the answers to descriptor 4 (the
    requests stay on 0, read by R's ``file("stdin")`` itself: no relay process to wake on the
    clock), ``exec`` R on ``child.R`` as ``Rscript child.R`` would, without its launcher's forks
    (``Rscript`` itself where the binary was not found). A ``Failed`` answer if R cannot be
    started; a bare exit if the arcade is gone or sends no ``Load``."""
    from bots.adapters import ADAPTERS
    from bots.external.child import set_caps
    from bots.external.wire import Failed, Load, ProtocolError, decode, encode

    parent = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if parent and os.getppid() != parent:
        os._exit(70)
    try:
        request = decode(_read_line(0))
    except ProtocolError:
        os._exit(70)
    if not isinstance(request, Load):
        os._exit(70)
    program = rscript()
    direct = r_direct(program) if program is not None else None  # before the process cap: one sh
    set_caps(request.memory, request.processes)
    os.dup2(1, 4)
    os.dup2(2, 1)  # the bot's output (R's, C's, its subprocesses') goes to the log
    adapter = ADAPTERS.get(request.game)
    defaults = adapter.default_functions if adapter is not None else (request.function,)
    child = str(R_DIR / "child.R")
    args = [str(R_DIR), request.path, request.function, request.game, ",".join(defaults)]
    if request.cells is not None:  # a notebook's strategy cell: its code in a memory file R sources
        args += [_code_file(request.cells), "; ".join(label for label, _ in request.cells)]
    # UTF-8 where no locale is set (the sandbox's empty environment): a student's file may hold
    # any character, and R reads it in its locale
    env = {"LANG": "C.UTF-8", **os.environ}
    try:
        if program is None:
            raise FileNotFoundError("not on the PATH")
        if direct is not None:  # what Rscript runs, as its launcher runs it: --file's spaces as ~+~
            binary, settings = direct
            os.execve(binary, [binary, "--no-echo", "--no-restore", "--vanilla",
                               "--file=" + child.replace(" ", "~+~"), "--args", *args], {**env, **settings})
        os.execve(program, [program, "--vanilla", child, *args], env)
    except OSError as exc:
        os.write(4, encode(Failed(f"cannot start R ({exc.strerror or exc}); {R_MISSING.split(': ')[1]}")))
        os._exit(71)
