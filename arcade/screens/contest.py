"""The live board of a contest season (``arcade contest board DIR``, or ``c`` on the menu and a
contest's folder): the standings and the crosstable, a team's page (its submissions, its games with
their forfeit reasons, its log), any game opened in the replay screen; refreshing as games finish.

The screens never wait on the database: every second a worker thread asks it for its ``version``
(``arcade.contest.board``: a count and two ``stat``\\ s) and, when something changed, reads the
board and hands it to the screen, which only draws. What a submission wrote (a team's name, a
forfeit's reason, its log) is shown plain (``arcade.untrusted``).
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import ContentSwitcher, DataTable, Header, Input, RichLog, Static

from arcade.untrusted import plain
from arcade.widgets.footer import SteadyFooter

POLL = 1.0
"""Seconds between two looks at the database."""
NAME_WIDTH = 14
CROSS_WIDTH = 6
WIDTHS = {"rank": 4, "team": NAME_WIDTH + 1, "score": 7, "rating": 14, "vs_always_roll_6": 7, "computed": 5,
          "wins": 5, "draws": 5, "losses": 5, "games": 6, "forfeits": 4, "points": 7, "submitted": 13}
"""Each standings column's width on the board (``arcade.contest.boardmodel.Board.columns``)."""
GAME_COLUMNS = (("vs", NAME_WIDTH + 1), ("game", 5), ("first", 6), ("result", 18))
SUBMISSION_COLUMNS = (("submitted", 12), ("verdict", 9), ("files", 15))
"""A team page's tables before their reason's column, which takes the rest of the width
(``TeamScreen.reason_width``) and wraps a long reason over as many lines as it needs."""
REASON_WIDTH = 20
"""The narrowest a reason's column is made."""


def short_time(iso: str) -> str:
    """``2026-11-27T04:00:29+00:00`` as ``11-27 04:00``."""
    return iso[5:16].replace("T", " ")


class Polled(Screen):
    """A screen that reads something in a worker thread every ``POLL`` seconds and draws it when
    the contest's ``version`` changed (or at once, after ``refresh_now``)."""

    def __init__(self, folder: str | Path) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.seen: tuple | None = None
        self.reads = 0
        """How many times the data was read and drawn (tests wait on it)."""

    def on_mount(self) -> None:
        self.poll()
        self.set_interval(POLL, self.poll)

    def refresh_now(self) -> None:
        self.seen = None
        self.poll()

    @work(thread=True, exclusive=True, group="poll", exit_on_error=False)
    def poll(self) -> None:
        from arcade.contest.board import version
        from arcade.contest.config import ContestError

        try:
            now = version(self.folder)
            if now == self.seen:
                return
            data = self.read()
        except ContestError as exc:
            self.app.call_from_thread(self.problem, str(exc))
            return
        self.app.call_from_thread(self.draw_read, now, data)

    def draw_read(self, now: tuple, data) -> None:
        if not self.is_attached:
            return
        self.seen = now
        self.query_one(".c-summary", Static).remove_class("c-error")
        self.draw(data)
        self.reads += 1

    def read(self):  # pragma: no cover - each screen's own
        raise NotImplementedError

    def draw(self, data) -> None:  # pragma: no cover - each screen's own
        raise NotImplementedError

    def problem(self, message: str) -> None:
        if self.is_attached:
            summary = self.query_one(".c-summary", Static)
            summary.update(plain(message))
            summary.add_class("c-error")


