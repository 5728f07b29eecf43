"""Robot Ludo's board: the circular track as a ring of squares round a rectangle.

Square 0 (Red's home) is the bottom-left corner; the track runs counter-clockwise (right along
the bottom, up the right side, left along the top, down the left side), so Blue's home
``length / 2`` is the opposite corner. Each square is four columns: a mark (``⌂`` a home, ``◇``
another safe square) and its counters, ``R``/``B`` with a superscript count when stacked
(``R³``); both colours on a safe square take the mark's column too (``R²B³``; the tile's colour
still shows the square is safe), and where even that is short a count of ten or more shows as
``⁺`` (``R⁺B²``, the legend then says so), so 15 counters on 40 squares stay legible at 80×24; the squares' numbers run above and below the ring, and an empty square of the
side columns shows its own number (every empty square does when there is no room for the
rows). Red is drawn orange and Blue blue (the colour-blind-safe pair); the letters say which
is which without colour.

Beside the ring (or inside it when the ring is wide): the die with its face drawn, each side's
pen and home counts, and the last move. The last move's square is bold and underlined, the
square it left shows ``∘``, and counters it cut stay for one turn as faint ghosts (``r²``).

Keys for a human: Tab/→/↓ and Shift+Tab/←/↑ cycle through the moves the roll allows (the chosen
counter and where it would land are shown reversed, the other movable counters underlined);
Enter or space plays it; ``e`` brings a counter out of the pen (on a 6). A click on a movable
counter plays its move.
"""

from __future__ import annotations

import random
import time

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding

from arcade.boards.base import Board
from games.base import CHANCE, Result
from games.ludo import Ludo, LudoEvent, LudoState

CELL = 4  # columns per square
BIG_CELL = 6  # columns per square on a big terminal (two lines tall)
BIG_HEIGHT = 16  # board lines from which the drawing is centred (never at 80×24: 12 lines)
LETTERS = ("R", "B")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
PIPS = {
    1: ("     ", "  ●  ", "     "),
    2: ("●    ", "     ", "    ●"),
    3: ("●    ", "  ●  ", "    ●"),
    4: ("●   ●", "     ", "●   ●"),
    5: ("●   ●", "  ●  ", "●   ●"),
    6: ("●   ●", "●   ●", "●   ●"),
}
INFO_WIDTH = 20  # columns the die and the counts need beside the ring


