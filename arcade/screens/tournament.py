"""The tournament screen: pick a game, its bots (built-in and files), the format; see the games it
plans before Start, then watch the standings, the head-to-head crosstable and the time left fill
in as the games are played (``arcade.tournament`` does the work, in a worker thread and its own
processes, so the screen keeps answering keys).

The screen starts each game with ``DEFAULTS``: fast bots and few games, a tournament of seconds
(``tests/arcade/tournament/test_tournament.py`` times every game's). Bots that cannot play unattended
(``BotEntry.unattended``: Othello's ``external``) are not offered."""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Header, Input, Label, ProgressBar, Select, SelectionList, Static
from textual.worker import get_current_worker

from arcade.widgets.footer import SteadyFooter
from arcade.catalog import CATALOG
from arcade.untrusted import plain
from arcade.widgets.layout import Refit, SizeNotice

DEFAULTS: dict[str, tuple[tuple[str, ...], int]] = {
    # the bots ticked and the games a pair a game's tournament starts with: seconds in all, never
    # a slow bot (Othello's alphabeta thinks 10 s a move; alphabeta-0.1s plays a game in ~2 s)
    "toothpicks": (("perfect", "random", "always_1", "always_2", "mirror"), 20),
    "hog": (("optimal", "more_boar", "piggypoints", "always_roll_6"), 20),
    "ludo": (("expectimax", "heuristic", "simple_player2", "random"), 20),
    "othello": (("alphabeta-0.1s", "greedy", "random"), 4),
    "dfootball": (("perfect", "prefer_jumps", "random_move"), 20),
}
"""Per game; a game not listed starts with its first three unattended bots, 10 games a pair."""

NAME_WIDTH = 14
"""A bot's name in the tables (``alphabeta-0.1s``); one less in the groups standings."""
COLUMNS = {  # (label, width, right-aligned); no cell padding: the widths make the gaps, and fixed
    # widths keep the table still while the standings fill in (42 and 45 columns: they fit at 80×24)
    "round-robin": (("#", 3, False), ("bot", NAME_WIDTH, False), ("games", 6, True), ("won", 5, True),
                    ("drew", 5, True), ("lost", 5, True), ("ff", 4, True)),
    "groups": (("#", 3, False), ("bot", NAME_WIDTH - 1, False), ("pts", 4, True), ("games", 6, True),
               ("won", 4, True), ("lost", 5, True), (" reached", 10, False)),
}
STAGES = {"first round": "round 1", "second round": "round 2", "semi-final": "semi", "third place": "3rd place"}
MIN_SIZE = (80, 24)
"""The smallest terminal the form and the tables fit in (the standings' 45 columns beside the
form's 32)."""
CROSS_WIDTH = 4
"""A crosstable column: a row bot's wins against one bot (the column's number is its row's)."""


def defaults(game_id: str) -> tuple[list[str], int]:
    """The bots ticked and the games a pair the screen starts ``game_id`` with."""
    from bots.registry import bots_for

    if game_id in DEFAULTS:
        bots, games = DEFAULTS[game_id]
        return list(bots), games
    return [name for name, entry in bots_for(game_id).items() if entry.unattended][:3], 10


def now() -> float:
    """The screen's clock (``time.monotonic``; a test stops it for a picture)."""
    return time.monotonic()


