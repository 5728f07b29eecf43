"""Board widgets, one per game (``arcade.catalog`` names each game's); the contract is in ``base``."""
