"""The ``arcade`` command's subcommands, one module each (``arcade.cli`` puts them together)."""
