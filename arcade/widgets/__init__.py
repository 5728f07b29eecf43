"""Widgets of the game screen (``arcade/screens/game.py``): the side panel, the move list and
commentary, the result banner, the grid of panes and the "enlarge the terminal" notice, and the
Footer that fits the screen's keys in the terminal's width."""