def ring_shape(length: int) -> tuple[int, int]:
    """Squares along the top/bottom (``width``) and down each side, corners included
    (``height``), with ``2*width + 2*height - 4 == length``."""
    total = length // 2 + 2
    height = min(11, total // 2 + 1)
    width = total - height
    return width, height


def ring_cells(length: int) -> dict[int, tuple[int, int]]:
    """(column, row) of each square in the ring's grid, counter-clockwise from the bottom-left."""
    width, height = ring_shape(length)
    cells: dict[int, tuple[int, int]] = {}
    square = 0
    for col in range(width):  # bottom row, left to right
        cells[square] = (col, height - 1)
        square += 1
    for row in range(height - 2, 0, -1):  # right side, bottom to top
        cells[square] = (width - 1, row)
        square += 1
    for col in range(width - 1, -1, -1):  # top row, right to left
        cells[square] = (col, 0)
        square += 1
    for row in range(1, height - 1):  # left side, top to bottom
        cells[square] = (0, row)
        square += 1
    return cells


def count_text(letter: str, count: int) -> str:
    return letter + (str(count).translate(SUPERSCRIPT) if count > 1 else "")


class LudoBoard(Board):
    """The ring, the die, the pens; highlights for a human's moves."""

    MIN_WIDTH = 80
    MIN_HEIGHT = 24

    # Red is drawn in the orange of the colour-blind-safe pair, Blue in its blue.
    SIDE_STYLES = Board.SIDE_STYLES[::-1]

    COMPONENT_PREFIX = "ludo"
    COMPONENT_CLASSES = {"ludo--track", "ludo--tile", "ludo--safe-tile", "ludo--label", "ludo--chosen", "ludo--movable", "ludo--last",
                         "ludo--ghost", "ludo--die"}

    BINDINGS = [
        Binding("tab,right,down", "cycle(1)", "Next move", priority=False),
        Binding("shift+tab,left,up", "cycle(-1)", "Previous", show=False),
        Binding("enter,space", "play", "Play"),
        Binding("e", "enter", "Enter counter"),
    ]

    game: Ludo
    state: LudoState

    def __init__(self, game: Ludo, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.chosen = 0
        self.cells = ring_cells(game.length)
        self.shape = ring_shape(game.length)
        self._rolling_until = 0.0
        self._tumble = random.Random()
        self._rolled_ply = -1
        self._origin = (0, 0)  # where the ring starts in the widget, for clicks
        self.cell_w, self.cell_h = CELL, 1  # a square's size on screen (``layout``)
        self.numbered_cells = False  # no room for numbers round the ring: empty squares show theirs
        self.shortened = False  # a count of ten or more is drawn as ⁺ somewhere (the legend says so)

    # -- state ----------------------------------------------------------------------------------
    def show(self, state: LudoState, human: bool, result: Result | None = None) -> None:
        if state is not self.state:
            self.chosen = 0
        super().show(state, human, result)
        event = state.event
        if (isinstance(event, LudoEvent) and event.side == CHANCE and state.ply != self._rolled_ply
                and self.app.animation_level != "none" and self.is_mounted):
            self._rolled_ply = state.ply
            self.start_roll_animation()
        self.refresh_bindings()

    def moves(self) -> list:
        if not self.human or self.ended(self.state) or self.state.to_move == CHANCE:
            return []
        return list(self.game.legal_moves(self.state))

    def chosen_move(self):
        moves = self.moves()
        if not moves:
            return None
        return moves[self.chosen % len(moves)]

    ROLL_SECONDS = 0.35

    def start_roll_animation(self) -> None:
        """Tumble the die for a moment (only when animations are on): the face is chosen at
        draw time, so any redraw after the moment shows the real roll."""
        self._rolling_until = time.monotonic() + self.ROLL_SECONDS
        steps = 7
        for k in range(1, steps + 1):
            self.set_timer(self.ROLL_SECONDS * k / steps, self.refresh)

    @property
    def rolling_face(self) -> int | None:
        if time.monotonic() < self._rolling_until:
            return self._tumble.randint(1, 6)
        return None

    # -- drawing --------------------------------------------------------------------------------
    def mark(self, name: str) -> Style:
        """A component style without its text colour, so that the counters keep their colours."""
        style = self.style(name)
        return Style(bgcolor=style.bgcolor, bold=style.bold, dim=style.dim, italic=style.italic,
                     underline=style.underline, reverse=style.reverse, strike=style.strike)

    def side_rich(self, side: int) -> Style:
        return Style.parse(self.SIDE_STYLES[side])

    def render(self) -> Text:
        return self.render_board()

    def layout(self) -> tuple[int, int, bool]:
        """(columns a square, lines a square, numbers above and below the ring): squares of
        six columns and two lines on a terminal with room for them (and the numbers), else four
        columns and one line, the numbers outside the ring when the lines allow; otherwise each
        empty square shows its own number (``numbered_cells``)."""
        width, height = self.shape
        avail_w = self.size.width or 46
        avail_h = self.size.height or 12
        top = 0 if self.ended(self.state) else 1
        if avail_h >= BIG_HEIGHT and width * BIG_CELL + 2 + INFO_WIDTH <= avail_w and top + 2 * height + 2 <= avail_h:
            return BIG_CELL, 2, True
        return CELL, 1, avail_h >= top + height + 2

    def render_board(self) -> Text:
        """The whole drawing: the die's line, the ring (with the squares' numbers above and below
        it when there is room) and the information inside the ring or beside it, centred on a big
        terminal. Notes where the ring starts (``_origin``) for clicks."""
        state = self.state
        width, height = self.shape
        cw, ch, numbered = self.layout()
        self.cell_w, self.cell_h = cw, ch
        self.numbered_cells = not numbered
        ring_w = width * cw
        self.shortened = False
        grid = self.ring_grid()  # first: the legend says what a shortened count means
        info_lines = self.info_lines()
        beside = (self.size.width or 46) - ring_w - 2 >= INFO_WIDTH or width < 6
        if not beside:
            self.fit_inside(info_lines, ch * (height - 2))
        block_w = ring_w + (2 + max((line.cell_len for line in info_lines), default=0) if beside else 0)
        block_h = (0 if self.ended(state) else 1) + height * ch + (2 if numbered else 0)
        left, lift = self.centring(block_w, block_h)
        margin = " " * left
        text = Text(no_wrap=True, overflow="crop")
        text.append("\n" * lift)
        top = lift
        if not self.ended(state):  # at the end the screen's result banner takes this line
            text.append(margin)
            text.append_text(self.headline())
            text.append("\n")
            top += 1
        if numbered:
            text.append_text(self.number_row(0, margin))
            text.append("\n")
            top += 1
        self._origin = (left, top)
        if beside:  # the lines from the ring's top to the board's foot
            self.fit_beside(info_lines, (self.size.height or 12) - top, (self.size.width or 46) - ring_w - 2)
        grid = self.ring_grid()
        for y in range(height * ch):
            text.append_text(self.ring_line(grid, y, margin, info_lines, beside))
            text.append("\n")
        rest = info_lines[height * ch:] if beside else []
        if numbered:
            line = self.number_row(height - 1, margin)
            if rest:
                line.append("  ")
                line.append_text(rest.pop(0))
            text.append_text(line)
            text.append("\n")
        for extra in rest:
            text.append(margin + " " * (ring_w + 2))
            text.append_text(extra)
            text.append("\n")
        text.right_crop(1)  # the last line's newline: it would count as a line more than the board has
        return text

    def fit_inside(self, info_lines: list[Text], room: int) -> None:
        """Make ``info_lines`` fit the ``room`` lines inside the ring where they can: the legend
        on one line, then if still a line too many (the analysis's move too) the last move
        beside the die."""
        if len(info_lines) <= room:
            return
        info_lines[-2:] = [Text(f"⌂ home ◇ safe ∘ just left {'R⁺=10+' if self.shortened else 'R²=2'}",
                                style=self.style("label"))]
        if len(info_lines) > room and self.state.last_move is not None:
            last = info_lines.pop(-2)
            info_lines[4] = info_lines[4].copy()
            info_lines[4].append(" ")
            info_lines[4].append_text(last)

    def fit_beside(self, info_lines: list[Text], room: int, columns: int) -> None:
        """Make ``info_lines`` beside the ring fit the ``room`` lines below its top and the
        ``columns`` beside it (80×24 with the analysis's move: eleven lines for ten): the pens'
        counts beside the die's free rows (``R pen4 ⌂0/4`` where the long form is too wide), then
        the legend on one line; a line still too wide ends in "…" rather than wrap, which would
        push the board's foot out of sight."""
        if len(info_lines) > room and len(info_lines) >= 7:
            for row, side in ((2, 0), (4, 1)):  # the die's rows with no caption
                pen = info_lines.pop(5)
                merged = info_lines[row].copy()
                merged.append(" ")
                if merged.cell_len + pen.cell_len > columns:
                    pen = self.pen_text(side, short=True)
                merged.append_text(pen)
                info_lines[row] = merged
            if len(info_lines) > room:
                info_lines[-2:] = [Text("⌂home ◇safe ∘left R²=2", style=self.style("label"))]
        for i, line in enumerate(info_lines):
            if line.cell_len > columns:
                line = line.copy()
                line.truncate(max(columns, 1), overflow="ellipsis")
                info_lines[i] = line

    def centring(self, block_w: int, block_h: int) -> tuple[int, int]:
        """(columns, lines) before a drawing ``block_w`` by ``block_h``: on a big terminal as
        many as centre it in the spare room, else none."""
        spare_w, spare_h = (self.size.width or 46) - block_w, (self.size.height or 0) - block_h
        big = (self.size.height or 0) >= BIG_HEIGHT
        return (spare_w // 2 if big and spare_w > 0 else 0), (spare_h // 2 if big and spare_h > 0 else 0)

    def number_row(self, row: int, margin: str) -> Text:
        """The squares' numbers above the ring's top row (``row`` 0) or below its bottom one (the
        side columns continue them: the track runs counter-clockwise from 0)."""
        by_cell = {cell: square for square, cell in self.cells.items()}
        cw = self.cell_w
        line = Text(no_wrap=True)
        line.append(margin)
        for c in range(self.shape[0]):
            number = by_cell[(c, row)]
            label = f"{number:>3} " if cw == CELL else " " + str(number).center(cw - 1)
            line.append(label, style=self.style("label"))
        return line

    def ring_grid(self) -> list[list[list[Text] | None]]:
        """The ring as a grid of cells: each square's lines where the square is, ``None`` inside."""
        width, height = self.shape
        grid: list[list[list[Text] | None]] = [[None] * width for _ in range(height)]
        for square, (col, row) in self.cells.items():
            grid[row][col] = self.square_lines(square)
        return grid

    def ring_line(self, grid: list[list[list[Text] | None]], y: int, margin: str, info_lines: list[Text],
                  beside: bool) -> Text:
        """Line ``y`` of the ring: the squares' lines, and the information line ``y`` after the
        ring (``beside``) or else ``info_lines`` inside it, framed by the ring's side columns."""
        cw, ch = self.cell_w, self.cell_h
        width = self.shape[0]
        r, k = divmod(y, ch)
        line = Text(no_wrap=True)
        line.append(margin)
        for c in range(width):
            cell = grid[r][c]
            if cell is not None:
                line.append_text(cell[k])
            elif not beside and c == 1:
                inner = info_lines[y - ch] if 0 <= y - ch < len(info_lines) else Text("")
                inner = inner.copy()
                inner.truncate((width - 2) * cw - 2, pad=True)
                line.append(" ")
                line.append_text(inner)
                line.append(" ")
            elif not beside:
                continue
            else:
                line.append(" " * cw)
        if beside and y < len(info_lines):
            line.append("  ")
            line.append_text(info_lines[y])
        return line

    def headline(self) -> Text:
        state = self.state
        text = Text()
        if self.ended(state):
            winner = (state.result or self.result).winner
            if winner is None:
                return Text("Drawn", style="bold")
            text.append(f"{self.game.sides[winner].name} wins", style=self.side_rich(winner))
            if state.over:  # by the rules, not a forfeit
                text.append(" · all counters home", style="bold")
            return text
        side = state.turn
        text.append(f"{self.game.sides[side].name}", style=self.side_rich(side))
        text.append(" ")
        if state.to_move == CHANCE:
            text.append("to roll", style="bold")
        else:
            text.append(f"rolled {state.roll}", style="bold")
            move = self.chosen_move()
            if move is not None:
                text.append("  ")
                text.append(self.describe_move(move), style=self.style("chosen"))
        return text

    def describe_move(self, move) -> str:
        turn, pos, steps = move
        if (pos, steps) == (-1, -1):
            return f"▶ no move with a {self.state.roll}: pass"
        if (pos, steps) == (0, 0):
            return f"▶ enter at {self.game.home_square(turn)}"
        target = self.target_of(move)
        cut = ""
        if target is not None and not self.game.safe[target] and self.state.squares(1 - turn)[target]:
            cut = " ✂"
        return f"▶ {pos} → {'home' if target is None else target}{cut}"

    def target_of(self, move) -> int | None:
        turn, pos, steps = move
        L = self.game.length
        if (pos, steps) == (0, 0):
            return self.game.home_square(turn)
        if pos < 0:
            return None
        if turn == 0:
            new = pos + steps
            return None if new == L else new
        new = (pos + steps) % L
        return None if new == L // 2 else new

    def square_lines(self, square: int) -> list[Text]:
        """The ``cell_h`` lines of a square: its mark and contents, then (a big square) its
        tile below them, highlighted alike."""
        cw = self.cell_w
        state = self.state
        game = self.game
        L = game.length
        cell = Text()
        # the mark
        if square == 0 or square == L // 2:
            side = 0 if square == 0 else 1
            cell.append("⌂", style=self.side_rich(side))
        elif game.safe[square]:
            cell.append("◇", style=self.style("track"))
        else:
            cell.append(" ")
        # the counters, the ghosts
        pieces = [(LETTERS[side], state.squares(side)[square], self.side_rich(side)) for side in (0, 1)
                  if state.squares(side)[square]]
        last = state.last_move
        if last is not None and last.cut and last.target == square:
            victim = 1 - last.side
            pieces.append((LETTERS[victim].lower(), last.cut, self.side_rich(victim) + self.mark("ghost")))
        content, room = self.stack_text(pieces, cw - 1, cw)
        self.shortened = self.shortened or "⁺" in content.plain
        if room == cw:  # the mark's column too (a safe square's tile still shows it is safe)
            cell = Text()
        if not content.plain:
            if last is not None and last.source == square:
                content.append("∘", style=self.style("track"))
            elif self.numbered_cells or not self.number_rows_reach(square):
                # the square's own number where no number row above or below the ring names it
                # (the side columns; every square when there is no room for the rows)
                content.append(str(square), style=self.style("track"))
            else:
                content.append("·", style=self.style("track"))
        content.truncate(room)
        pad = room - content.cell_len
        content.pad_left(pad // 2)
        content.pad_right(pad - pad // 2)
        tile = self.mark("safe-tile" if game.safe[square] else "tile")
        content.stylize(tile, 0)
        cell.append_text(content)
        lines = [cell] + [Text(" ") + Text(" " * (cw - 1), style=tile) for _ in range(self.cell_h - 1)]
        # highlights
        moves = self.moves()
        chosen = self.chosen_move()
        highlight = None
        if chosen is not None and chosen[1] >= 0 and (chosen[1] == square and chosen[2] > 0
                                                      or self.target_of(chosen) == square):
            highlight = "chosen"
        elif any(m[1] == square and m[2] > 0 for m in moves):
            highlight = "movable"
        elif chosen is not None and chosen[1:] == (0, 0) and square == game.home_square(chosen[0]):
            highlight = "chosen"
        elif last is not None and last.target == square:
            highlight = "last"
        if highlight is not None:
            mark = self.mark(highlight)
            cell.stylize(mark)
            for below in lines[1:]:  # the tile below: reversed or tinted, not underlined
                below.stylize(mark + Style(underline=False))
        return lines

    @staticmethod
    def stack_text(pieces: list[tuple[str, int, Style]], room: int, wide: int) -> tuple[Text, int]:
        """A square's counters and ghosts (``(letter, count, style)``: ``R³B²r²``) and the columns
        they take: ``room`` beside the square's mark, or, when they do not fit there (both colours
        on a safe square, a big stack with its ghosts), the ``wide`` columns of the whole square;
        then a count of ten or more shortens to ``⁺`` (``R⁺B²``), then the ghosts go, so that
        what is drawn is never a count cut in two."""
        def text(shorten: bool, ghosts: bool) -> Text:
            out = Text()
            for letter, count, style in pieces:
                if letter.islower() and not ghosts:
                    continue
                out.append(letter + "⁺" if shorten and count >= 10 else count_text(letter, count), style=style)
            return out

        for shorten, ghosts in ((False, True), (True, True), (True, False)):
            candidate = text(shorten, ghosts)
            if candidate.cell_len <= room:
                return candidate, room
            if candidate.cell_len <= wide:
                return candidate, wide
        return text(True, False), wide

    def number_rows_reach(self, square: int) -> bool:
        """True if the number rows above and below the ring name ``square`` (it is in the ring's
        top or bottom row)."""
        return self.cells[square][1] in (0, self.shape[1] - 1)

    def die_lines(self) -> list[Text]:
        state = self.state
        rolling_face = self.rolling_face
        rolling = rolling_face is not None
        face = rolling_face or (state.roll if state.to_move != CHANCE and not self.ended(state) else None)
        if face is None and isinstance(state.last_move, LudoEvent) and state.last_move.roll:
            face = state.last_move.roll
        style = self.style("die")
        if state.to_move != CHANCE and not self.ended(state):
            style = style + self.side_rich(state.turn)
        elif not rolling:
            style = self.style("label")
        lines = [Text("╭─────╮", style=style)]
        pips = PIPS.get(face, ("     ", "  ?  ", "     "))
        for row in pips:
            lines.append(Text(f"│{row}│", style=style))
        lines.append(Text("╰─────╯", style=style))
        return lines

    def info_lines(self) -> list[Text]:
        state = self.state
        lines = []
        die = self.die_lines()
        captions = ["", "", "", "", ""]
        if state.to_move != CHANCE and not self.ended(state):
            captions[1] = f" roll {state.roll}"
        elif state.last_move is not None and not self.ended(state):
            captions[1] = " last roll"
        moves = self.moves()
        if moves and (state.turn, 0, 0) in moves:
            captions[3] = " e: enter"
        for d, caption in zip(die, captions):
            line = d.copy()
            line.append(caption, style=self.style("label"))
            lines.append(line)
        lines.extend(self.pen_text(side) for side in (0, 1))
        best = self.recommended(state) if self.analysis else None
        if best is not None:  # the analysis's move, on the board
            line = Text("★ expectimax: ", style="bold")
            line.append(self.game.move_label(state, best), style="bold")
            lines.append(line)
        last = state.last_move
        if last is not None:
            lines.append(self.last_text(last))
        lines.append(Text("⌂ home ◇ safe square", style=self.style("label")))
        lines.append(Text("∘ just left · " + ("R⁺ = 10 or more" if self.shortened else "R² = 2 Red"),
                          style=self.style("label")))
        return lines

    def pen_text(self, side: int, short: bool = False) -> Text:
        """``side``'s counters in its pen and home: ``R pen 4  home 0/4``, or ``R pen4 ⌂0/4``."""
        state = self.state
        line = Text()
        line.append(f"{LETTERS[side]} ", style=self.side_rich(side))
        pen, home = state.pens[side], state.home_count(side)
        if short:
            line.append(f"pen{pen} ⌂{home}/{state.counters}")
        else:
            line.append(f"pen {pen:<2} home {home}/{state.counters}")
        return line

    def last_text(self, last: LudoEvent) -> Text:
        text = Text()
        text.append("last ", style=self.style("label"))
        text.append(LETTERS[last.side], style=self.side_rich(last.side))
        if last.passed:
            text.append(f" passed ({last.roll})")
        elif last.entered:
            text.append(" entered")
        elif last.home:
            text.append(f" {last.source}→home ⌂")
        else:
            text.append(f" {last.source}→{last.target}")
            if last.cut:
                text.append(f" ✂{last.cut}", style="bold")
        return text

    # -- input ----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("cycle", "play"):
            return bool(self.moves())
        if action == "enter":
            return bool(self.moves()) and (self.state.turn, 0, 0) in self.moves()
        return True

    def action_cycle(self, delta: int) -> None:
        moves = self.moves()
        if moves:
            self.chosen = (self.chosen + delta) % len(moves)
            self.refresh()

    def action_play(self) -> None:
        move = self.chosen_move()
        if move is not None:
            self.pick(move)

    def action_enter(self) -> None:
        move = (self.state.turn, 0, 0)
        if move in self.moves():
            self.pick(move)
        elif self.human:
            self.notify("A counter leaves the pen only on a 6, with one in the pen.", title="Cannot enter",
                        severity="warning")

    def on_click(self, event: events.Click) -> None:
        moves = self.moves()
        if not moves:
            return
        ox, oy = self._origin
        col, row = (event.x - 1 - ox) // self.cell_w, (event.y - oy) // self.cell_h
        for square, cell in self.cells.items():
            if cell == (col, row):
                for move in moves:
                    if move[1] == square and move[2] > 0:
                        self.pick(move)
                        return
                if (self.state.turn, 0, 0) in moves and square == self.game.home_square(self.state.turn):
                    self.pick((self.state.turn, 0, 0))
                return
