"""A student's bot from a file, ``path/to/file.py:function``, run in a process of its own.

Wherever a bot name is accepted (``arcade match``, ``arcade tournament``, the setup screen) a
file bot can be named instead: ``bots.registry.resolve`` hands the spec to ``file_entry``. The
function is written in the course's own signature for the game (``bots.adapters``). Without
``:function`` the contest's name is used (``final_strategy``, else ``strategy``, in Hog;
``engine`` in Robot Ludo: ``Adapter.default_functions``). A bot may be a package: a folder
holding ``__init__.py``, named ``path/to/pkg:function`` (or ``path/to/pkg/``), or one of its
modules, ``path/to/pkg/module.py:function``; the folder is loaded as the package (relative
imports work) and is the bot's folder (``child.load_module``).

The package
===========
- ``wire``: the messages both ways, and the one encoder and decoder (bytes ⇄ messages);
- ``host``: the arcade's end: ``Host`` (one process), ``FileBotSource``, ``ExternalBot`` and
  ``file_entry``, which turn answers and silences into moves and ``Forfeit``s;
- ``transport``: the seam the host talks through: the real process, or a script in memory;
- ``child``: the bot's end, the process that loads the file and answers;
- ``logs``: the bot's log files, one per bot identity; ``specs``: reading ``path.py:function`` (and naming a run's bots apart, ``short_names``);
  ``entry``: the part after the ``:``, a function or an object's method built with literal
  arguments (``TDPlayer(color=0).make_a_move``), parsed by the arcade and built by the bot;
- ``freezer``: the bot's processes stopped between its turns (its cgroup's freezer, or signals);
- ``sandbox``: how the bot's process is contained (bubblewrap, rlimits, cgroups; the modes are
  ``bots.limits.SANDBOXES``), and ``sandbox_launch``, root's launcher of bwrap as ``nobody``
  (run by its path before every sandboxed bot: it imports nothing of the arcade's);
- ``safe_files``: file operations on paths a student controls, from a trusted folder's
  descriptor, never through a link; ``deps``: ``arcade bot install`` (a grammar, then pip);
- ``rlang``: D-Football strategies written in R (``path.R:function``): the same protocol, spoken
  by R (its binary, started as ``Rscript`` would start it, without the launcher's forks; its side
  in ``r/``: the wire's JSON, the course's ``d_football.R``);
- ``program``: a CS4341 program (``path/to/team/team:program``, any language): the process is the
  arcade's referee of its files (``bots.othello.cs4341_program.referee_main``), which starts the
  program beside it, one process a game.

How it runs
===========
The arcade never imports the student's code. ``ProcessTransport`` starts ``python -u`` in a new
session (its own process group) that speaks the wire: requests on its standard input (a pipe),
answers on its standard output, a packet socket the kernel stamps with each answer's arrival
(``child.child_main``). That process:

- sets ``RLIMIT_AS`` (the memory cap, ``DEFAULT_MEMORY`` = 1 GiB) and no core files, *before*
  it loads the file, so the module's own top-level code is capped too;
- moves the wire to private descriptors and points its standard output and error at the
  bot's log file, standard input at ``/dev/null``: whatever the bot prints (Python or C level,
  or its own subprocesses) ends in the log, never on the arcade's terminal or in ``--json``;
- loads the file under a module name that is not ``__main__`` (a student's test code under
  ``if __name__ == "__main__"`` does not run), with the file's folder on ``sys.path`` and the
  arcade's root too (``from games.hog import more_boar`` works, as the README promises), and,
  last, the courses' helper modules (``bots/course_modules/``: ``from dice import six_sided``,
  ``from state import getmoves``), so the bot's own ``dice.py`` wins;
- before each game seeds the global ``random`` (and numpy's, if loaded) from the game's seed, so
  a bot that draws from them plays the same games for the same match seed;
- calls the function for each move through the game's adapter and sends its answer back.

One process serves a bot for a whole match (its module's globals live on between games, as in
the courses' notebooks); a process that faulted is killed and the next game gets a fresh one.
Between its turns all its processes are frozen (``freezer``): thawed before each request, before
the clock starts. After the match (``FileBotSource.close``, called by
``arcade.match.run_match``), when the bot is garbage collected, or when the arcade exits, every
process it started (its cgroup, its process tree, its process group) is killed with ``SIGKILL``,
frozen or not.

Forfeits
========
``ExternalBot.choose`` raises ``Forfeit`` for a fault; the match runner and the game screen end
that game with the other side winning. The checks come in the course's order (``play_game`` in
D-Football): an error first, then the time, then the move.

- the function raises, calls ``exit``, the file cannot be loaded, or the process exits or
  crashes: ``"strategy produced an error (...)"``;
- it goes over the memory cap: ``"strategy exceeded the memory cap (1 GiB)"``;
- its move took longer than the limit (``"strategy took >100ms to return a move"``, the limit
  as actually used); one that does not answer by the limit plus a grace (``Limits.grace_for``) is killed
  and forfeits with the same words;
- it returns something that is not a legal move or not of the signature's type:
  ``"strategy returned an invalid move (...)"``.

The limit per move is, first to last: ``Context.time_limit`` (the session's ``Limits.time``),
the entry's own ``Limits.time``, the game's default (``bots.limits.move_time``:
``Adapter.time_limit``, 100 ms D-Football, the ``time_limit`` option in Othello, 1 s otherwise). The arcade keeps the clock, not the bot's
process: a move takes the request's round trip on the arcade's monotonic clock, or the CPU time
the bot's process and its children used meanwhile where that is more (threads). Nothing the
bot's process says changes it, so a bot that stops its own clock gains nothing.

POSIX only (``resource``, process groups, ``select`` on pipes).
"""

import importlib

_EXPORTS = {
    "ERROR": "bots.base", "INVALID": "bots.base", "MEMORY": "bots.base", "Forfeit": "bots.base",
    "limit_text": "bots.base", "took_too_long": "bots.base",
    "child_main": "bots.external.child",
    "DEFAULT_MEMORY": "bots.limits", "LOAD_TIMEOUT": "bots.external.host", "ExternalBot": "bots.external.host",
    "ExternalEntry": "bots.external.host", "FileBotSource": "bots.external.host", "Host": "bots.external.host",
    "file_entry": "bots.external.host", "memory_text": "bots.external.host",
    "log_dir": "bots.external.logs",
    "BadSpec": "bots.external.specs", "is_file_spec": "bots.external.specs", "parse_spec": "bots.external.specs",
    "short_name": "bots.external.specs", "short_names": "bots.external.specs",
}
"""Where each name of the package is, imported when first asked for: the bot's own process
(``bots.external.child``, which needs only the wire) then never loads the arcade's side (the host,
the transport, the sandbox, the cgroups), whose compiled code would count against the smallest
memory caps (a split cap of 53 MiB a process)."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bots.external' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
