"""Toothpick Takeaway's board: the toothpicks as sticks, the last take faint, the turn tree.

Keys: ``1``/``2`` (up to the largest take) take that many; ←/→ choose a take and Enter/space
takes it; a click on one of the last sticks takes from there to the end. With the analysis on,
the notebook's turn tree of the position (scroll with PgUp/PgDn or the wheel) and the counts that
win for the side to move.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from arcade.boards.base import SIDE_COLOURS, Board, Drawing
from games.base import Result
from games.toothpicks import TakeState, Toothpicks, is_winning, position_tree, winning_take

STICK_WIDTH = 3  # columns per stick: the stick and two spaces
BIG_HEIGHT = 16  # board lines from which the sticks may grow to TALL_STICK lines and the drawing
TALL_STICK = 8  # is centred (never at 80×24: 12 lines)


class Sticks(Drawing):
    """The sticks themselves; a click takes from the clicked stick to the end."""


class ToothpickBoard(Board):
    """The toothpicks on the table."""

    MIN_WIDTH = 60
    MIN_HEIGHT = 18

    COMPONENT_PREFIX = "toothpicks"
    COMPONENT_CLASSES = {
        "toothpicks--stick",
        "toothpicks--chosen",
        "toothpicks--taken",
        "toothpicks--label",
        "toothpicks--key",
    }

    BINDINGS = [
        Binding("1", "take(1)", "Take 1"),
        Binding("2", "take(2)", "Take 2"),
        *(Binding(str(k), f"take({k})", f"Take {k}", show=False) for k in range(3, 10)),
        Binding("left", "choose(1)", "More", show=False),
        Binding("right", "choose(-1)", "Fewer", show=False),
        Binding("enter,space", "take_chosen", "Take", show=False),
        Binding("pageup", "scroll_tree(-1)", "Tree up", show=False),
        Binding("pagedown", "scroll_tree(1)", "Tree down", show=False),
    ]

    game: Toothpicks
    state: TakeState

    def __init__(self, game: Toothpicks, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.chosen = 1
        self.stick_rows: list[int] = []  # the y of each row of sticks, for clicks
        self.stick_height = 4
        self.stick_width = STICK_WIDTH
        self.left = 0  # columns before the first stick (the drawing centred on a big terminal)

    def compose(self) -> ComposeResult:
        yield Sticks(id="sticks")
        with VerticalScroll(id="tree"):
            yield Static(id="tree-text")

    # -- drawing ------------------------------------------------------------------------------
    def show(self, state: TakeState, human: bool, result: Result | None = None) -> None:
        super().show(state, human, result)
        self.chosen = max(1, min(self.chosen, min(self.game.max_take, state.left)))
        self.redraw()
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.redraw()

    def watch_analysis(self, value: bool) -> None:
        self.set_class(value, "analysis")
        self.redraw()

    def per_row(self, stick_width: int | None = None) -> int:
        width = self.size.width or 60
        return max(1, width // (stick_width or self.stick_width))

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#sticks", Sticks).update(self.render_sticks())
        if self.analysis:
            self.query_one("#tree-text", Static).update(self.render_tree())

    def labelled_rows(self, per_row: int) -> set[int]:
        """The rows of sticks that need a label row: take numbers and the just-taken marks."""
        state = self.state
        event = state.event
        just_taken = event.taken if event is not None else 0
        takes = self.human and not self.ended(state)
        first = state.left - (min(self.game.max_take, state.left) if takes else 0)
        last = state.left + just_taken  # exclusive
        return {i // per_row for i in range(first, last)}

    def fit(self, height: int) -> tuple[int, int, bool]:
        """The largest drawing that fits ``height`` lines: (columns a stick, lines a stick, a gap
        between rows). Sticks shorten, then narrow to two columns, then lose the gaps between
        rows (drawn half-height instead) before anything is cut; ``min_size`` asks for the rest."""
        shown = self.state.left + (self.state.event.taken if self.state.event is not None else 0)
        for gap in (True, False):
            for stick_width in (STICK_WIDTH, 2):
                per_row = self.per_row(stick_width)
                rows = max(1, -(-shown // per_row))
                labels = self.labelled_rows(per_row)
                # a label row doubles as the gap below its row of sticks
                spacers = sum(1 for row in range(rows - 1) if row not in labels) if gap else 0
                tallest = min(4, max(1, 10 // rows - 1))
                if height >= BIG_HEIGHT:  # a big terminal: taller sticks, while every line fits
                    tallest = max(tallest, min(TALL_STICK, (height - 4) // rows - 1))
                for stick_height in ((1,) if self.analysis else range(tallest, 0, -1)):
                    lines = 1 + rows * stick_height + len(labels) + spacers + (0 if self.analysis else 1)
                    if lines <= height:
                        return stick_width, stick_height, gap
        return 2, 1, False

    def min_size(self) -> tuple[int, int]:
        """Wide enough for the side panel and a row of sticks; tall enough for every stick at the
        terminal's width (the screen around the board takes 13 lines, the result banner's too)."""
        width = max(self.MIN_WIDTH, self.app.size.width if self.is_attached else 80)
        return self.MIN_WIDTH, max(self.MIN_HEIGHT, 13 + self.lines_needed(width - 34))

    def lines_needed(self, width: int) -> int:
        """Lines the sticks need at their most compact in ``width`` columns (for ``min_size``):
        the worst position, every row with a label row."""
        rows = -(-self.game.count // max(1, width // 2))
        labels = min(rows, 1 + -(-2 * self.game.max_take // max(1, width // 2)))
        return 1 + rows + labels + 1

    def render_sticks(self) -> Text:
        state = self.state
        event = state.event
        just_taken = event.taken if event is not None else 0
        shown = state.left + just_taken
        self.stick_width, self.stick_height, gap = self.fit(self.size.height or 12)
        per_row = self.per_row()
        rows = max(1, -(-shown // per_row))
        labelled = self.labelled_rows(per_row)
        pad = " " * (self.stick_width - 2)
        takes = self.human and not self.ended(state)
        chosen_from = state.left - self.chosen if takes else state.left
        # a big terminal: the drawing centred (the sticks, with the lines above and below them)
        height = self.size.height or 12
        big = height >= BIG_HEIGHT and not self.analysis
        self.left = lift = 0
        width = self.size.width or 0
        if big:
            self.left = max(0, (width - min(shown, per_row) * self.stick_width) // 2)
            lines = 2 + rows * self.stick_height + len(labelled) + (rows - 1 if gap else 0)
            lift = max(0, (height - lines) // 2)
        margin = " " * self.left
        text = Text()
        text.append("\n" * lift)
        text.append(self.beside_sticks(self.headline(), width) + "\n", style="bold")
        self.stick_rows = []
        line_no = 1 + lift
        for row in range(rows):
            first = row * per_row
            last = min(shown, first + per_row)
            self.stick_rows.append(line_no)
            for level in range(self.stick_height):
                text.append(margin)
                for i in range(first, last):
                    if i >= state.left:
                        glyph, style = "╎", self.style("taken") + Style(color=SIDE_COLOURS[event.side])
                    else:
                        if self.stick_height == 1:
                            glyph = "┃" if gap else "╻"  # half-height: rows stay apart without a gap
                        else:
                            glyph = "╻" if level == 0 else "╹" if level == self.stick_height - 1 else "┃"
                        style = self.style("chosen" if i >= chosen_from else "stick")
                    text.append(f" {glyph}{pad}", style=style)
                text.append("\n")
                line_no += 1
            if row not in labelled:
                if gap and row < rows - 1:
                    text.append("\n")
                    line_no += 1
                continue
            # the label row: take numbers under the sticks a human can take, "taken" marks
            text.append(margin)
            for i in range(first, last):
                if takes and state.left - i <= self.game.max_take and i < state.left:
                    text.append(f"{state.left - i:>2}{pad}", style=self.style("key"))
                elif i >= state.left:
                    text.append(f" ↑{pad}", style=self.style("taken"))
                else:
                    text.append(f"  {pad}")
            text.append("\n")
            line_no += 1
        if not self.analysis:
            text.append(self.beside_sticks(self.footline(), width), style=self.style("label"))
        return text

    def beside_sticks(self, line: str, width: int) -> str:
        """``line`` starting where the sticks start, or as near as it fits."""
        return " " * max(0, min(self.left, width - len(line))) + line

    def headline(self) -> str:
        state = self.state
        left = state.left
        noun = "toothpick" if left == 1 else "toothpicks"
        return f"{left} {noun} left of {state.start}"

    def footline(self) -> str:
        state = self.state
        event = state.event
        width = self.size.width or 80
        long, short = [], []
        if event is not None:
            who = self.game.sides[event.side].name
            long.append(f"↑ faint: the {event.taken} just taken by {who}")
            short.append(f"↑ {event.taken} taken by {who}")
        if self.human and not self.ended(state):
            most = min(self.game.max_take, state.left)
            keys = "1" if most == 1 else f"1–{most}"
            long.append(f"{keys} take · ←→ Enter choose and take")
            short.append(f"{keys} ←→ Enter take")
        for line in ("  ·  ".join(long), " · ".join(short)):
            if len(line) <= width:
                return line
        return short[0] if short else ""

    def render_tree(self) -> Text:
        state = self.state
        text = Text()
        if self.ended(state):
            text.append("The game is over: no turns left.", style=self.style("label"))
            return text
        mover = state.to_move + 1
        lines, cut = position_tree(state.left, mover, self.game.max_take)
        text.append(f"Turn tree: P{mover} to move from {state.left} · P[player]-[taken]: ([left])\n", style="bold")
        text.append(self.winning_counts_line() + "\n", style=self.style("label"))
        for line in lines:
            text.append(line + "\n")
        if cut:
            text.append(f"… the tree goes on: only its first {len(lines)} lines are shown\n", style="italic")
        return text

    def winning_counts_line(self) -> str:
        top = min(self.state.start, 30)
        wins = [str(n) for n in range(1, top + 1) if is_winning(n, self.game.max_take)]
        losses = [str(n) for n in range(1, top + 1) if not is_winning(n, self.game.max_take)]
        more = " …" if self.state.start > top else ""
        return f"To move and win: {' '.join(wins)}{more} · to move and lose: {' '.join(losses)}{more}"

    def analysis_lines(self, state: TakeState) -> list[str]:
        if self.ended(state):
            return []
        name = self.game.sides[state.to_move].name
        take = winning_take(state.left, self.game.max_take)
        if take is None:
            step = self.game.max_take + 1
            return [f"[b]{name}[/b] is losing: {state.left} is a multiple of {step}; any take lets the other side win"]
        if take == state.left:
            return [f"[b]{name}[/b] is winning: take {take}, the last toothpick{'s' if take > 1 else ''}"]
        return [f"[b]{name}[/b] is winning: take {take}, leaving {state.left - take} (a multiple of {self.game.max_take + 1})"]

    # -- input ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("take", "take_chosen", "choose"):
            # a digit over the largest take stays live when it is the human's turn: it says why
            # it takes nothing (its key is not in the Footer, which shows 1 and 2 only)
            return True if self.human and not self.ended(self.state) else False
        return True

    def action_take(self, count: int) -> None:
        if count > self.game.max_take:
            self.notify(f"The largest take in this game is {self.game.max_take}: press 1 to "
                        f"{min(self.game.max_take, self.state.left)}.", title="Not a legal take", severity="warning")
            return
        if self.human and count not in self.game.legal_moves(self.state):
            self.notify(
                f"You can take 1 to {min(self.game.max_take, self.state.left)} here.",
                title="Not a legal take",
                severity="warning",
            )
            return
        self.pick(count)

    def action_choose(self, delta: int) -> None:
        most = min(self.game.max_take, self.state.left)
        self.chosen = max(1, min(most, self.chosen + delta))
        self.redraw()

    def action_take_chosen(self) -> None:
        self.action_take(self.chosen)

    def action_scroll_tree(self, direction: int) -> None:
        tree = self.query_one("#tree", VerticalScroll)
        if direction < 0:
            tree.scroll_page_up()
        else:
            tree.scroll_page_down()

    def click_at(self, x: int, y: int) -> None:
        """A click on the sticks: take from the clicked stick to the end, if that is legal."""
        per_row = self.per_row()
        for row, top in enumerate(self.stick_rows):
            if top <= y <= top + self.stick_height:
                if x < self.left:
                    return
                index = row * per_row + (x - self.left) // self.stick_width
                take = self.state.left - index
                if 1 <= take <= self.game.max_take:
                    self.pick(take)
                return
