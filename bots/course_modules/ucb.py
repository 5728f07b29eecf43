"""CS 61A's ``ucb.py``, for a student's file that begins ``from ucb import main, trace, interact``.

The course's module holds tools for running and debugging a project at a terminal. In a bot they
must not print to the (logged) output on every call, slow down a timed move or wait for input,
so here:

- ``main(fn)``, the decorator of a project's entry point, keeps the course's rule: it calls
  ``fn(*sys.argv[1:])`` only when the module that uses it runs as ``__main__`` (``python3
  hog.py``), and returns ``fn``. The arcade loads a bot under another module name, so a
  ``@main`` function never runs in a match;
- ``trace(fn)`` returns ``fn`` itself (the course's wraps it to print every call and return);
- ``log(message)``, ``log_current_line()`` and ``interact(msg=None)`` do nothing (the course's
  print, and open an interactive prompt, which a bot whose standard input is ``/dev/null`` could
  not use anyway).

A ``ucb.py`` in the bot's own folder comes first on the import path and replaces this one.
"""

import sys

__all__ = ["interact", "log", "log_current_line", "main", "trace"]


def main(fn):
    """Call ``fn`` with the command line's arguments if the calling module is ``__main__``;
    return ``fn`` (a decorator)."""
    if sys._getframe(1).f_globals.get("__name__") == "__main__":
        fn(*sys.argv[1:])
    return fn


def trace(fn):
    """The course's call tracer, as a no-op: ``fn`` unchanged."""
    return fn


def log(message):
    """The course's indented trace line, as a no-op."""


def log_current_line():
    """The course's "current line" trace, as a no-op."""


def interact(msg=None):
    """The course's interactive prompt, as a no-op (a bot has no terminal)."""