class ContestScreen(Polled):
    """The board: standings (Enter: the team's page) or the crosstable (``x``)."""

    CSS_PATH = "contest.tcss"

    BINDINGS = [
        Binding("enter", "team", "Team", id="team", tooltip="The highlighted team's page"),
        Binding("x", "switch", "Crosstable", id="crosstable", tooltip="Standings or the crosstable"),
        Binding("r", "reread", "Refresh", id="refresh", tooltip="Read the database again now"),
        Binding("q", "back", "Back", id="back", tooltip="Leave the board"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, folder: str | Path, standalone: bool = False) -> None:
        super().__init__(folder)
        self.standalone = standalone
        """Opened alone (``arcade contest board DIR``): leaving it ends the app."""
        self.snapshot = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("reading the contest…", classes="c-summary")
        with ContentSwitcher(initial="c-standings"):
            yield DataTable(id="c-standings", cursor_type="row", zebra_stripes=True, cell_padding=0)
            yield DataTable(id="c-crosstable", cursor_type="row", zebra_stripes=True, cell_padding=0)
        with VerticalScroll(id="c-notes-box") as box:
            box.display = False  # Hog's exact scoring's (``fill_notes``): scrolls when it outgrows its rows
            yield Static("", id="c-notes")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "Contest board"
        self.sub_title = str(self.folder)
        standings = self.query_one("#c-standings", DataTable)
        standings.border_title = "Standings"
        crosstable = self.query_one("#c-crosstable", DataTable)
        crosstable.border_title = "Head to head"
        standings.focus()
        super().on_mount()

    def read(self):
        from arcade.contest.board import snapshot

        return snapshot(self.folder)

    def draw(self, snap) -> None:
        self.snapshot = snap
        self.query_one(".c-summary", Static).update(plain(snap.summary()))
        self.fill_standings(snap)
        self.fill_crosstable(snap)

    def fill_standings(self, snap) -> None:
        """The board's columns under the terminal's headings, each cell as the model writes it
        (``Snapshot.standings``); a ladder's score is its rating, ``μ ± σ``."""
        table = self.query_one("#c-standings", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        columns = snap.board.columns()
        right = [column.numeric and column.key != "rank" for column in columns]
        for column, justify in zip(columns, right):
            label = "  " + column.short if column.key == "submitted" else column.short
            table.add_column(Text(label, justify="right" if justify else "left"), width=WIDTHS[column.key])
        for row, cells in zip(snap.rows, snap.standings()):
            table.add_row(*(plain(cell, cap=80, no_wrap=True) if column.key == "team" else
                            Text("  " + cell if column.key == "submitted" else cell, justify="right" if justify else "left")
                            for column, justify, cell in zip(columns, right, cells)), key=row.team)
        table.border_subtitle = "Enter: a team's page · ff: games lost by forfeit"
        if snap.rows:
            table.move_cursor(row=min(keep, len(snap.rows) - 1), animate=False)
        self.fill_notes(snap)

    def fill_notes(self, snap) -> None:
        """Under the board, for Hog's exact scoring: what its numbers are, and each team scored by
        sampled games and why (a submission's words: plain); nothing (no room taken) otherwise."""
        notes = self.query_one("#c-notes", Static)
        lines = snap.board.notes("calc", "vs ar6")
        self.query_one("#c-notes-box").display = bool(lines)
        if lines:
            notes.update(plain("\n".join(lines), cap=4000, multiline=True))

    def fill_crosstable(self, snap) -> None:
        """Each row team's wins–draws–losses against each column team (``Snapshot.crosstable``,
        as the model writes them), the columns as wide as the widest cell."""
        table = self.query_one("#c-crosstable", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        table.add_column("#", width=4)
        table.add_column("team", width=NAME_WIDTH + 1)
        cells = snap.crosstable()
        width = max([CROSS_WIDTH] + [len(cell) + 1 for line in cells for cell in line])
        for index in range(1, len(snap.rows) + 1):
            table.add_column(Text(str(index), justify="right"), width=width)
        for i, (row, line) in enumerate(zip(snap.rows, cells), start=1):
            table.add_row(str(i), plain(row.team, cap=80, no_wrap=True),
                          *(Text(cell, justify="right") for cell in line), key=row.team)
        table.border_subtitle = ("W–D–L of the row's team against the column's · *: computed, not played"
                                 if snap.board.exact else "wins–draws–losses of the row's team against the column's")
        if snap.rows:
            table.move_cursor(row=min(keep, len(snap.rows) - 1), animate=False)

    def highlighted_team(self) -> str | None:
        switcher = self.query_one(ContentSwitcher)
        table = self.query_one(f"#{switcher.current}", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def action_team(self) -> None:
        team = self.highlighted_team()
        if team is None:
            self.app.bell()
            return
        self.app.push_screen(TeamScreen(self.folder, team))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_team()

    def action_switch(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "c-crosstable" if switcher.current == "c-standings" else "c-standings"
        self.query_one(f"#{switcher.current}", DataTable).focus()

    def action_reread(self) -> None:
        self.refresh_now()

    def action_back(self) -> None:
        if self.standalone:
            self.app.exit()
        else:
            self.dismiss()


class TeamScreen(Polled):
    """A team's page: its games (Enter: the game's replay), its submissions (``s``), its current
    submission's log (``l``)."""

    CSS_PATH = "contest.tcss"

    BINDINGS = [
        Binding("enter", "replay", "Replay", id="replay", tooltip="The highlighted game, move by move"),
        Binding("g", "show('t-games')", "Games", id="games", tooltip="The team's games"),
        Binding("s", "show('t-submissions')", "Submissions", id="submissions", tooltip="Every submission and its verdict"),
        Binding("l", "show('t-log')", "Log", id="log", tooltip="What its current submission printed"),
        Binding("q", "back", "Back", id="back", tooltip="Back to the board"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, folder: str | Path, team: str) -> None:
        super().__init__(folder)
        self.team = team
        self.page = None
        self.laid_out = 0
        """The screen's width the tables' columns were made for (``lay_out``)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("reading the team's page…", classes="c-summary")
        with ContentSwitcher(initial="t-games"):
            yield DataTable(id="t-games", cursor_type="row", zebra_stripes=True, cell_padding=0)
            yield DataTable(id="t-submissions", cursor_type="row", zebra_stripes=True, cell_padding=0)
            yield RichLog(id="t-log", wrap=False, markup=False, max_lines=2000)
        yield Static("", id="t-detail")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "Contest board"
        self.sub_title = self.team
        games = self.query_one("#t-games", DataTable)
        games.border_title = "Games"
        self.query_one("#t-submissions", DataTable).border_title = "Submissions"
        self.query_one("#t-log", RichLog).border_title = "Log"
        self.lay_out()
        games.focus()
        super().on_mount()

    def on_resize(self) -> None:
        self.lay_out()

    def reason_width(self, columns) -> int:
        """The reason's column: what the table's other columns leave of the screen's width (its
        border and scroll bar apart), ``REASON_WIDTH`` at least."""
        return max(REASON_WIDTH, self.size.width - 3 - sum(width for _label, width in columns))

    def lay_out(self) -> None:
        """The tables' columns for the screen's width, their rows again where it changed (a
        reason wraps to the width of its column)."""
        if self.size.width == self.laid_out:
            return
        self.laid_out = self.size.width
        for which, columns, reason in (("#t-games", GAME_COLUMNS, "why"),
                                       ("#t-submissions", SUBMISSION_COLUMNS, "reason")):
            table = self.query_one(which, DataTable)
            table.clear(columns=True)
            for label, width in (*columns, (reason, self.reason_width(columns))):
                table.add_column(label, width=width)
        if self.page is not None:
            self.fill_games(self.page)
            self.fill_submissions(self.page)

    def read(self):
        from arcade.contest.board import team_page

        return team_page(self.folder, self.team)

    def draw(self, page) -> None:
        self.page = page
        current = next((s for s in page.submissions if s.verdict == "accepted"), None)
        played = sum(g.current for g in page.games)
        said = (f"current submission {current.digest[:12]} of {short_time(current.submitted)} · {played} games"
                if current else "no accepted submission")
        if page.scoring:
            said += f" · {page.scoring}"
        self.query_one(".c-summary", Static).update(plain(f"{self.team} · {said} · {len(page.submissions)} submitted"))
        self.fill_games(page)
        self.fill_submissions(page)
        log = self.query_one("#t-log", RichLog)
        log.clear()
        log.border_subtitle = plain(page.log_path or "", cap=200)
        for line in page.log or ["(nothing logged yet on this machine)"]:
            log.write(plain(line, cap=2000))
        self.show_detail()

    def fill_games(self, page) -> None:
        """The team's games, a game's reason (a forfeit's, in the course's words) whole in its
        row, wrapped over the lines it needs."""
        table = self.query_one("#t-games", DataTable)
        keep = table.cursor_row
        table.clear()
        width = self.reason_width(GAME_COLUMNS)
        for index, game in enumerate(page.games):
            why = game.reason if game.forfeited or game.result != "won" else ""
            opponent = game.opponent if game.current else game.opponent + " (old)"
            reason, height = reason_cell(why, width)
            table.add_row(plain(opponent, cap=80, no_wrap=True), str(game.number), "yes" if game.first else "",
                          game.verdict(), reason, height=height, key=str(index))
        table.border_subtitle = "Enter: the game's replay · old: a submission since replaced"
        if page.games:
            table.move_cursor(row=min(keep, len(page.games) - 1), animate=False)

    def fill_submissions(self, page) -> None:
        """Every submission the team made, newest first, a rejection's reason whole in its row."""
        table = self.query_one("#t-submissions", DataTable)
        keep = table.cursor_row
        table.clear()
        width = self.reason_width(SUBMISSION_COLUMNS)
        for sub in page.submissions:
            reason, height = reason_cell(sub.reason, width)
            table.add_row(short_time(sub.submitted), sub.verdict, sub.digest[:12], reason, height=height)
        if page.submissions:
            table.move_cursor(row=min(keep, len(page.submissions) - 1), animate=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted game's or submission's whole reason, below the table (a cell cuts it)."""
        self.show_detail()

    def show_detail(self) -> None:
        detail = self.query_one("#t-detail", Static)
        which = self.query_one(ContentSwitcher).current
        table = self.query_one(f"#{which}") if which != "t-log" else None
        if self.page is None or not isinstance(table, DataTable) or not table.row_count:
            detail.update("")
            return
        if which == "t-games":
            game = self.page.games[min(table.cursor_row, len(self.page.games) - 1)]
            whose = "" if game.current else " (an earlier submission's)"
            detail.update(plain(f"game {game.number} against {game.opponent}{whose}, "
                                f"{'moving first' if game.first else 'moving second'}: {game.verdict()}"))
        else:
            sub = self.page.submissions[min(table.cursor_row, len(self.page.submissions) - 1)]
            detail.update(plain(f"{sub.submitted} · {sub.verdict} · {sub.digest}"))

    def action_show(self, which: str) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = which
        self.query_one(f"#{which}").focus()
        self.show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "t-games":
            self.action_replay()

    def action_replay(self) -> None:
        if self.page is None or not self.page.games or self.query_one(ContentSwitcher).current != "t-games":
            self.app.bell()
            return
        table = self.query_one("#t-games", DataTable)
        self.open_replay(self.page.games[table.cursor_row])

    @work(thread=True, exclusive=True, group="replay", exit_on_error=False)
    def open_replay(self, game) -> None:
        """The game's record read in a worker (a record of 100 games is checked line by line)."""
        from arcade.contest.board import replay_of
        from arcade.contest.config import ContestError
        from arcade.contest.db import Database

        try:
            with Database(self.folder) as db:
                teams = {s.digest: s.team for s in db.submissions() if s.verdict == "accepted"}
            replay = replay_of(self.folder, game.a, game.b, game.number, teams)
        except ContestError as exc:
            self.app.call_from_thread(self.notify, str(exc), title="Replay", severity="error")
            return
        self.app.call_from_thread(self.push_replay, replay)

    def push_replay(self, replay) -> None:
        from arcade.catalog import CATALOG
        from arcade.screens.replay import ReplayScreen

        self.app.push_screen(ReplayScreen(CATALOG[replay.game.id], replay.game, replay.players, replay.moves,
                                          replay.title))

    def action_back(self) -> None:
        self.dismiss()


def reason_cell(reason: str, width: int) -> tuple[Text, int | None]:
    """A reason as its table's last cell (plain: a submission's words, whole up to
    ``arcade.untrusted``'s cap) and the row's height: one line, or as many as the reason wraps
    to in ``width`` columns (``None``: ``DataTable.add_row`` measures it)."""
    text = plain(reason)
    return text, (1 if text.cell_len <= width else None)


class OpenContest(ModalScreen[str]):
    """The menu's ``c``: a contest's folder typed, checked (it holds a ``contest.toml``) before
    the board opens; a folder that holds none is said in one line."""

    CSS_PATH = "contest.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back", id="cancel", tooltip="Back to the menu")]

    def compose(self) -> ComposeResult:
        with Vertical(id="c-open"):
            yield Static("A contest's folder (where arcade contest new made it):")
            yield Input(self.start_folder(), placeholder="path/to/contest", id="c-folder")
            yield Static("Enter opens its board · Escape goes back", id="c-open-said")

    @staticmethod
    def start_folder() -> str:
        """The folder the arcade was started in, when it holds a contest."""
        return "." if Path("contest.toml").is_file() else ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from arcade.contest.config import ContestError, load

        folder = event.value.strip()
        try:
            if not folder:
                raise ContestError("type the contest's folder")
            load(folder)
        except ContestError as exc:
            said = self.query_one("#c-open-said", Static)
            said.update(plain(exc))
            said.add_class("c-error")
            return
        self.dismiss(folder)

    def action_cancel(self) -> None:
        self.dismiss("")
