"""Players that are not humans: the courses' example strategies up to perfect play.

``bots/course_modules/`` (a folder of plain modules, not a package of ours) holds the courses'
helper modules that students' files import by their bare names: CS 61A's ``dice``, ``ucb`` and
``hog``, Robot Ludo's ``state`` and ``match``. A file bot's process (``bots.external``) appends
the folder to the *end* of its ``sys.path`` with ``course_modules_path()``, so a student's own
``dice.py`` beside their file is found first.
"""

import os

COURSE_MODULES = "course_modules"
"""The folder, beside this file, of the courses' helper modules."""

DEPS = ".deps"
"""The folder, in a bot's folder, of the packages its ``requirements.txt`` names (``arcade bot
install``, ``bots.external.deps``), just after the bot's folder on its ``sys.path`` and bound on
its own at ``/bot/.deps`` in the sandbox (``bots.external.sandbox``)."""


DEPS_RULE = ("a bot finds the packages `arcade bot install DIR` put in DIR/.deps when its file is in DIR; "
             "for a bot in a package, DIR is the package's own folder (the one holding __init__.py), "
             "never a folder above it")
"""Where a bot's ``.deps`` is, in one line: the install command says it, and so does a bot that
cannot import a package installed in a folder above its own (``bots.external.specs.deps_elsewhere``)."""


def deps_folder(path: "os.PathLike[str]"):
    """The ``.deps`` of the bot whose file is ``path`` (``DEPS_RULE``), a ``pathlib.Path``: in the
    bot's folder, the folder of its file, which for a bot in a package is the package's folder;
    never a folder above it, since the bot's folder is all its sandbox shows it (bound at
    ``/bot``, its ``.deps`` at ``/bot/.deps``). The bot's process looks there
    (``bots.external.child.load_function``)."""
    from pathlib import Path

    return Path(path).parent / DEPS


def course_modules_path() -> str:
    """The absolute path of ``bots/course_modules/`` wherever ``bots`` itself was imported from:
    the checkout (or installed package) outside the sandbox, ``/arcade/bots`` inside it."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), COURSE_MODULES)
