"""Othello's board: 8×8 with A–H / 1–8 around it (row 8 at the top), blue ● and orange ○ discs;
its squares are 3 columns by 1 line, and grow (5×2, 7×3) where the terminal has room, centred.

Markers that do not rely on colour: the last move in square brackets ``[●]``, the discs it flipped
in angle brackets ``‹●›`` (for one turn), the human's legal moves as ``+``, the cursor in reverse
video. Keys while a human is to move: the arrows move the cursor, Enter/space play there, a
column letter then a row digit (``e`` ``3``) plays E3 (the letters ``a``-``h`` are columns only:
no vim keys, so ``h`` is never both), ``p`` passes (or Enter, when a pass is the only move); a
click on a square plays it. A refused square (or pass) is said in one place, the board's foot
line, wrapped under the board (no notification over it). With the analysis on (``a``, or ``A`` while a human
is to move, since ``a`` then types column A), the side panel shows both sides' mobility, the
learned evaluation as the expected final disc margin for blue and the best move found (worked out
by ``bots.othello.analyse`` in the game screen's worker), and the board marks that move ``★``.
"""

from __future__ import annotations

import textwrap

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding

from arcade.boards.base import SIDE_STYLES, Board
from games.base import Result
from games.othello import PASS, Othello, OthelloEvent, OthelloState, legal_bits, square_name

CELL = 3  # columns per square on a board of 80×24
CELL_SIZES = ((7, 3), (5, 2))  # bigger squares (columns, lines), the biggest that fits first
LABEL = 2  # columns of the row labels on each side


