"""Widgets of the game screen (``arcade/screens/game.py``): the side panel, the move list and
commentary, and the Footer that fits the screen's keys in the terminal's width."""
