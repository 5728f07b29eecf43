"""The game screen's move list and commentary pane, and the game log that writes both."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import DataTable, RichLog

from arcade.untrusted import plain
from games.base import CHANCE, Game, State


class FollowsTheEnd:
    """A pane that stays scrolled to its last line as lines come (the commentary, the moves).

    Each new line asks to scroll to the end after the next refresh; but a pane cannot scroll
    before the layout has given it its scrollbar, and nothing says the layout comes first. So
    when the scrollbar appears (the lines first outgrow the pane), the pane scrolls to its end.
    """

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        if shown:
            self.scroll_end(animate=False, immediate=True, x_axis=False)


class Commentary(FollowsTheEnd, RichLog):
    """The commentary: the game's ``Commentator`` lines, the screen's notes, forfeits.

    A ``RichLog`` wraps a line once, at the width it has when the line is written; the pane keeps
    what it said and writes it all again at a new width (a resized terminal), so its lines are
    wrapped again rather than cut."""

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)
        self.border_title = "Commentary"
        self.said: list[Text] = []
        self.wrapped_at = 0

    def say(self, line: str | Text) -> None:
        """Add ``line``: a ``str`` is plain text, whatever it holds (a forfeit's reason, a bot's
        name); styled lines come as ``Text`` (``arcade.untrusted.markup``)."""
        self.say_text(line if isinstance(line, Text) else plain(line, multiline=True))
    def say_text(self, text: Text) -> None:
        """Add ``text`` as it is (a path, which may hold brackets, is no markup)."""
        self.said.append(text)
        self.write(text)

    def clear(self) -> "Commentary":
        self.said = []
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if not self._size_known:  # the first size: RichLog writes the lines it kept at this width
            self.wrapped_at = width
            return
        if width and width != self.wrapped_at:
            self.wrapped_at = width
            at_end = self.is_vertical_scroll_end
            super().clear()
            for text in self.said:
                self.write(text, scroll_end=at_end)


class MoveList(FollowsTheEnd, DataTable):
    """The moves played: ply, who (a side, or the dice) and the move as players read it."""

    def __init__(self, game: Game, **kwargs) -> None:
        super().__init__(cursor_type="none", zebra_stripes=True, show_cursor=False, **kwargs)
        self.game = game
        self.border_title = "Moves"

    def on_mount(self) -> None:
        self.add_columns("#", "who", "move")

    def add_move(self, previous: State, state: State, states: int) -> None:
        """The row of the move (or roll) that led from ``previous`` to ``state``; ``states``: how
        many the game has so far (the ``#`` column's width)."""
        event = state.event
        if event is None:
            return
        who = "dice" if event.side == CHANCE else self.game.sides[event.side].name
        lines = self.fit_move(self.game.move_label(previous, event.move), states)
        self.add_row(str(state.ply), who, "\n".join(lines), height=len(lines))
        self.scroll_end(animate=False)

    def fit_move(self, text: str, states: int) -> list[str]:
        """The move's text within the pane (no sideways scrolling), as its row's lines: a long
        move (Hog's ten dice ``4-5-6-6-3-2-5-1-5-1``) breaks after a dash or at a space onto
        a second and third line, and only what is left over then is cut, ending in ``…``."""
        return break_move(text, move_room(self.game, self.outer_size.width, states))


def move_room(game: Game, width: int, states: int) -> int:
    """Columns the ``move`` cell of a move list ``width`` columns wide has (30 before it is laid
    out, as ``#game-grid`` makes it), beside its border, scrollbar, the ``#`` column of a game of
    ``states`` states and the ``who`` column (the longest side's name), each cell padded: the
    live list's and the replay's."""
    names = max([4] + [len(side.name) for side in game.sides])
    return (width or 30) - 2 - 1 - (len(str(states)) + 2) - (names + 2) - 2


def break_move(text: str, room: int, most: int = 3) -> list[str]:
    """``text`` in lines of at most ``room`` characters (at least 1), broken after a ``-`` or at
    a space where it can be, else anywhere; at most ``most`` lines, the last ending in ``…``
    when some is left over."""
    room = max(1, room)
    lines: list[str] = []
    rest = text
    while rest and len(lines) < most:
        if len(rest) <= room:
            lines.append(rest)
            rest = ""
            break
        cut = max(rest.rfind("-", 0, room) + 1, rest.rfind(" ", 0, room + 1))
        if cut <= 0:
            cut = room
        lines.append(rest[:cut].rstrip(" "))
        rest = rest[cut:].lstrip(" ")
    if rest:
        lines[-1] = lines[-1][: room - 1] + "…"
    return lines or [""]


class GameLog:
    """The game so far in its two panes: for each position, its row in the move list and the
    game's ``Commentator`` lines in the commentary; rebuilt from the history for a new game or
    after an undo."""

    def __init__(self, game: Game, commentary: Commentary, moves: MoveList) -> None:
        self.game = game
        self.commentary = commentary
        self.moves = moves
        self.commentator = game.commentator()

    def restart(self, heading: str | Text, history: list[State]) -> None:
        """Clear both panes, say ``heading``, and log ``history`` with a fresh commentator."""
        self.moves.clear()
        self.commentary.clear()
        self.commentator = self.game.commentator()
        self.commentary.say(heading)
        for previous, state in zip(history, history[1:]):
            self.add(previous, state, len(history))

    def add(self, previous: State, state: State, states: int) -> None:
        """Log the move from ``previous`` to ``state`` (``states``: how many the game has)."""
        self.moves.add_move(previous, state, states)
        for line in self.commentator.see(state):
            self.commentary.say(line)
