"""The game screen's keys: what each does, when it is offered, and which the Footer keeps first.

The board's own keys (a cursor, a move) are the board's (``arcade/boards/``). A key that is not
offered now is neither in the Footer nor does anything (``offered``); one the Footer has no room
for still works (``arcade/widgets/footer.py``).
"""

from __future__ import annotations

from textual.binding import Binding

from arcade.screens.pacing import PACES

KEYS = [
    Binding("n", "new_game", "New", id="new-game", tooltip="Start a new game with the same players"),
    Binding("u", "undo", "Undo", id="undo", tooltip="Take back your last move (a step when bots play)"),
    Binding("a", "analysis", "Analysis", id="analysis", tooltip="Show or hide the analysis"),
    # shown instead of ``a`` while the board types letters (a human to move in Othello)
    Binding("A", "analysis('shift')", "Analysis", key_display="A", id="analysis-shift",
            tooltip="Show or hide the analysis"),
    # one key, two names: the Footer says what ``p`` does now
    Binding("p", "pause", "Pause", id="pause", tooltip="Pause the bots"),
    Binding("p", "resume", "Resume", id="resume", tooltip="Let the bots play on"),
    Binding("s", "step", "Step", id="step", tooltip="Pause, and play one move"),
    Binding("minus", "pace(-1)", "Slow", key_display="-", id="slower", tooltip="Bots play each other more slowly"),
    Binding("plus,equals_sign", "pace(1)", "Fast", key_display="+", id="faster",
            tooltip="Bots play each other faster"),
    Binding("x", "swap", "Swap sides", id="swap", tooltip="A new game with the players' sides swapped"),
    Binding("question_mark", "help", "Rules", id="help", tooltip="The rules of the game"),
    Binding("q", "back", "Menu", id="back", tooltip="Leave the game for the menu"),
    Binding("escape", "back", "Menu", show=False),
    Binding("ctrl+s", "save_game", "Save", show=False, id="save",
            tooltip="Save the game (arcade replay FILE steps through it)"),
]
"""The game screen's ``BINDINGS``."""

FOOTER_PRIORITY = ("back", "help", "new_game", "swap", "pause", "resume", "analysis", "pace", "undo", "step")
"""The screen's actions in the order the Footer keeps them when it is short of room (the board's
own keys, needed to play, come first)."""


def offered(action: str, parameters: tuple, *, watching: bool, paused: bool, over: bool, pace: int,
            types_letters: bool) -> bool:
    """Whether the screen's ``action`` (with ``parameters``) makes sense now. ``watching``: bots
    play each other and the game is not over; ``pace``: an index into ``PACES``;
    ``types_letters``: the board takes ``a`` as a letter (a human to move in Othello)."""
    if action == "pause":
        return watching and not paused
    if action == "resume":
        return watching and paused
    if action == "step":
        return watching
    if action == "swap":
        return over
    if action == "pace":
        if not watching:
            return False
        if not parameters:
            return True
        return 0 <= pace + parameters[0] < len(PACES)
    if action == "analysis":
        # shift+a instead of a while the board takes ``a`` as a letter: one of the two, never
        # both (the too-small notice showed both)
        return types_letters == bool(parameters)
    return True
