"""Strategies written in R: D-Football was a STATS 306 (R) contest, so ``path/to/strategy.R:fn``
is a file bot too, run by ``Rscript`` (Debian's ``r-base-core``, with ``r-cran-dplyr``).

The bot's process is one long-lived ``Rscript`` per bot, like a Python file bot's: started by
``ProcessTransport`` in the same sandbox, with the same limits, speaking the same protocol
(``bots.external.wire``). It begins as a few lines of Python (``r_child_main``): they read
the arcade's ``Load``, set the memory and process caps (``child.set_caps``, as a Python bot's
process does before the file runs), move the answers off the standard descriptors (to 4; the
requests stay on standard input, which R reads directly; output and error the bot's log), and ``exec``
``Rscript`` on ``r/child.R``, which loads the course's API (``r/d_football.R``, the project's own,
written from the seed) and ``dplyr``, sources the student's file and answers the ``Load`` and
every request after it (``r/json.R`` reads and writes the protocol's JSON in base R). Loading,
``dplyr`` included, happens before the first move's clock starts.
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
    fd = os.memfd_create("notebook.R", 0)  # not close-on-exec: Rscript reads it
    data = "\n".join(source for _, source in cells).encode("utf-8") + b"\n"
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return f"/proc/self/fd/{fd}"


def r_child_main() -> None:
    """The R bot's process until it becomes ``Rscript``: read the ``Load``, set the caps, move
    the answers to descriptor 4 (the requests stay on 0, read by R's ``file("stdin")`` itself:
    no relay process to wake on the clock), ``exec`` ``Rscript child.R``. A
    ``Failed`` answer if ``Rscript`` cannot be started; a bare exit if the arcade is gone or
    sends no ``Load``."""
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
    set_caps(request.memory, request.processes)
    os.dup2(1, 4)
    os.dup2(2, 1)  # the bot's output (R's, C's, its subprocesses') goes to the log
    adapter = ADAPTERS.get(request.game)
    defaults = adapter.default_functions if adapter is not None else (request.function,)
    program = rscript()
    args = ["--vanilla", str(R_DIR / "child.R"), str(R_DIR), request.path, request.function, request.game,
            ",".join(defaults)]
    if request.cells is not None:  # a notebook's strategy cell: its code in a memory file R sources
        args += [_code_file(request.cells), "; ".join(label for label, _ in request.cells)]
    try:
        if program is None:
            raise FileNotFoundError("not on the PATH")
        # UTF-8 where no locale is set (the sandbox's empty environment): a student's file may hold
        # any character, and R reads it in its locale
        os.execve(program, [program, *args], {"LANG": "C.UTF-8", **os.environ})
    except OSError as exc:
        os.write(4, encode(Failed(f"cannot start Rscript ({exc.strerror or exc}); {R_MISSING.split(': ')[1]}")))
        os._exit(71)
