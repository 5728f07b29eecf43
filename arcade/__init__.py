"""The arcade: the Textual app (``arcade.app``) and the command line (``arcade.cli``).

Note: this import package shares its name with the unrelated PyPI library ``arcade``; install
this project (distribution ``contest-arcade``) in its own virtual environment or with pipx.
"""

__version__ = "0.1.0"