class OthelloBoard(Board):
    """The Othello board widget."""

    MIN_WIDTH = 70
    MIN_HEIGHT = 24
    TYPES_LETTERS = True  # columns a-h: the analysis is on A while a human moves

    COMPONENT_PREFIX = "othello"
    COMPONENT_CLASSES = {
        "othello--square",
        "othello--label",
        "othello--empty",
        "othello--legal",
        "othello--marker",
        "othello--cursor",
        "othello--cursor-disc",
        "othello--hint",
    }

    BINDINGS = [
        Binding("up", "cursor(0, 1)", "Up", show=False),
        Binding("down", "cursor(0, -1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("enter,space", "play_cursor", "Play", id="othello-play",
                tooltip="Play the square under the cursor (or pass, when that is the only move)"),
        Binding("p", "pass_turn", "Pass", show=False),
        *(Binding(letter, f"column('{letter}')", letter.upper(), show=False) for letter in "abcdefgh"),
        *(Binding(str(row), f"row({row})", str(row), show=False) for row in range(1, 9)),
    ]

    game: Othello
    state: OthelloState

    def __init__(self, game: Othello, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor = 19  # D3, next to the opening moves
        self.typed = ""  # a column letter waiting for its row
        self.refused = ""  # why the last square tried was refused, for the foot line
        self.left = 0  # x of the board's first square inside the widget
        self.top = 2  # y of row 8
        self.cell = (CELL, 1)  # (columns, lines) of a square as last drawn

    # -- drawing --------------------------------------------------------------------------------
    def show(self, state: OthelloState, human: bool, result: Result | None = None) -> None:
        super().show(state, human, result)
        self.typed = ""
        self.refused = ""
        if human:
            moves = [m for m in self.game.legal_moves(state) if m != PASS]
            if moves and self.cursor not in moves:
                self.cursor = min(moves, key=lambda m: abs((m >> 3) - (self.cursor >> 3)) + abs((m & 7) - (self.cursor & 7)))
        self.refresh_bindings()

    def cell_size(self, width: int, height: int) -> tuple[int, int]:
        """(columns, lines) of a square: 3×1, or bigger where the board has room for all eight
        rows and columns, the headline, the letters above and the foot line (a big terminal's board
        grows); the letters below only where a line is left, so the result's banner, a line taken
        above the board when the game ends, does not shrink the squares."""
        for cw, ch in CELL_SIZES:
            if LABEL + 1 + 8 * cw + 1 + LABEL <= width and 2 + 8 * ch + 1 <= height:
                return cw, ch
        return CELL, 1

    def render(self) -> Text:
        state = self.state
        width = self.size.width or 48
        height = self.size.height or 12
        cw, ch = self.cell = self.cell_size(width, height)
        board_width = LABEL + 1 + 8 * cw + 1 + LABEL
        board_height = 2 + 8 * ch + 2
        self.left = max(0, (width - board_width) // 2) + LABEL + 1
        pad = " " * max(0, (width - board_width) // 2)
        lift = max(0, (height - board_height) // 2) if ch > 1 else 0  # a big board: centred
        text = Text(no_wrap=True, overflow="crop")
        text.append("\n" * lift)
        text.append(pad)
        text.append(self.headline() + "\n", style="bold")
        label = self.style("label")

        def letters() -> None:
            text.append(pad + " " * (LABEL + 1))
            for c in "ABCDEFGH":
                text.append(" " * ((cw - 1) // 2))
                text.append(c, style=label)
                text.append(" " * (cw - 1 - (cw - 1) // 2))
            text.append("\n")

        letters()
        self.top = lift + 2
        squares = self.square_styles(state)
        for row in range(8, 0, -1):
            for k in range(ch):
                middle = k == ch // 2
                text.append(pad + " " * (LABEL - 1))
                text.append(str(row) if middle else " ", style=label)
                text.append(" ")
                for col in range(8):
                    self.append_square(text, squares((row - 1) * 8 + col), cw, middle)
                text.append(" ")
                text.append(str(row) if middle else " ", style=label)
                text.append("\n")
        lines_left = height - lift - (2 + 8 * ch)
        if lines_left >= 2:
            letters()
            lines_left -= 1
        for i, (indent, line) in enumerate(foot_lines(self.footline(), len(pad), width, lines_left)):
            text.append(("\n" if i else "") + " " * indent)
            text.append(line, style=self.style("hint"))
        return text

    def square_styles(self, state: OthelloState):
        """A function of a square: its (left mark, glyph, right mark, cell style, glyph style)."""
        event = state.event if isinstance(state.event, OthelloEvent) else None
        human = self.human and not self.ended(state)
        legal = 0
        if human:
            p, o = state.mover_bits()
            legal = legal_bits(p, o)
        flipped = set(event.flipped) if event else set()
        last = event.square if event else None
        best = self.recommended(state)  # the analysis's best move, on the board: ★ on its square
        empty_style, square = self.style("empty"), self.style("square")

        def look(sq: int) -> tuple[str, str, str, Style, Style]:
            owner = state.at(sq)
            left_mark, right_mark = " ", " "
            if sq == last:
                left_mark, right_mark = "[", "]"
            elif sq in flipped:
                left_mark, right_mark = "‹", "›"
            if owner is None:
                if sq == best:
                    glyph, glyph_style = "★", self.style("legal")
                elif legal >> sq & 1:
                    glyph, glyph_style = "+", self.style("legal")
                else:
                    glyph, glyph_style = "·", empty_style
            else:
                glyph = self.game.sides[owner].symbol
                glyph_style = Style.parse(SIDE_STYLES[owner])
            cell_style = square
            if human and sq == self.cursor and legal:
                # reverse video on an empty square; a disc keeps its colour (reversed, blue
                # turned into a black disc on blue) on a grey cursor, underlined
                cell_style = square + self.style("cursor" if owner is None else "cursor-disc")
            return left_mark, glyph, right_mark, cell_style, glyph_style

        return look

    def append_square(self, text: Text, look: tuple[str, str, str, Style, Style], cw: int, middle: bool) -> None:
        """One line of a square ``cw`` columns wide: its marks and glyph on the middle line (the
        marks next to the glyph), its background on the others."""
        left_mark, glyph, right_mark, cell_style, glyph_style = look
        side = (cw - 3) // 2
        marked = cell_style + self.style("marker")  # the marks' background: the whole square's
        if not middle:
            text.append(" " * cw, style=marked)
            return
        text.append(" " * side, style=marked)
        text.append(left_mark, style=marked)
        text.append(glyph, style=cell_style + glyph_style)
        text.append(right_mark, style=marked)
        text.append(" " * (cw - 3 - side), style=marked)

    def headline(self) -> str:
        nb, no = self.state.counts()
        blue, orange = self.game.sides
        return f"{blue.symbol} {blue.name} {nb:>2}   {orange.symbol} {orange.name} {no:>2}"

    def footline(self) -> str:
        state = self.state
        if self.ended(state):
            return "[ ] last move · ‹ › flipped"
        if self.human:
            if self.game.legal_moves(state) == [PASS]:
                return "No move: p or Enter passes"
            if self.typed:
                return f"{self.typed.upper()}… type the row 1–8"
            if self.refused:
                return f"✗ {self.refused}"
            return "+ moves · arrows Enter · type e3"
        return "[ ] last move · ‹ › flipped"

    # -- input ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("cursor", "play_cursor", "pass_turn", "column", "row"):
            return bool(self.human and not self.ended(self.state))
        return True

    def action_cursor(self, dx: int, dy: int) -> None:
        row, col = divmod(self.cursor, 8)
        row = max(0, min(7, row + dy))
        col = max(0, min(7, col + dx))
        self.cursor = row * 8 + col
        self.typed = ""
        self.refused = ""
        self.refresh()

    def action_column(self, letter: str) -> None:
        self.cursor = (self.cursor & ~7) | "abcdefgh".index(letter)
        self.typed = letter
        self.refused = ""
        self.refresh()

    def action_row(self, row: int) -> None:
        if self.typed:
            square = (row - 1) * 8 + "abcdefgh".index(self.typed)
            self.typed = ""
            self.cursor = square
            self.refresh()
            self.play(square)
            return
        self.cursor = (row - 1) * 8 + (self.cursor & 7)
        self.refresh()

    def action_play_cursor(self) -> None:
        if self.game.legal_moves(self.state) == [PASS]:
            self.pick(PASS)
            return
        self.play(self.cursor)

    def action_pass_turn(self) -> None:
        if self.game.legal_moves(self.state) == [PASS]:
            self.pick(PASS)
        else:
            self.refused = "you have a move: a pass is only legal when no move flips"
            self.app.bell()
            self.refresh()

    def play(self, square: int) -> None:
        moves = self.game.legal_moves(self.state)
        if square in moves:
            self.pick(square)
            return
        if moves == [PASS]:
            self.refused = "no move: p passes"
            self.app.bell()
            self.refresh()
            return
        try:
            self.game.parse_move(self.state, square_name(square))
        except Exception as exc:  # IllegalMove: say why (space occupied, no trap)
            self.refused = str(exc)
            self.app.bell()
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        if not (self.human and not self.ended(self.state)):
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cw, ch = self.cell
        col = (offset.x - self.left) // cw
        row = 8 - (offset.y - self.top) // ch if offset.y >= self.top else 9
        if 0 <= col < 8 and 1 <= row <= 8 and offset.x >= self.left:
            square = (row - 1) * 8 + col
            self.cursor = square
            self.refresh()
            self.play(square)


def foot_lines(foot: str, pad: int, width: int, room: int) -> list[tuple[int, str]]:
    """``foot`` under the board in at most ``room`` lines of ``width``, as (indent, text): indented
    like the board (``pad``) when it fits on one line, else from the left edge, wrapped at spaces
    (the last line that fits ends in … when even that is not enough)."""
    if room < 1 or width < 1:
        return []
    if len(foot) + pad <= width:
        return [(pad, foot)]
    lines = textwrap.wrap(foot, width) or [""]
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = lines[-1][: max(0, width - 1)] + "…"
    return [(0, line) for line in lines]
