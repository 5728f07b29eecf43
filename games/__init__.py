"""The rules of the arcade's five games, one module each, behind one protocol (``games.base``).

Nothing here imports ``bots`` or ``arcade``. The games are registered, with their bots, boards
and help, in ``arcade.catalog``.
"""