def clock(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    minutes, seconds = divmod(round(max(0.0, seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def cut(name: str, width: int = NAME_WIDTH, names: dict[str, str] | None = None) -> str:
    """A bot's short name in ``width`` columns: a file bot's ``file:function`` (no ``.py``), or
    the name ``names`` gives it (``short_names``: ``alice/bot:strategy`` where two bots are
    ``bot.py``). Where it is longer, its end (the function, and as much of the file as fits), or
    with folders, its start and its end (the folder that tells it apart, and the function)."""
    from bots.external import is_file_spec, short_name

    if not is_file_spec(name):
        return name
    shown = ((names or {}).get(name) or short_name(name)).replace(".py:", ":")
    if len(shown) <= width:
        return shown
    if "/" not in shown:
        return "…" + shown[-(width - 1):]
    tail = (width - 1) // 2
    return shown[:width - 1 - tail] + "…" + shown[-tail:]


def head_to_head(bots: list[str], pairs) -> dict[tuple[str, str], int]:
    """Wins of the first bot against the second, over every stage they met in (pairs that have
    played no game yet are left out)."""
    wins: dict[tuple[str, str], int] = {}
    for pair in pairs:
        if not pair.games:
            continue
        for p, (me, other) in enumerate(((pair.a, pair.b), (pair.b, pair.a))):
            wins[me, other] = wins.get((me, other), 0) + pair.wins[p]
    return wins


class TournamentScreen(Screen):
    """Choose a game, bots and format; Start runs the tournament and fills in the standings."""

    CSS_PATH = "tournament.tcss"
    """Its styles (``arcade/screens/tournament.tcss``), read when it first opens."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="Stop the tournament and go back to the menu"),
        Binding("ctrl+s", "start", "Start", id="start", tooltip="Start the tournament"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id if game_id in CATALOG else next(iter(CATALOG))
        self.running = False
        self.seed_was_secret = False
        self.format = "round-robin"
        self.started: float | None = None  # when the first game began (``now()``)
        self.last: tuple[float, int, int] | None = None  # (when, done, total) of the latest progress
        self.names: dict[str, str] = {}  # the run's bots by their shortest distinguishing paths

    def compose(self) -> ComposeResult:
        yield Header()
        yield SizeNotice("", id="t-too-small")
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
                    yield Input(str(defaults(self.game_id)[1]), compact=True, id="t-games", type="integer",
                                tooltip="games each pair of bots plays")
                    yield Label("Seed", id="t-seed-label")
                    yield Input("", placeholder="secret", compact=True, id="t-seed", type="integer",
                                tooltip="empty: a secret seed, shown at the end (type it to replay)")
                yield SelectionList[str](id="t-bots")
                yield Label("Bot files (space between):", id="t-files-label")
                yield Input(placeholder="path/to/bot.py:function …", compact=True, id="t-files")
                yield Button("Start", id="t-start", variant="primary", compact=True)
                yield Static("Space ticks a bot · Games: a pair's games", id="t-status")
            with Vertical(id="t-results"):
                with Horizontal(id="t-progress-row"):
                    yield ProgressBar(total=1, id="t-progress", show_eta=False, show_percentage=False)
                    yield Static("", id="t-count")
                yield DataTable(id="t-standings", cursor_type="none", zebra_stripes=True, show_cursor=False,
                                cell_padding=0)
                yield DataTable(id="t-crosstable", cursor_type="none", zebra_stripes=True, show_cursor=False,
                                cell_padding=0)
        yield SteadyFooter()

    def on_mount(self) -> None:
        standings = self.query_one("#t-standings", DataTable)
        standings.border_title = "Standings"
        crosstable = self.query_one("#t-crosstable", DataTable)
        crosstable.border_title = "Head to head"
        crosstable.border_subtitle = "wins of the row's bot against the column's"
        self.query_one("#t-bots").border_title = "Bots"
        self.set_columns("round-robin")
        self.show_crosstable([], [])
        self.fill_bots()
        # the form's first field first: Down or Enter opens the Game list, never ticks a bot
        self.query_one("#t-game", Select).focus()
        self.ticker = self.set_interval(1, self.show_count, pause=True)

    def on_resize(self) -> None:
        self.check_size()

    def on_refit(self, message: Refit) -> None:
        message.stop()
        self.call_after_refresh(self.check_size)

    def check_size(self) -> None:
        """The "Enlarge the terminal" notice in place of the form and the tables where they do
        not fit (``MIN_SIZE``), as on the game screens: never ``S…`` or ``60 gam``."""
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "too-small")
        self.refresh_bindings()
        if small:
            self.query_one(SizeNotice).say("The tournament screen", MIN_SIZE, (width, height), False, back="Escape")

    def set_columns(self, fmt: str) -> None:
        table = self.query_one("#t-standings", DataTable)
        table.clear(columns=True)
        for label, width, right in COLUMNS[fmt]:
            table.add_column(Text(label, justify="right" if right else "left"), width=width)
        table.border_subtitle = "ff: games lost by forfeit" if fmt == "round-robin" else ""
        self.format = fmt

    def fill_bots(self) -> None:
        from bots.registry import bots_for

        ticked, _games = defaults(self.game_id)
        bots = self.query_one("#t-bots", SelectionList)
        bots.clear_options()
        for name, entry in bots_for(self.game_id).items():
            if entry.unattended:  # a program someone starts (Othello's external) plays no tournament
                bots.add_option((tick_prompt(name, name in ticked), name, name in ticked))
        if bots.option_count:
            bots.highlighted = 0  # Space ticks the first bot as soon as the list has the keys
        self.show_plan()

    def games_default(self, fmt: str) -> int:
        from arcade.tournament.formats import DEFAULT_GAMES

        return min(defaults(self.game_id)[1], DEFAULT_GAMES[fmt])

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "t-game" and event.value != self.game_id:
            self.game_id = str(event.value)
            self.query_one("#t-games", Input).value = str(self.games_default(self.chosen_format()))
            self.fill_bots()
        elif event.select.id == "t-format":
            self.query_one("#t-games", Input).value = str(self.games_default(str(event.value)))
            if not self.running:
                self.set_columns(str(event.value))
            self.show_plan()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        bots = event.selection_list
        for index in range(bots.option_count):
            name = bots.get_option_at_index(index).value
            bots.replace_option_prompt_at_index(index, tick_prompt(name, name in bots.selected))
        self.show_plan()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("t-games", "t-files"):
            self.show_plan()

    # -- before Start: the plan --------------------------------------------------------------
    def chosen_format(self) -> str:
        return str(self.query_one("#t-format", Select).value)

    def plan(self) -> int | None:
        """The games the tournament as set would play, ``None`` while games a pair is no number."""
        from arcade.tournament.plan import planned_games

        try:
            games = int(self.query_one("#t-games", Input).value)
        except ValueError:
            return None
        return planned_games(self.chosen_format(), len(self.chosen_bots()), games)

    def show_plan(self) -> None:
        """The planned total beside an idle bar (a bar without a total would animate)."""
        if self.running:
            return
        total = self.plan()
        self.query_one("#t-progress", ProgressBar).update(total=total or 1, progress=0)
        count = self.query_one("#t-count", Static)
        if len(self.chosen_bots()) < 2:
            count.update("tick two bots")
        elif total is None:
            count.update("games a pair?")
        else:
            count.update(plain(f"{total:,} game{'s' if total != 1 else ''} planned"))

    # -- running -----------------------------------------------------------------------------
    def status(self, text: str, error: bool = False) -> None:
        widget = self.query_one("#t-status", Static)
        widget.update(plain(text, multiline=True))
        widget.set_class(error, "error")

    def chosen_bots(self) -> list[str]:
        built_in = list(self.query_one("#t-bots", SelectionList).selected)
        files = self.query_one("#t-files", Input).value.split()
        return built_in + files

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """No Start while the form is hidden behind the "Enlarge the terminal" notice."""
        return not (action == "start" and self.has_class("too-small"))

    def action_start(self) -> None:
        """Plan the tournament as set (``arcade.tournament.plan``: its pre-flight) and settle the
        sandbox of its file bots (bwrap, or no tournament), each a message at once; then admit
        the bots and play, in a worker."""
        from arcade.seeds import secret
        from arcade.tournament.formats import TournamentError
        from arcade.tournament.plan import plan
        from bots.external import is_file_spec
        from bots.limits import Limits
        from bots.registry import contain
        from bots.external.sandbox import SandboxUnavailable

        if self.running:
            return
        bots = self.chosen_bots()
        fmt = self.chosen_format()
        try:
            games = int(self.query_one("#t-games", Input).value or "0")
            typed = self.query_one("#t-seed", Input).value.strip()
            seed = int(typed) if typed else secret()
        except ValueError:
            self.status("games a pair and the seed are whole numbers", error=True)
            return
        self.seed_was_secret = not typed
        try:  # a bot typed among the files that the list does not offer (external) is refused too
            planned = plan(self.game_id, bots, fmt, games)
            limits = contain(bots, Limits(), required=True).limits  # file bots run contained, or not at all
        except SandboxUnavailable as exc:
            self.status(f"file bots need the sandbox: {exc} (arcade tournament --sandbox none runs them "
                        "NOT contained)", error=True)
            return
        except TournamentError as exc:
            self.status(str(exc), error=True)
            return
        self.running = True
        self.started = self.last = None
        self.query_one("#t-start", Button).disabled = True
        self.set_columns(fmt)
        self.query_one("#t-standings", DataTable).clear()
        self.show_crosstable(bots, [])
        self.query_one("#t-progress", ProgressBar).update(total=planned.total, progress=0)
        self.query_one("#t-count", Static).update(plain(f"0/{planned.total:,} games"))
        files = sum(map(is_file_spec, bots))
        self.status(f"loading {files} file bot{'s' if files > 1 else ''}…" if files else "playing…")
        self.run_tournament(planned, seed, limits)

    class Progress(Message):
        """Games done of the total, and the pairs so far, from the tournament's worker, with the
        time it was sent (``time.monotonic``); a newer one replaces an older one still in the
        queue. The first, of no games, says that the games begin."""

        def __init__(self, done: int, total: int, pairs: list, bots: list[str]) -> None:
            super().__init__()
            self.done, self.total, self.pairs, self.bots = done, total, pairs, bots
            self.time = now()

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TournamentScreen.Progress)

    class Finished(Message):
        """The tournament's result, or the problem that stopped it."""

        def __init__(self, result=None, problem: str | None = None) -> None:
            super().__init__()
            self.result, self.problem = result, problem

    @work(thread=True, exclusive=True, group="tournament")
    def run_tournament(self, planned, seed: int, limits) -> None:
        """Admit the bots (every file bot loaded in the sandbox its games run in), then play."""
        from arcade.catalog import load
        from arcade.tournament.runner import run_tournament
        from bots.registry import UnknownBot, admit
        from bots.external.sandbox import SandboxUnavailable

        worker = get_current_worker()
        bots = list(planned.bots)
        game = load(self.game_id)()
        try:
            admit(game, bots, limits).close()
        except (UnknownBot, SandboxUnavailable) as exc:
            self.post_message(self.Finished(problem=str(exc)))
            return
        self.post_message(self.Progress(0, 0, [], bots))

        def progress(done: int, total: int, pairs) -> None:
            if not worker.is_cancelled:
                self.post_message(self.Progress(done, total, list(pairs), bots))

        try:
            # jobs=None: the games start in this thread, and workers join when the games played
            # show they would pay (arcade.tournament.jobs.Pace)
            result = run_tournament(self.game_id, bots, games=planned.games, seed=seed, jobs=None,
                                    fmt=planned.fmt, limits=limits, progress=progress,
                                    cancelled=lambda: worker.is_cancelled, steal=False)
        except KeyboardInterrupt:
            return
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a traceback
            self.post_message(self.Finished(problem=f"the tournament stopped: {exc}"))
            return
        self.post_message(self.Finished(result))

    def on_tournament_screen_progress(self, message: Progress) -> None:
        from arcade.tournament.formats import round_robin_standings

        if not self.running:  # a message of a tournament left behind
            return
        if self.started is None:
            from bots.external import short_names

            self.started = message.time
            self.ticker.resume()
            self.names = short_names(message.bots)
        if not message.total:
            self.status("playing…")
            return
        self.last = (message.time, message.done, message.total)
        self.query_one("#t-progress", ProgressBar).update(total=message.total, progress=message.done)
        self.show_count()
        played = [p for p in message.pairs if p.games]
        standings = round_robin_standings(message.bots, played)
        self.show_standings(standings)
        self.show_crosstable([s.bot for s in standings], played)

    def show_count(self) -> None:
        """Games done of the total and the time left: the time so far per game done, times the
        games to go, less the time since the latest count."""
        if not self.running or self.last is None or self.started is None:
            return
        when, done, total = self.last
        text = f"{done:,}/{total:,} games"
        if 0 < done < total:
            left = (when - self.started) / done * (total - done) - (now() - when)
            text += f" · {clock(left)} left" if left >= 1 else " · almost done"
        self.query_one("#t-count", Static).update(plain(text))

    def show_standings(self, standings) -> None:
        table = self.query_one("#t-standings", DataTable)
        table.clear()
        # a gap after the longest name where the next column's figures may fill theirs (the groups'
        # points): never "raises0"; the round robin's games column leaves one of its own
        width = COLUMNS[self.format][1][1] - (self.format == "groups")
        for s in standings:
            if self.format == "groups":
                cells = (s.rank, cut(s.bot, width, self.names), s.points, s.games, s.wins, s.losses, " " + STAGES.get(s.stage, s.stage))
            else:
                cells = (s.rank, cut(s.bot, width, self.names), s.games, s.wins, s.draws, s.losses, s.forfeits)
            table.add_row(*(plain(c, justify="right" if right else "left")
                            for c, (_label, _width, right) in zip(cells, COLUMNS[self.format])))

    def show_crosstable(self, bots: list[str], pairs) -> None:
        """A row per bot in the order given (the standings'), a column per bot numbered as its
        row: the row bot's wins against the column bot (blank where they have not met)."""
        table = self.query_one("#t-crosstable", DataTable)
        table.clear(columns=True)
        table.add_column("#", width=3)
        table.add_column("bot", width=NAME_WIDTH)
        for number in range(1, len(bots) + 1):
            table.add_column(Text(str(number), justify="right"), width=CROSS_WIDTH)
        wins = head_to_head(bots, pairs)
        for number, me in enumerate(bots, start=1):
            cells = ["·" if other == me else str(wins.get((me, other), "")) for other in bots]
            table.add_row(plain(number), plain(cut(me, names=self.names)), *(plain(c, justify="right") for c in cells))

    def on_tournament_screen_finished(self, message: Finished) -> None:
        result, problem = message.result, message.problem
        self.running = False
        self.ticker.pause()
        self.query_one("#t-start", Button).disabled = False
        if problem is not None:
            self.status(problem, error=True)
            self.show_plan()
            return
        self.show_standings(result.standings)
        self.show_crosstable([s.bot for s in result.standings], result.pairs)
        games = sum(p.games for p in result.pairs)
        bar = self.query_one("#t-progress", ProgressBar)
        bar.update(total=games or 1, progress=games or 1)
        took = f" in {clock(now() - self.started)}" if self.started is not None else ""
        self.query_one("#t-count", Static).update(plain(f"{games:,} games{took}"))
        from bots.external import short_names

        champion = result.standings[0]
        forfeits = sum(s.forfeits for s in result.standings)
        secret = f"; secret seed {result.seed} (type it to replay)" if self.seed_was_secret else ""
        self.status(f"done: {games} games; {short_names(result.bots).get(champion.bot, champion.bot)} first with {champion.wins} wins; "
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


def tick_prompt(name: str, ticked: bool) -> Text:
    """A bot's line in the list: ``✓ name`` in bold when ticked, ``· name`` dim when not, so
    the two differ in more than the toggle's colour."""
    return Text(f"✓ {name}", style="bold") if ticked else Text(f"· {name}", style="dim")
