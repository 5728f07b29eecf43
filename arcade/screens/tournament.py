"""The tournament screen: pick a game, its bots (built-in and files), the format; watch the
standings fill in as the games are played (``arcade.tournament`` does the work, in a worker
thread and its own processes, so the screen keeps answering keys)."""

from __future__ import annotations

import os

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, ProgressBar, Select, SelectionList, Static
from textual.worker import get_current_worker

from arcade.catalog import CATALOG

COLUMNS = {  # fixed widths: the table does not shift while the standings fill in
    "round-robin": (("#", 2), ("bot", 14), ("wins", 4), ("draws", 5), ("forfeits", 8)),
    "groups": (("#", 2), ("bot", 14), ("pts", 3), ("wins", 4), ("reached", 9)),
}
STAGES = {"first round": "round 1", "second round": "round 2", "semi-final": "semi", "third place": "3rd place"}
NAME_WIDTH = 14


class TournamentScreen(Screen):
    """Choose a game, bots and format; Start runs the tournament and fills in the standings."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="Stop the tournament and go back to the menu"),
        Binding("ctrl+s", "start", "Start", id="start", tooltip="Start the tournament"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id if game_id in CATALOG else next(iter(CATALOG))
        self.running = False
        self.seed_was_secret = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="tournament"):
            with Vertical(id="t-form"):
                with Horizontal(classes="t-row"):
                    yield Label("Game", classes="t-label")
                    yield Select([(CATALOG[g].title, g) for g in CATALOG], value=self.game_id,
                                 allow_blank=False, compact=True, id="t-game", classes="t-field")
                with Horizontal(classes="t-row"):
                    yield Label("Format", classes="t-label")
                    yield Select([("round robin", "round-robin"), ("groups", "groups")],
                                 value="round-robin", allow_blank=False, compact=True, id="t-format",
                                 classes="t-field")
                with Horizontal(classes="t-row"):
                    yield Label("Games", classes="t-label", id="t-games-label")
                    yield Input("20", compact=True, id="t-games", type="integer")
                    yield Label("Seed", id="t-seed-label")
                    yield Input("", placeholder="secret", compact=True, id="t-seed", type="integer",
                                tooltip="empty: a secret seed, shown at the end (type it to replay)")
                yield SelectionList[str](id="t-bots")
                yield Label("Bot files (space between):", id="t-files-label")
                yield Input(placeholder="path/to/bot.py:function …", compact=True, id="t-files")
                yield Button("Start", id="t-start", variant="primary", compact=True)
                yield Static("Space ticks a bot · Games: a pair's games", id="t-status")
            with Vertical(id="t-results"):
                yield ProgressBar(id="t-progress", show_eta=False)
                yield DataTable(id="t-standings", cursor_type="none", zebra_stripes=True, show_cursor=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#t-standings").border_title = "Standings"
        self.query_one("#t-bots").border_title = "Bots"
        self.set_columns("round-robin")
        self.fill_bots()
        self.query_one("#t-bots", SelectionList).focus()

    def set_columns(self, fmt: str) -> None:
        table = self.query_one("#t-standings", DataTable)
        table.clear(columns=True)
        for label, width in COLUMNS[fmt]:
            table.add_column(label, width=width)
        self.format = fmt

    def fill_bots(self) -> None:
        from bots.registry import bots_for

        bots = self.query_one("#t-bots", SelectionList)
        bots.clear_options()
        for index, name in enumerate(bots_for(self.game_id)):
            bots.add_option((name, name, index < 3))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "t-game" and event.value != self.game_id:
            self.game_id = str(event.value)
            self.fill_bots()
        elif event.select.id == "t-format":
            from arcade.tournament import DEFAULT_GAMES

            self.query_one("#t-games", Input).value = str(min(20, DEFAULT_GAMES[str(event.value)]))
            if not self.running:
                self.set_columns(str(event.value))

    # -- running -----------------------------------------------------------------------------
    def status(self, text: str, error: bool = False) -> None:
        widget = self.query_one("#t-status", Static)
        widget.update(escape(text))
        widget.set_class(error, "error")

    def chosen_bots(self) -> list[str]:
        built_in = list(self.query_one("#t-bots", SelectionList).selected)
        files = self.query_one("#t-files", Input).value.split()
        return built_in + files

    def action_start(self) -> None:
        from arcade.tournament import TournamentError, check
        from bots.external import is_file_spec
        from bots.registry import UnknownBot, resolve
        from bots.sandbox import SandboxUnavailable, choose

        if self.running:
            return
        bots = self.chosen_bots()
        fmt = str(self.query_one("#t-format", Select).value)
        try:
            games = int(self.query_one("#t-games", Input).value or "0")
            typed = self.query_one("#t-seed", Input).value.strip()
            seed = int(typed) if typed else int.from_bytes(os.urandom(8), "big") >> 1
        except ValueError:
            self.status("games a pair and the seed are whole numbers", error=True)
            return
        self.seed_was_secret = not typed
        try:
            check(self.game_id, bots, fmt, games)
            if any(map(is_file_spec, bots)):  # a tournament runs file bots contained, or not at all
                choose("bwrap")
            for bot in bots:
                resolve(self.game_id, bot, sandbox="bwrap" if is_file_spec(bot) else "auto")
        except SandboxUnavailable as exc:
            self.status(f"file bots need the sandbox: {exc} (arcade tournament --sandbox none runs them "
                        "NOT contained)", error=True)
            return
        except (TournamentError, UnknownBot) as exc:
            self.status(str(exc).strip("'\""), error=True)
            return
        self.running = True
        self.query_one("#t-start", Button).disabled = True
        self.set_columns(fmt)
        files = sum(map(is_file_spec, bots))
        self.status(f"loading {files} file bot{'s' if files > 1 else ''}…" if files else "playing…")
        self.run_tournament(bots, fmt, games, seed)

    class Progress(Message):
        """Games done of the total, and the pairs so far, from the tournament's worker; a newer
        one replaces an older one still in the queue."""

        def __init__(self, done: int, total: int, pairs: list, bots: list[str]) -> None:
            super().__init__()
            self.done, self.total, self.pairs, self.bots = done, total, pairs, bots

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TournamentScreen.Progress)

    class Finished(Message):
        """The tournament's result, or the problem that stopped it."""

        def __init__(self, result=None, problem: str | None = None) -> None:
            super().__init__()
            self.result, self.problem = result, problem

    @work(thread=True, exclusive=True, group="tournament")
    def run_tournament(self, bots: list[str], fmt: str, games: int, seed: int) -> None:
        from arcade.catalog import load
        from arcade.tournament import default_jobs, run_tournament
        from bots.external import is_file_spec
        from bots.registry import UnknownBot, load_all

        worker = get_current_worker()
        try:  # load every file bot (in its own process) before any game
            for entry in load_all(load(self.game_id)(), bots):
                entry.close()
        except UnknownBot as exc:
            self.post_message(self.Finished(problem=str(exc)))
            return
        self.post_message(self.Progress(0, 0, [], bots))

        def progress(done: int, total: int, pairs) -> None:
            if not worker.is_cancelled:
                self.post_message(self.Progress(done, total, list(pairs), bots))

        try:
            result = run_tournament(self.game_id, bots, games=games, seed=seed, jobs=default_jobs(), fmt=fmt,
                                    sandbox="bwrap" if any(map(is_file_spec, bots)) else "auto",
                                    progress=progress, cancelled=lambda: worker.is_cancelled)
        except KeyboardInterrupt:
            return
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a traceback
            self.post_message(self.Finished(problem=f"the tournament stopped: {exc}"))
            return
        self.post_message(self.Finished(result))

    def on_tournament_screen_progress(self, message: Progress) -> None:
        from arcade.tournament import round_robin_standings

        if not message.total:
            self.status("playing…")
            return
        self.query_one("#t-progress", ProgressBar).update(total=message.total, progress=message.done)
        self.status(f"playing… {message.done} of {message.total} games")
        self.show_standings(round_robin_standings(message.bots, [p for p in message.pairs if p.games]))

    def show_standings(self, standings, groups: bool = False) -> None:
        from bots.external import short_name

        table = self.query_one("#t-standings", DataTable)
        table.clear()
        for s in standings:
            name = short_name(s.bot)
            if len(name) > NAME_WIDTH:  # a file bot's end says which function it is
                name = "…" + name[-(NAME_WIDTH - 1):]
            if self.format == "groups":
                table.add_row(str(s.rank), name, str(s.points), str(s.wins), STAGES.get(s.stage, s.stage or ""))
            else:
                table.add_row(str(s.rank), name, str(s.wins), str(s.draws), str(s.forfeits))

    def on_tournament_screen_finished(self, message: Finished) -> None:
        result, problem = message.result, message.problem
        self.running = False
        self.query_one("#t-start", Button).disabled = False
        if problem is not None:
            self.status(problem, error=True)
            return
        self.show_standings(result.standings)
        bar = self.query_one("#t-progress", ProgressBar)
        bar.update(total=bar.total or 1, progress=bar.total or 1)
        from bots.external import short_name

        champion = result.standings[0]
        forfeits = sum(s.forfeits for s in result.standings)
        games = sum(p.games for p in result.pairs)
        secret = f"; secret seed {result.seed} (type it to replay)" if self.seed_was_secret else ""
        self.status(f"done: {games} games; {short_name(champion.bot)} first with {champion.wins} wins; "
                    f"{forfeits} forfeits{secret}")

    # -- keys ----------------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "t-start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "tournament")
        self.app.pop_screen()
