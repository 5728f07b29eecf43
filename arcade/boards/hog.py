"""Hog's board: both scores as bars against the goal, the last roll's dice drawn as faces (a
Sow Sad 1 marked), the turn's points, Piggy Points and More Boar, and the dice chooser.

Keys (a human to move): ``0``-``9`` choose that many dice (``1`` then ``0`` quickly: ten),
``+``/``-`` (or ←/→) one more or fewer, Enter/space roll. ``c`` toggles the coach: the optimal
number of dice here and the exact probability of winning, from the solver's table. With the
analysis on (``a``), the board shows the optimal policy as a heat map over (your score,
opponent's score), a window around a cursor that arrows/hjkl move (shift: by 10, Home: back to
the position on the table), the cursor's cell explained below the map.
"""

from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from arcade.boards.base import SIDE_COLOURS, SIDE_STYLES, Board
from games import hog_solver
from games.base import CHANCE, Result
from games.hog import MAX_DICE, Hog, HogEvent, HogState, more_boar, piggy_points

DIE_GAP = 1
BIG_DIE = 11  # columns of a die on a big terminal (five lines tall)
BIG_HEIGHT = 16  # board lines from which the dice may be big and centred (never at 80×24: 12)
PIPS = {
    1: {(1, 1)},
    2: {(0, 2), (2, 0)},
    3: {(0, 2), (1, 1), (2, 0)},
    4: {(0, 0), (0, 2), (2, 0), (2, 2)},
    5: {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
    6: {(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)},
}
HEAT = (
    "#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
    "#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725",
)
"""Viridis, a colour-blind-safe sequential scale: 0 dice (dark) to 10 dice (yellow). A data
palette, fixed on purpose rather than theme colours: the map reads the same under every theme
and its steps stay evenly spaced in lightness. ``HEAT_INK`` gives each cell's digit its contrast
with the cell, not the theme."""
HEAT_INK = ("#ffffff",) * 6 + ("#000000",) * 5
"""The digit's colour on each ``HEAT`` cell: white on the dark half, black on the light half."""


def dice_digit(n: int) -> str:
    """One character for a number of dice: 0-9, and X for ten."""
    return "X" if n == 10 else str(n)


def die_lines(face: int | None, width: int, sad_style: Style, face_style: Style) -> list[Text]:
    """A die as three rows of ``width`` (3, 5 or 7) cells, or five rows of ``BIG_DIE`` (a big
    terminal); ``face`` None is a die still rolling.

    A 1 (Sow Sad) is drawn in the Sow Sad style with ``SAD`` written on it (not colour alone).
    """
    big = width >= BIG_DIE
    step = 4 if big else 2 if width >= 5 else 1
    pad = (width - 2 * step - 1) // 2
    rows = []
    for line in range(5 if big else 3):
        r = line // 2 if big else line
        if big and line % 2:  # the rows between the pips' rows
            rows.append(Text(" " * width, style=sad_style if face == 1 else face_style))
            continue
        cells = [" "] * width
        for c in range(3):
            if face is None:
                glyph = "?" if (r, c) == (1, 1) else " "
            else:
                glyph = "●" if (r, c) in PIPS[face] else " "
            cells[pad + c * step] = glyph
        rows.append(Text("".join(cells), style=sad_style if face == 1 else face_style))
    if face == 1:
        label = "SAD" if width >= 3 else "1"
        rows[-1] = Text(label.center(width), style=sad_style)
    return rows


class HogBoard(Board):
    """Scores against the goal, the last roll, the chooser; or the policy heat map."""

    MIN_WIDTH = 80
    MIN_HEIGHT = 24

    COMPONENT_PREFIX = "hog"
    COMPONENT_CLASSES = {"hog--empty", "hog--label", "hog--die", "hog--rolling", "hog--sad", "hog--extra", "hog--key", "hog--good"}

    BINDINGS = [
        *(Binding(str(d), f"digit({d})", f"{d} dice", show=False) for d in range(10)),
        Binding("plus,equals_sign", "more(1)", "+ die", show=False),
        Binding("minus,underscore", "more(-1)", "- die", show=False),
        Binding("enter,space", "roll", "Roll"),
        Binding("c", "coach", "Coach"),
        Binding("left,h", "arrow(0,-1)", "Fewer / ←", show=False),
        Binding("right,l", "arrow(0,1)", "More / →", show=False),
        Binding("up,k", "arrow(-1,0)", "Up", show=False),
        Binding("down,j", "arrow(1,0)", "Down", show=False),
        Binding("shift+left,H", "arrow(0,-10)", "←10", show=False),
        Binding("shift+right,L", "arrow(0,10)", "→10", show=False),
        Binding("shift+up,K", "arrow(-10,0)", "↑10", show=False),
        Binding("shift+down,J", "arrow(10,0)", "↓10", show=False),
        Binding("home", "recentre", "Recentre", show=False),
    ]

    coach: reactive[bool] = reactive(False)

    game: Hog
    state: HogState

    def __init__(self, game: Hog, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.chosen = 5
        self.last_digit: tuple[int, float] | None = None
        self.cursor: tuple[int, int] | None = None  # (own score, opponent score) on the heat map
        self.table: hog_solver.OptimalTable | None = None
        # where the last render put things, for mouse clicks
        self.map_geometry: tuple[int, int, int, int, int, int] | None = None  # top, left, row0, col0, rows, cols
        self.chooser: Text | None = None
        self.chooser_y: int | None = None
        self.last_turns: dict[int, HogEvent] = {}
        """Each player's last finished turn, so a human's roll stays on the board (as a line)
        after the bot's turn replaces the dice."""

    # -- the table, built once in a thread ------------------------------------------------------
    class TableReady(Message):
        """The optimal strategy's table, built in the board's worker."""

        def __init__(self, table: hog_solver.OptimalTable) -> None:
            super().__init__()
            self.table = table

    def on_mount(self) -> None:
        self.run_worker(self._build_table, thread=True, group="hog-table", exit_on_error=False)

    def _build_table(self) -> None:
        self.post_message(self.TableReady(hog_solver.solve(self.game.goal)))

    def on_hog_board_table_ready(self, message: TableReady) -> None:
        message.stop()
        self.table = message.table
        self.refresh(layout=True)
        self.panel_changed()

    # -- state ------------------------------------------------------------------------------------
    def show(self, state: HogState, human: bool, result: Result | None = None) -> None:
        if state.ply == 0 or state.ply < self.state.ply:  # a new game, or an undo
            self.last_turns = {}
        event = state.event
        if isinstance(event, HogEvent) and event.turn_over:
            self.last_turns[event.player] = event
        super().show(state, human, result)
        if self.cursor is None or not self.analysis:
            self.cursor = self.position()
        self.refresh_bindings()

    def position(self) -> tuple[int, int]:
        """The position on the table from the mover's side: (mover's score, opponent's score)."""
        state = self.state
        goal = self.game.goal
        mover = state.player
        s, o = state.scores[mover], state.scores[1 - mover]
        return min(s, goal - 1), min(o, goal - 1)

    def watch_analysis(self, value: bool) -> None:
        if value:
            self.cursor = self.position()
        self.refresh(layout=True)
        self.refresh_bindings()

    def watch_coach(self, value: bool) -> None:
        self.refresh(layout=True)

    # -- drawing ----------------------------------------------------------------------------------
    def render(self) -> Text:
        width = max(20, self.size.width or 46)
        height = max(6, self.size.height or 12)
        self.map_geometry = None
        self.chooser = None
        lines = self.analysis_view(width, height) if self.analysis else self.play_view(width, height)
        self.chooser_y = next((i for i, line in enumerate(lines) if line is self.chooser), None)
        out = Text(no_wrap=True, overflow="crop")
        for i, line in enumerate(lines[:height]):
            if i:
                out.append("\n")
            line.truncate(width, overflow="ellipsis")
            out.append_text(line)
        return out

    def play_view(self, width: int, height: int) -> list[Text]:
        top = [self.bar_line(side, width) for side in (0, 1)]
        head = self.headline(width)
        other = self.other_turn_line(width)
        bottom = self.bottom_lines(width)
        room = height - len(top) - len(head) - len(bottom) - len(other)
        dice_rows = self.dice_block(width, room)
        spare = room - len(dice_rows)
        lines = list(top)
        if spare > 0:
            lines.append(Text())
            spare -= 1
        lines += head + dice_rows + other
        if spare > 0 and bottom:
            lines.append(Text())
        return lines + bottom

    def turn_text(self, event: HogEvent) -> str:
        """A finished turn in a few words: ``3+4+5 = 12 points``, ``Sow Sad → 1 point``…"""
        if event.piggy:
            return f"no dice, Piggy Points +{event.points}"
        if event.sow_sad:
            return f"{'-'.join(map(str, event.dice))}: Sow Sad → 1 point"
        return f"{'+'.join(map(str, event.dice))} = {event.points} points"

    def other_turn_line(self, width: int) -> list[Text]:
        """The last turn of the player whose dice are not drawn (a human's roll stays in view)."""
        event = self.state.event
        drawn = event.player if isinstance(event, HogEvent) else None
        others = [p for p in (0, 1) if p != drawn and p in self.last_turns]
        if drawn is None or not others:
            return []
        player = others[0]
        turn = self.last_turns[player]
        labels = (f"{self.game.sides[player].name}'s last turn: ", "last turn: ")  # the colour says whose
        texts = [self.turn_text(turn)]
        if not turn.piggy:  # ten dice: their count, not a cut list; then the points alone
            texts.append(f"{turn.num_dice} dice, Sow Sad → 1 point" if turn.sow_sad
                         else f"{turn.num_dice} dice = {turn.points} points")
        texts.append(f"+{turn.points} ({'Sow Sad' if turn.sow_sad else 'Piggy' if turn.piggy else 'rolled'})")
        texts.append(f"+{turn.points}")
        label, text = next(((label, text) for label in labels for text in texts if len(label) + len(text) <= width),
                           (labels[1], texts[-1]))
        line = Text()
        line.append(label, style=SIDE_STYLES[player])
        line.append(text, style=self.style("label"))
        return [line]

    def bar_line(self, side: int, width: int) -> Text:
        state = self.state
        goal = self.game.goal
        info = self.game.sides[side]
        event = state.event
        turn = not self.ended(state) and state.player == side
        line = Text()
        line.append("▶ " if turn else "  ", style="bold")
        line.append(f"{info.name} ", style=SIDE_STYLES[side])
        marker = ""
        if isinstance(event, HogEvent) and event.turn_over and event.player == side:
            marker = f" ◀ +{event.points}"
        score = state.scores[side]
        figures = f" {score:>3}/{goal}"
        bar_width = max(4, width - len(line.plain) - len(figures) - len(f" ◀ +{MAX_DICE * 6}"))
        filled = min(bar_width, round(bar_width * score / goal))
        line.append("█" * filled, style=SIDE_COLOURS[side])
        line.append("░" * (bar_width - filled), style=self.style("empty"))
        line.append(figures, style="bold")
        line.append(marker, style="bold")
        return line

    def headline(self, width: int) -> list[Text]:
        """What the last turn did (one line; a second for More Boar if it does not fit)."""
        state = self.state
        event = state.event
        goal = self.game.goal
        if event is None:
            return [Text(f"First to {goal} wins. {self.game.sides[state.player].name} rolls first.", style="bold")]
        if not isinstance(event, HogEvent):
            return []
        name = self.game.sides[event.player].name
        if event.rolling:
            noun = "die" if event.num_dice == 1 else "dice"
            return [Text(f"{name} rolls {event.num_dice} {noun}…", style="bold")]
        line = Text(style="bold")
        if event.piggy:
            line.append(f"{name}: no dice, Piggy Points +{event.points}")
        elif event.sow_sad:
            ones = event.dice.count(1)
            line.append(f"{name}: Sow Sad! {'a 1' if ones == 1 else f'{ones} ones'} → 1 point")
        else:
            line.append(f"{name}: {'+'.join(map(str, event.dice))} = {event.points} points")
        if not event.more_boar:
            return [line]
        extra = Text("More Boar: extra turn!", style=self.style("extra"))
        if len(line.plain) + 3 + len(extra.plain) <= width:
            line.append(" · ")
            line.append_text(extra)
            return [line]
        return [line, Text("★ ") + extra]

    def faces(self) -> list[int | None] | None:
        """The dice to draw: the last roll's faces, unknown faces while rolling, or None."""
        state = self.state
        event = state.event
        if state.to_move == CHANCE:
            return [None] * state.num_dice
        if isinstance(event, HogEvent) and event.turn_over and not event.piggy:
            return list(event.dice)
        return None

    def dice_block(self, width: int, room: int) -> list[Text]:
        """The dice as faces: the widest dice that fit in one row, else rows, else one compact line."""
        state = self.state
        event = state.event
        faces = self.faces()
        if faces is None:
            if isinstance(event, HogEvent) and event.piggy:
                opponent = event.scores[1 - event.player]
                tens, ones = (opponent // 10) % 10, opponent % 10
                return [
                    Text(f"No dice. Piggy Points: 4 + |{tens} − {ones}| = {event.points}", style=self.style("label")),
                    Text(f"(from the opponent's score, {opponent})", style=self.style("label")),
                ][: max(1, room)]
            return []
        count = len(faces)
        layout = None
        big = (self.size.height or 0) >= BIG_HEIGHT
        if big:  # big dice, in as few rows as fit, the rows balanced (ten: two rows of five)
            fits = max(1, (width + DIE_GAP + 1) // (BIG_DIE + DIE_GAP + 1))
            rows = -(-count // fits)
            if rows * 6 - 1 <= room:
                layout = (BIG_DIE, -(-count // rows))
        for die_width in (7, 5, 3):
            if layout is None and count * (die_width + DIE_GAP) - DIE_GAP <= width:
                layout = (die_width, count)
                break
        if layout is None:
            per_row = max(1, (width + DIE_GAP) // (3 + DIE_GAP))
            layout = (3, per_row)
        die_width, per_row = layout
        tall = 5 if die_width >= BIG_DIE else 3
        gap = DIE_GAP + (tall == 5)  # big dice: two columns apart, and centred
        rows = -(-count // per_row)
        if rows * (tall + 1) - 1 > room:
            return self.compact_dice()
        margin = " " * ((width - (min(count, per_row) * (die_width + gap) - gap)) // 2 if tall == 5 else 0)
        die, sad, rolling = self.style("die"), self.style("sad"), self.style("rolling")
        lines: list[Text] = []
        for r in range(rows):
            if r:
                lines.append(Text())
            pictures = [die_lines(face, die_width, sad, rolling if face is None else die) for face in faces[r * per_row : (r + 1) * per_row]]
            for level in range(tall):
                line = Text(margin)
                for picture in pictures:
                    line.append_text(picture[level])
                    line.append(" " * gap)
                lines.append(line)
        return lines

    def compact_dice(self) -> list[Text]:
        faces = self.faces() or []
        line = Text()
        for face in faces:
            if face == 1:
                line.append(" 1✗", style=self.style("sad"))
            else:
                line.append(f" {'?' if face is None else face} ", style=self.style("die"))
            line.append(" ")
        return [line]

    def bottom_lines(self, width: int) -> list[Text]:
        state = self.state
        lines: list[Text] = []
        if self.ended(state):
            return lines
        name = self.game.sides[state.player].name
        if state.to_move == CHANCE:
            return lines
        if self.human:
            chooser = Text("Dice ")
            chooser.append(" − ", style=self.style("label"))
            chooser.append(f" {self.chosen} ", style=self.style("key"))
            chooser.append(" + ", style=self.style("label"))
            chooser.append("  0-9 +/- choose · Enter roll", style=self.style("label"))
            self.chooser = chooser
            lines.append(chooser)
            lines.append(self.preview_line())
        elif not self.replaying:
            lines.append(Text(f"{name} is choosing…", style="italic"))
        if self.coach:
            lines.append(self.coach_line())
        return lines

    def preview_line(self) -> Text:
        """What rolling 0 would score now, and whether it would trigger More Boar."""
        state = self.state
        mover = state.player
        s, o = state.scores[mover], state.scores[1 - mover]
        points = piggy_points(o)
        line = Text("Roll 0: ", style=self.style("label"))
        line.append(f"+{points} → {s + points}")
        if s + points >= self.game.goal:
            line.append(" · reaches the goal: wins!", style=self.style("good"))
        elif more_boar(s + points, o):
            line.append(" · More Boar: extra turn!", style=self.style("extra"))
        else:
            line.append(" · no extra turn", style=self.style("label"))
        return line

    def coach_line(self) -> Text:
        line = Text("Coach: ", style="bold")
        table = self.table
        if table is None:
            line.append("working out the odds…", style="italic")
            return line
        s, o = self.position()
        best = table.policy[s][o]
        line.append(f"{best} {'die' if best == 1 else 'dice'}", style=self.style("good"))
        line.append(f" · wins {table.win[s][o]:.1%}")
        if self.human and self.chosen != best:
            line.append(f" ({self.chosen}: {table.values[s][o][self.chosen]:.1%})", style=self.style("label"))
        return line

    # -- the analysis view: the optimal policy as a heat map ---------------------------------------
    def analysis_view(self, width: int, height: int) -> list[Text]:
        state = self.state
        goal = self.game.goal
        lines = [self.score_summary()]
        table = self.table
        if table is None:
            lines.append(Text("Solving the game exactly…", style="italic"))
            return lines
        bottom = []
        if self.human and not self.ended(state) and state.to_move != CHANCE:
            chooser = Text("Dice ")
            chooser.append(" − ", style=self.style("label"))
            chooser.append(f" {self.chosen} ", style=self.style("key"))
            chooser.append(" + ", style=self.style("label"))
            chooser.append("  Enter roll · arrows: cursor", style=self.style("label"))
            self.chooser = chooser
            bottom.append(chooser)
        explain = self.explain_cursor(table, width)
        rows = max(3, height - 2 - len(explain) - len(bottom))
        cols = max(10, width - 4)
        cs, co = self.cursor or self.position()
        first_row = max(0, min(goal - rows, cs - rows // 2))
        first_col = max(0, min(goal - cols, co - cols // 2))
        row_span = range(first_row, min(goal, first_row + rows))
        col_span = range(first_col, min(goal, first_col + cols))
        header = Text("you\\", style=self.style("label"))
        ticks = [" "] * len(col_span)
        marker = co - first_col
        if 0 <= marker < len(ticks):
            ticks[marker] = "▼"
        for i, o in enumerate(col_span):
            if o % 10 == 0:
                label = str(o)
                # the cursor's ▼ never overwrites a label: the label moves just past it
                for start in (i, marker + 1):
                    cells = range(start, start + len(label))
                    if start >= i and all(k < len(ticks) and ticks[k] == " " for k in cells):
                        for k, ch in zip(cells, label):
                            ticks[k] = ch
                        break
        header.append("".join(ticks), style=self.style("label"))
        lines.append(header)
        self.map_geometry = (len(lines), 4, first_row, first_col, len(row_span), len(col_span))
        here = self.position()
        for s in row_span:
            line = Text()
            line.append(f"{s:>3}", style=self.style("label"))
            line.append("▶" if s == cs else " ", style="bold")
            for o in col_span:
                n = table.policy[s][o]
                style = Style(bgcolor=HEAT[n], color=HEAT_INK[n])
                glyph = dice_digit(n)
                if (s, o) == (cs, co):
                    style += Style(reverse=True, bold=True, underline=True)
                elif (s, o) == here:
                    glyph = "◆"
                line.append(glyph, style=style)
            lines.append(line)
        return lines + explain + bottom

    def score_summary(self) -> Text:
        state = self.state
        line = Text()
        for side in (0, 1):
            turn = not self.ended(state) and state.player == side
            line.append("▶ " if turn else "  ", style="bold")
            # "Player 0: 1", never "Player 0 1": the score apart from a name ending in a digit
            line.append(f"{self.game.sides[side].name}: {state.scores[side]}", style=SIDE_STYLES[side])
            line.append("  ")
        line.append(f"goal {self.game.goal}", style=self.style("label"))
        return line

    def explain_cursor(self, table: hog_solver.OptimalTable, width: int) -> list[Text]:
        s, o = self.cursor or self.position()
        best = table.policy[s][o]
        values = table.values[s][o]
        first = Text()
        first.append(f"{s} v {o}: ", style="bold")
        first.append(f"{best} {'die' if best == 1 else 'dice'}", style=self.style("good"))
        first.append(f", wins {table.win[s][o]:.2%}")
        runner = max((n for n in range(MAX_DICE + 1) if n != best), key=lambda n: values[n])
        first.append(f" · {runner}: {values[runner]:.2%}", style=self.style("label"))
        points = piggy_points(o)
        second = Text(f"0 dice: +{points} → {s + points}", style=self.style("label"))
        if s + points >= self.game.goal:
            second.append(", wins", style=self.style("good"))
        elif more_boar(s + points, o):
            second.append(", More Boar", style=self.style("extra"))
        second.append(f" ({values[0]:.2%})", style=self.style("label"))
        if len(second.plain) + 13 <= width:
            second.append(" · shift: ±10", style=self.style("label"))
        return [first, second]

    def analysis_lines(self, state: HogState) -> list[str]:
        table = self.table
        if self.ended(state):
            return []
        if table is None:
            return ["[i]Solving the game exactly…[/i]"]
        s, o = self.position()
        name = self.game.sides[state.player].name
        best = table.policy[s][o]
        return [
            f"[b]Coach[/b]: {name} rolls {best}",
            f"wins {table.win[s][o]:.2%} (exact)",
            "[dim]map: you ↓ · opponent →[/dim]",
            "[dim]digit: best dice, X = 10[/dim]",
        ]

    # -- input ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Dice keys only while a human chooses; the map's cursor keys only with the analysis on."""
        if action in ("digit", "more", "roll"):
            return True if self.can_choose() else False
        if action in ("arrow", "recentre"):
            return True if (self.analysis or self.can_choose()) else False
        return True

    def can_choose(self) -> bool:
        return self.human and not self.ended(self.state) and self.state.to_move != CHANCE

    def action_digit(self, digit: int) -> None:
        now = time.monotonic()
        if digit == 0 and self.last_digit is not None and self.last_digit[0] == 1 and now - self.last_digit[1] < 1.0:
            self.chosen = 10  # typed "10"
            self.last_digit = None
        else:
            self.chosen = digit
            self.last_digit = (digit, now)
        self.refresh(layout=True)

    def action_more(self, delta: int) -> None:
        self.chosen = max(0, min(MAX_DICE, self.chosen + delta))
        self.last_digit = None
        self.refresh(layout=True)

    def action_roll(self) -> None:
        if not self.can_choose():
            self.app.bell()
            return
        self.pick(self.chosen)

    def action_coach(self) -> None:
        self.coach = not self.coach
        if self.coach and self.table is None:
            self.notify("Working out the exact odds…", timeout=2)

    def action_arrow(self, rows: int, cols: int) -> None:
        if not self.analysis:
            if rows == 0:
                self.action_more(1 if cols > 0 else -1)
            return
        goal = self.game.goal
        s, o = self.cursor or self.position()
        self.cursor = (max(0, min(goal - 1, s + rows)), max(0, min(goal - 1, o + cols)))
        self.refresh(layout=True)

    def on_click(self, event) -> None:
        """A click on the map moves its cursor there; on the chooser, − and + change the dice and
        the number rolls them."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x, y = offset.x, offset.y
        if self.analysis and self.map_geometry is not None:
            top, left, row0, col0, rows, cols = self.map_geometry
            if 0 <= y - top < rows and 0 <= x - left < cols:
                self.cursor = (row0 + y - top, col0 + x - left)
                self.refresh(layout=True)
                return
        if self.chooser_y is not None and y == self.chooser_y and self.can_choose():
            number = len(f" {self.chosen} ")
            if 5 <= x < 8:
                self.action_more(-1)
            elif 8 <= x < 8 + number:
                self.action_roll()
            elif 8 + number <= x < 11 + number:
                self.action_more(1)

    def action_recentre(self) -> None:
        self.cursor = self.position()
        self.refresh(layout=True)
