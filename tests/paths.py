"""Where the tests find the repository and their data, wherever a test file sits in tests/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""tests/: its data folders are ``reference/`` (the courses' vectors), ``course_bots/``,
``fault_bots/``, ``hostile_bots/`` and ``golden/``."""
ROOT = TESTS.parent
"""The repository."""
