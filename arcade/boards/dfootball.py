"""D-Football's board, drawn as the course's ``print_game`` draws it.

A row of squares holding Michigan (``M``, blue) and Ohio (``O``, orange) players, the square
numbers beneath with the valid squares' numbers highlighted (bold, reversed: the course's green),
the squares of the last move bracketed beneath (``╰──╯``: the course's blue), the faint ghost of
a player jumped on the last move (a dim lower-case ``m``/``o``) for one turn, and the heading
"Michigan to move" / "Ohio loses!".

The squares are as wide as the board allows: three columns, two (numbers then alternate on two
lines, odd and even squares) or one (numbers written downwards, tens over units) for 31 squares
on an 80-column terminal.

Keys: ←/→ move the cursor (``▼``) over the players that can move, Enter/space moves the player
under it; digits jump the cursor to a square (type two digits quickly for squares 10 and up);
a click on a player (or its number) moves it. With the analysis on (``bots.dfootball.analyse``,
run in the game screen's worker), the side panel says whether the side to move wins with perfect
play and who wins from the start for this n, the field marks ``perfect``'s move ``★``, and the
commentary says the verdict once per position.
"""

from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from arcade.boards.base import SIDE_STYLES, Board, Drawing
from games.base import Result
from games.dfootball import DFootball, FootballEvent, FootballState

LEFT = 1  # columns before square 1
BIG_HEIGHT = 16  # board lines from which the squares may widen to five columns, the players are
# drawn in boxes three lines tall and the drawing is centred (never at 80×24: 12 lines)
DIGIT_SECONDS = 1.0  # how long a first digit waits for a second one


def _blank(total: int) -> list[tuple[str, Style]]:
    """A row of ``total`` empty cells."""
    return [(" ", Style())] * total


def _put(row: list[tuple[str, Style]], col: int, glyph: str, style: Style) -> None:
    """Write ``glyph`` into ``row`` from column ``col`` on, cut at the row's ends."""
    for k, ch in enumerate(glyph):
        if 0 <= col + k < len(row):
            row[col + k] = (ch, style)


class Field(Drawing):
    """The drawn board; clicks go to the board."""


