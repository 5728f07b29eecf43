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
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import ContentSwitcher, DataTable, Header, Input, RichLog, Static

from arcade.untrusted import plain
from arcade.widgets.footer import SteadyFooter

POLL = 1.0
"""Seconds between two looks at the database."""
NAME_WIDTH = 14
CROSS_WIDTH = 5


def short_time(iso: str) -> str:
    """``2026-11-27T04:00:29+00:00`` as ``11-27 04:00``."""
    return iso[5:16].replace("T", " ")


def number(value: float) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


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
        notes = Static("", id="c-notes")
        notes.display = False  # Hog's exact scoring's (``fill_notes``)
        yield notes
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.title = "Contest board"
        self.sub_title = str(self.folder)
        standings = self.query_one("#c-standings", DataTable)
        standings.border_title = "Standings"
        crosstable = self.query_one("#c-crosstable", DataTable)
        crosstable.border_title = "Head to head"
        crosstable.border_subtitle = "wins of the row's team against the column's (of the games between them)"
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
        table = self.query_one("#c-standings", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        ladder = snap.config.format == "ladder"
        exact = snap.config.scoring == "exact"
        columns = [("#", 4, False), ("team", NAME_WIDTH + 1, False)]
        columns += [("rating ± σ", 14, True)] if ladder else [("score", 7, True)]
        columns += [("vs ar6", 7, True), ("calc", 5, True)] if exact else []
        columns += [("won", 5, True)] + ([] if exact else [("drew", 5, True)])  # Hog has no draws
        columns += [("lost", 5, True), ("games", 6, True), ("ff", 4, True), ("points", 7, True),
                    ("  submitted", 13, False)]
        for label, width, right in columns:
            table.add_column(Text(label, justify="right" if right else "left"), width=width)
        for row in snap.rows:
            value = f"{row.rating:.2f} ± {row.uncertainty:.2f}" if ladder else number(row.score)
            cells = [str(row.rank), plain(row.team, cap=80, no_wrap=True), value]
            if exact:
                vs = "—" if row.vs_always_roll_6 is None else f"{row.vs_always_roll_6:.4f}"
                cells += [vs if row.scored != "sampled" else "sampled", str(row.computed), str(row.wins)]
            else:
                cells += [str(row.wins), str(row.draws)]
            cells += [str(row.losses), str(row.games), str(row.forfeits), number(row.points),
                      "  " + short_time(row.submitted)]
            last = len(cells) - 1
            table.add_row(*(c if isinstance(c, Text) else Text(c, justify="left" if i in (0, last) else "right")
                            for i, c in enumerate(cells)), key=row.team)
        table.border_subtitle = "Enter: a team's page · ff: games lost by forfeit"
        if snap.rows:
            table.move_cursor(row=min(keep, len(snap.rows) - 1), animate=False)
        self.fill_notes(snap)

    def fill_notes(self, snap) -> None:
        """Under the board, for Hog's exact scoring: what its numbers are, and each team scored by
        sampled games and why (a submission's words: plain); nothing (no room taken) otherwise."""
        notes = self.query_one("#c-notes", Static)
        notes.display = snap.config.scoring == "exact"
        if not notes.display:
            return
        from arcade.contest.standings import legend

        lines = [legend(snap.config.games, "calc", "vs ar6")]
        lines += [f"{row.team}: scored by sampled games: {row.why}" for row in snap.rows if row.why]
        notes.update(plain("\n".join(lines), cap=4000, multiline=True))

    def fill_crosstable(self, snap) -> None:
        table = self.query_one("#c-crosstable", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        table.add_column("#", width=4)
        table.add_column("team", width=NAME_WIDTH + 1)
        for index in range(1, len(snap.rows) + 1):
            table.add_column(Text(str(index), justify="right"), width=CROSS_WIDTH)
        for i, row in enumerate(snap.rows, start=1):
            cells = [str(i), plain(row.team, cap=80, no_wrap=True)]
            for other in snap.rows:
                if other.digest == row.digest:
                    cells.append(Text("·", justify="right"))
                    continue
                wins, games = snap.crosstable.get((row.digest, other.digest), (0, 0))
                cells.append(Text(f"{wins}/{games}" if games else "", justify="right"))
            table.add_row(*cells, key=row.team)
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
        for label, width in (("vs", NAME_WIDTH + 1), ("game", 5), ("first", 6), ("result", 7), ("  why", 44)):
            games.add_column(label, width=width)
        submissions = self.query_one("#t-submissions", DataTable)
        submissions.border_title = "Submissions"
        for label, width in (("submitted", 12), ("verdict", 9), ("files", 13), ("  reason", 43)):
            submissions.add_column(label, width=width)
        self.query_one("#t-log", RichLog).border_title = "Log"
        games.focus()
        super().on_mount()

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
        table = self.query_one("#t-submissions", DataTable)
        table.clear()
        for sub in page.submissions:
            table.add_row(short_time(sub.submitted), sub.verdict, sub.digest[:12], plain("  " + sub.reason, cap=400))
        log = self.query_one("#t-log", RichLog)
        log.clear()
        log.border_subtitle = plain(page.log_path or "", cap=200)
        for line in page.log or ["(nothing logged yet on this machine)"]:
            log.write(plain(line, cap=2000))
        self.show_detail()

    def fill_games(self, page) -> None:
        table = self.query_one("#t-games", DataTable)
        keep = table.cursor_row
        table.clear()
        for index, game in enumerate(page.games):
            why = game.reason if game.forfeited or game.result != "won" else ""
            opponent = game.opponent if game.current else game.opponent + " (old)"
            table.add_row(plain(opponent, cap=80, no_wrap=True), str(game.number), "yes" if game.first else "",
                          game.result, plain("  " + why, cap=400), key=str(index))
        table.border_subtitle = "Enter: the game's replay · old: a submission since replaced"
        if page.games:
            table.move_cursor(row=min(keep, len(page.games) - 1), animate=False)

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
            detail.update(plain(f"game {game.number} against {game.opponent}, {game.result}: {game.reason}"))
        else:
            sub = self.page.submissions[min(table.cursor_row, len(self.page.submissions) - 1)]
            detail.update(plain(f"{sub.submitted} · {sub.verdict} · {sub.digest}"
                                + (f" · {sub.reason}" if sub.reason else "")))

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