class FootballBoard(Board):
    """The row of squares, the numbers, the markers and the key help."""

    MIN_WIDTH = 70
    MIN_HEIGHT = 24

    COMPONENT_PREFIX = "dfootball"
    COMPONENT_CLASSES = {
        "dfootball--empty",
        "dfootball--number",
        "dfootball--valid",
        "dfootball--last",
        "dfootball--cursor",
        "dfootball--label",
        "dfootball--good",
        "dfootball--bad",
    }

    BINDINGS = [
        Binding("left", "cursor(-1)", "◀", show=False),
        Binding("right", "cursor(1)", "▶", show=False),
        Binding("enter,space", "move", "Move"),
        *(Binding(str(d), f"digit({d})", f"Square {d}", show=False) for d in range(10)),
    ]

    game: DFootball
    state: FootballState

    def __init__(self, game: DFootball, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor: int | None = None
        self.typed = ""
        self.typed_at = 0.0
        self.hint = ""
        self.width_per_square = 2
        self.left = LEFT  # columns before square 1 (more when the drawing is centred)
        self.rows: dict[str, int] = {}
        self._announced: tuple | None = None

    def compose(self):
        yield Field(id="field")

    # -- drawing ----------------------------------------------------------------------------------
    def show(self, state: FootballState, human: bool, result: Result | None = None) -> None:
        super().show(state, human, result)
        self.hint = ""
        self.typed = ""
        movable = self.movable()
        if not movable:
            self.cursor = None
        elif self.cursor not in movable:
            self.cursor = movable[0] if state.team == 1 else movable[-1]
        self.redraw()
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.redraw()

    def watch_analysis(self, value: bool) -> None:
        super().watch_analysis(value)
        self.redraw()  # the analysis's ★ on the field
        self.announce()

    def show_analysis(self, analysis) -> None:
        super().show_analysis(analysis)
        self.redraw()  # the analysis's ★ on the field
        self.announce()

    def announce(self) -> None:
        """With the analysis on, say in the commentary whether the side to move wins (once per
        position)."""
        state = self.state
        analysed = self.current_analysis()
        if analysed is None or self.ended(state) or not self.is_mounted:
            return
        key = (state.board, state.to_move, state.ply)
        if key == self._announced:
            return
        self._announced = key
        from arcade.untrusted import markup, ours

        self.comment(markup("[dim]analysis:[/dim] ") + ours(analysed.lines[0]))

    def movable(self) -> list[int]:
        if not self.human or self.ended(self.state):
            return []
        return list(self.game.legal_moves(self.state))

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#field", Field).update(self.render_field())

    def big(self) -> bool:
        """A big terminal: boxed players, up to five columns a square, the drawing centred."""
        return (self.size.height or 0) >= BIG_HEIGHT

    def cell_width(self) -> int:
        squares = self.game.squares
        width = self.size.width or 48
        return max(1, min(5 if self.big() else 3, (width - LEFT - 1) // squares))

    def column(self, square: int) -> int:
        """The column of ``square``'s player."""
        w = self.width_per_square
        return self.left + (square - 1) * w + ((w - 1) // 2 if w >= 3 else 0)

    def heading(self) -> Text:
        state = self.state
        result = state.result or (self.result if self.ended(state) else None)
        if result is not None and result.winner is None:
            return Text("Drawn", "bold")
        side = 1 - result.winner if result is not None else state.to_move
        name = self.game.sides[side].name
        return Text.assemble((name, SIDE_STYLES[side]), (" loses!" if result is not None else " to move", "bold"))

    def render_field(self) -> Text:
        """The whole drawing: the heading, the rows of squares (the cursor, the players, the marks
        of the last move and the analysis's move), the square numbers and the lines below."""
        state = self.state
        self.width_per_square = self.cell_width()
        event = state.event if isinstance(state.event, FootballEvent) else None
        self.place_field(event)
        valid = set(self.game.legal_moves(state))
        return self.stack_rows(self.square_rows(event), self.number_rows(valid if not self.ended(state) else set()), event)

    def place_field(self, event: FootballEvent | None) -> None:
        """Set ``left``, the columns before square 1: ``LEFT``, or on a big board as many as centre
        the rows of squares and the lines of text below them as one block."""
        self.left = LEFT
        if self.big():
            total = LEFT + self.game.squares * self.width_per_square + 1
            widest = max([total] + [line.cell_len for line in self.info_lines(event)] + [self.heading().cell_len])
            self.left = LEFT + max(0, ((self.size.width or 0) - widest) // 2)

    def square_rows(self, event: FootballEvent | None) -> list[tuple[str, list[tuple[str, Style]]]]:
        """The named rows of cells above the numbers: the cursor's ``▼``, the players (boxed on a
        big board: a row above and below them) and the marks under them."""
        state = self.state
        total = self.left + self.game.squares * self.width_per_square + 1
        boxed = self.big() and self.width_per_square >= 4
        last = set(event.squares) if event else set()
        movable = set(self.movable())
        cursor_row, pieces, marks = _blank(total), _blank(total), _blank(total)
        box_top, box_bottom = _blank(total), _blank(total)  # a big board: each player in a box
        if self.cursor is not None and self.cursor in movable:
            _put(cursor_row, self.column(self.cursor), "▼", self.style("cursor"))
        for square in range(1, self.game.squares + 1):
            piece = state.board[square - 1]
            col = self.column(square)
            glyph, style = self.square_glyph(square, event)
            if square == self.cursor and square in movable:
                style = style + Style(reverse=True)
            elif square in last:
                style = style + Style(underline=True)
            _put(pieces, col, glyph, style)
            if boxed and piece:
                frame = Style.parse(SIDE_STYLES[0 if piece == 1 else 1]) + Style(bold=False)
                _put(box_top, col - 1, "┌─┐", frame)
                _put(pieces, col - 1, "│", frame)
                _put(pieces, col + 1, "│", frame)
                _put(box_bottom, col - 1, "└─┘", frame)
        self.mark_moves(marks, last)
        if boxed:
            return [("cursor", cursor_row), ("box_top", box_top), ("pieces", pieces), ("box_bottom", box_bottom),
                    ("marks", marks)]
        return [("cursor", cursor_row), ("pieces", pieces), ("marks", marks)]

    def square_glyph(self, square: int, event: FootballEvent | None) -> tuple[str, Style]:
        """What stands on ``square``: a player (``M``, ``O``), the faint ghost of the player the
        last move jumped (``m``, ``o``), or an empty square (``·``)."""
        piece = self.state.board[square - 1]
        if piece == 1:
            return "M", Style.parse(SIDE_STYLES[0])
        if piece == -1:
            return "O", Style.parse(SIDE_STYLES[1])
        if event is not None and event.jumped == square:
            ghost = Style(dim=True, bold=False, italic=True)
            return "mo"[event.jumped_side], Style.parse(SIDE_STYLES[event.jumped_side]) + ghost
        return "·", self.style("empty")

    def mark_moves(self, marks: list[tuple[str, Style]], last: set[int]) -> None:
        """Under the players: the squares of the last move bracketed (``╰──╯``), and with the
        analysis on the ``★`` of the analysis's move."""
        state = self.state
        if last:
            lo, hi = self.column(min(last)), self.column(max(last))
            bracket = "╰" + "─" * max(0, hi - lo - 1) + "╯" if hi > lo else "^"
            _put(marks, lo, bracket, self.style("last"))
        best = self.recommended(state) if self.analysis and not self.ended(state) else None
        if best is not None:  # the analysis's move, on the board: ★ under the player to move
            _put(marks, self.column(best), "★", Style(bold=True) + self.style("last"))

    def stack_rows(self, drawn: list[tuple[str, list[tuple[str, Style]]]],
                   number_rows: list[list[tuple[str, Style]]], event: FootballEvent | None) -> Text:
        """The heading, the rows and the lines below as one text (centred in the lines too on a
        big board), noting in ``rows`` the line each row is drawn on (clicks find it there)."""
        text = Text()
        line = 0
        if self.big():  # the block centred in the lines too (room kept for the most lines below it)
            block = 2 + 5 + len(number_rows) + 1 + 4
            line = max(0, ((self.size.height or 0) - block) // 2)
            text.append("\n" * line)
        text.append(" " * (self.left - LEFT))
        text.append_text(self.heading())
        text.append("\n\n")
        self.rows = {}
        line += 2
        named = drawn + [(f"numbers{k}", row) for k, row in enumerate(number_rows)]
        for name, row in named:
            self.rows[name] = line
            self.append_row(text, row)
            line += 1
        text.append("\n")
        for extra in self.info_lines(event):
            text.append(" " * (self.left - LEFT))
            text.append_text(extra)
            text.append("\n")
        return text

    def number_rows(self, valid: set[int]) -> list[list[tuple[str, Style]]]:
        size = self.game.squares
        w = self.width_per_square
        total = self.left + size * w + 1
        plain, hot = self.style("number"), self.style("valid")

        def blank():
            return [(" ", Style())] * total

        def put(row, col, glyph, style):
            for k, ch in enumerate(glyph):
                if 0 <= col + k < total:
                    row[col + k] = (ch, style)

        if w >= 3:
            row = blank()
            for square in range(1, size + 1):
                label = str(square)
                col = self.column(square) - len(label) // 2
                put(row, col, label, hot if square in valid else plain)
            return [row]
        if w == 2:
            odd, even = blank(), blank()
            for square in range(1, size + 1):
                put(odd if square % 2 else even, self.column(square), str(square), hot if square in valid else plain)
            return [odd, even]
        tens, units = blank(), blank()
        for square in range(1, size + 1):
            style = hot if square in valid else plain
            col = self.column(square)
            put(tens, col, str(square // 10) if square >= 10 else " ", style)
            put(units, col, str(square % 10), style)
        return [tens, units]

    @staticmethod
    def append_row(text: Text, row: list[tuple[str, Style]]) -> None:
        for ch, style in row:
            text.append(ch, style=style)
        text.append("\n")

    def info_lines(self, event: FootballEvent | None) -> list[Text]:
        state = self.state
        label = self.style("label")
        lines: list[Text] = []
        if event is not None:
            who = self.game.sides[event.side].name
            if event.is_jump:
                victim = self.game.sides[event.jumped_side]
                lines.append(Text(f"╰─╯ {who} {event.squares[0]}→{event.squares[-1]} jumped {victim.name} "
                                  f"on {event.jumped} ({victim.symbol.lower()}: ghost)", style=label))
            else:
                forced = " (forced)" if event.forced else ""
                lines.append(Text(f"╰─╯ last move: {who} {event.squares[0]}→{event.squares[-1]}{forced}", style=label))
        if self.human and not self.ended(state):
            lines.append(Text("←→ choose · Enter move · digits: square · click", style=label))
            if self.hint:
                lines.append(Text(self.hint, style=self.style("cursor")))
        return lines

    # -- input ----------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("cursor", "move", "digit"):
            return bool(self.human and not self.ended(self.state))
        return True

    def action_cursor(self, delta: int) -> None:
        movable = self.movable()
        if not movable:
            return
        if self.cursor not in movable:
            self.cursor = movable[0]
        else:
            i = movable.index(self.cursor)
            self.cursor = movable[max(0, min(len(movable) - 1, i + delta))]
        self.hint = ""
        self.redraw()

    def action_move(self) -> None:
        if self.cursor is not None:
            self.pick(self.cursor)

    def action_digit(self, digit: int, now: float | None = None) -> None:
        """Jump the cursor to the square typed: one digit, or two typed within a second."""
        now = time.monotonic() if now is None else now
        size = self.game.squares
        typed = self.typed + str(digit) if self.typed and now - self.typed_at <= DIGIT_SECONDS else str(digit)
        if int(typed) > size or typed.startswith("0"):
            typed = str(digit)
        self.typed, self.typed_at = typed, now
        square = int(typed)
        movable = self.movable()
        if square in movable:
            self.cursor = square
            self.hint = f"square {square}: Enter moves it"
        elif 1 <= square <= size:
            self.hint = f"square {square}: no {self.game.sides[self.state.to_move].name} player that can move"
            if int(typed) * 10 <= size:
                self.hint += " (type a second digit for " + f"{square}0–{min(size, square * 10 + 9)})"
        else:
            self.hint = f"no square {square}"
        self.redraw()

    def square_at(self, x: int) -> int | None:
        w = self.width_per_square
        if x < self.left:
            return None
        square = (x - self.left) // w + 1
        return square if 1 <= square <= self.game.squares else None

    def click_at(self, x: int, y: int) -> None:
        """A click on a player (or its number, or the cursor row above it) moves that player."""
        if y not in self.rows.values() or y == self.rows.get("marks"):
            return
        square = self.square_at(x)
        if square is None:
            return
        if square in self.movable():
            self.cursor = square
            self.pick(square)
        elif self.human and not self.ended(self.state):
            self.hint = f"square {square}: no player there that can move"
            self.redraw()
