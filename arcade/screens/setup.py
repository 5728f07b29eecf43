"""The setup screen of one game: who plays each side, the game's options, Start."""

from __future__ import annotations

from dataclasses import replace

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Header, Input, Label, Select, Static

from arcade.widgets.footer import SteadyFooter
from arcade.widgets.wrapped import WrappedLabel
from arcade.catalog import GameEntry
from arcade.screens.game import GameScreen
from arcade.screens.help import HelpScreen
from arcade.session import HUMAN
from arcade.untrusted import clean, markup, plain
from bots.base import BotEntry
from bots.limits import Limits
from bots.registry import UnknownBot, admit, bots_for, contain
from bots.external.cgroups import memory_mode
from bots.external.sandbox import SandboxUnavailable
from games.base import Game, OptionError

FILE = "file"
"""The choice of a bot from a file (``path/to/bot.py:function``, run in its own process)."""


def sandbox_tooltip() -> str:
    """The sandbox field's tooltip: what the modes do, and how the memory cap holds in each here."""
    return (f"how file bots are contained (bubblewrap); none runs them as you. Memory cap: in the sandbox "
            f"{memory_mode('bwrap')}; without it {memory_mode('none')}")


class SetupScreen(Screen):
    """Choose Human or a bot for each side, set the options, press Start."""

    CSS_PATH = "setup.tcss"
    """Its styles (``arcade/screens/setup.tcss``), read when it first opens."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="Back to the menu"),
        Binding("ctrl+s", "start", "Start", id="start", tooltip="Start the game with these players and options"),
        Binding("question_mark", "help", "Rules", id="help", tooltip="The rules of the game"),
    ]

    def __init__(self, entry: GameEntry, choices: tuple[str, str] | None = None, settings: dict | None = None) -> None:
        super().__init__()
        self.entry = entry
        self.game_cls: type[Game] = entry.load()
        self.bots: dict[str, BotEntry] = bots_for(entry.id)
        self.defaults = (HUMAN, next(iter(self.bots)))
        self.notice = ""
        """Why a remembered choice could not be restored (a bot's file is gone), shown on mount."""
        self.limits_memory: dict = {}
        if choices is None and settings is None:  # the last setup started for this game, if any
            from arcade import memory

            remembered, settings = memory.last_setup(entry.id)
            self.limits_memory = memory.last_limits(entry.id)
            if remembered:
                choices = self.restore(remembered)
        self.choices = choices or self.defaults
        # a side given as a file bot's spec shows as "bot from a file…" with the spec typed in
        self.file_specs = [c if c not in self.bots and c != HUMAN else "" for c in self.choices]
        self.choices = tuple(FILE if spec else c for spec, c in zip(self.file_specs, self.choices))
        self.settings = settings or {}

    def restore(self, remembered: tuple[str, str]) -> tuple[str, str]:
        """The remembered players, each one that can no longer play (a bot's file that is gone, a
        bot no longer built in) back to the side's default, and ``notice`` saying so."""
        from bots.external import BadSpec, is_file_spec, parse_spec

        restored, gone = [], []
        for index, choice in enumerate(remembered):
            if choice == HUMAN or choice in self.bots:
                restored.append(choice)
                continue
            if is_file_spec(choice):
                try:
                    parse_spec(choice, self.entry.id)
                    restored.append(choice)
                    continue
                except BadSpec as exc:
                    gone.append(f"{self.game_cls.sides[index].name}'s bot from a file is gone ({exc})")
            restored.append(self.defaults[index])
        if gone:
            self.notice = "; ".join(gone) + "; back to the default player"
        return restored[0], restored[1]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup"):
            yield Static(markup("[b]$title[/b] · $blurb", title=self.entry.title, blurb=self.entry.blurb),
                         id="setup-title")
            yield Static("Players", classes="setup-heading")
            choices = [("Human", HUMAN)] + [(f"bot: {name}", name) for name in self.bots]
            if self.files_allowed:
                choices.append(("bot from a file…", FILE))
            else:  # a remembered bot from a file is not offered: the side's default
                self.choices = tuple(self.defaults[i] if c == FILE else c for i, c in enumerate(self.choices))
            for side_index, side in enumerate(self.game_cls.sides):
                with Horizontal(classes="setup-row"):
                    yield Label(plain(f"  {side.name}"), classes="setup-label")
                    yield Select(
                        choices,
                        value=self.choices[side_index],
                        allow_blank=False,
                        compact=True,
                        id=f"side-{side_index}",
                        classes="setup-field",
                    )
                    yield WrappedLabel(clean(self.describe(self.choices[side_index])), id=f"about-{side_index}",
                                       classes="bot-description")
                file_row = Horizontal(classes="setup-row", id=f"file-row-{side_index}")
                file_row.display = self.choices[side_index] == FILE
                with file_row:
                    yield Label("    file", classes="setup-label")
                    yield Input(
                        self.file_specs[side_index],
                        placeholder="path/to/bot.py:function",
                        compact=True,
                        id=f"file-{side_index}",
                        tooltip="your bot in the course's signature; it runs in a process of its own",
                    )
            yield from self.compose_file_limits()
            if self.game_cls.options:
                yield Static("Options", classes="setup-heading")
            yield from self.compose_options()
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield Static("Tab next field · Enter open a choice", id="setup-hint")
        yield SteadyFooter()

    def compose_file_limits(self) -> ComposeResult:
        """The rows of file bots' limits (shown while a side is a bot from a file): the sandbox,
        and their time a move (blank: the game's, the course's limit)."""
        from bots.limits import move_time

        sandbox_row = Horizontal(classes="setup-row file-limits", id="sandbox-row")
        sandbox_row.display = FILE in self.choices
        with sandbox_row:
                yield Label("    sandbox", classes="setup-label")
                yield Select(
                    [("auto: bwrap where it works", "auto"), ("bwrap (required)", "bwrap"),
                     ("none: NOT contained", "none")],
                    value=self.limits_memory.get("sandbox", "auto"),
                    allow_blank=False,
                    compact=True,
                    id="sandbox",
                    classes="setup-field",
                    tooltip=sandbox_tooltip(),
                )
        time_row = Horizontal(classes="setup-row file-limits", id="file-time-row")
        time_row.display = FILE in self.choices
        default = move_time(self.game_cls(**self.valid_settings()))
        remembered = self.limits_memory.get("time")
        with time_row:
            yield Label("    time a move", classes="setup-label")
            yield Input("" if remembered is None else f"{remembered:g}", placeholder=f"{default:g}",
                        compact=True, id="file-time", classes="setup-field",
                        tooltip="seconds a bot from a file has for each move; blank: the game's limit")
            yield Label(plain(f"seconds; blank: {default:g} (the game's)"), classes="setup-bounds")

    def valid_settings(self) -> dict:
        """The remembered options the game accepts (else its defaults): for the time's default."""
        try:
            self.game_cls(**self.settings)
            return dict(self.settings)
        except (OptionError, TypeError, ValueError):
            return {}

    def compose_options(self) -> ComposeResult:
        """A row for each of the game's options: a choice of presets, or a field to type in."""
        if self.game_cls.presets:  # Robot Ludo's contest and notebook settings
            yield from self.preset_row()
        for option in self.game_cls.options:
                with Horizontal(classes="setup-row"):
                    yield Label(plain(f"  {option.label}"), classes="setup-label")
                    value = self.settings.get(option.key, option.presets[0][1] if option.presets else option.default)
                    if isinstance(value, (tuple, list)):
                        value = ",".join(map(str, value))
                    if option.presets:  # one choice each: a quick casual game, the contest's setting
                        presets = [(plain(label), str(v)) for label, v in option.presets]
                        if str(value) not in [v for _, v in presets]:  # remembered (settings.json): plain
                            presets.append((plain(value), str(value)))
                        yield Select(presets, value=str(value), allow_blank=False, compact=True,
                                     id=f"option-{option.key}", classes="setup-field", tooltip=option.help)
                    else:
                        yield Input(
                            str(value),
                            compact=True,
                            id=f"option-{option.key}",
                            classes="setup-field",
                            tooltip=option.help,
                        )
                    yield Label(plain(self.bounds_label(option)), classes="setup-bounds", id=f"bounds-{option.key}")

    CUSTOM = "custom"
    """The preset choice of options set one by one."""

    def preset_row(self) -> ComposeResult:
        """A choice of the game's presets (each filling in its options) or ``custom``; the preset
        the options start as is chosen."""
        presets = self.game_cls.presets
        current = self.CUSTOM
        for name, values in presets.items():
            if all(self.option_text(key, self.settings.get(key)) == self.option_text(key, value)
                   for key, value in values.items()):
                current = name
        with Horizontal(classes="setup-row"):
            yield Label("  Preset", classes="setup-label")
            yield Select([(name, name) for name in presets] + [(self.CUSTOM, self.CUSTOM)], value=current,
                         allow_blank=False, compact=True, id="preset", classes="setup-field",
                         tooltip="the challenge's own settings; changing an option below makes it custom")
            yield WrappedLabel(self.preset_text(current), id="preset-about", classes="bot-description")

    def preset_text(self, name: str) -> str:
        """``counters 12 · length 36 · safe 9,27``: a preset's options in a few words."""
        values = self.game_cls.presets.get(name)
        if values is None:
            return "the options below"
        return " · ".join(f"{key} {self.option_text(key, value) or 'none'}" for key, value in values.items())

    def option_text(self, key: str, value) -> str:
        """An option's value as its field shows it (a list comma-separated), the default if unset."""
        if value is None:
            option = next((o for o in self.game_cls.options if o.key == key), None)
            value = option.default if option is not None else ""
        return ",".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)

    def leave_preset(self, event: Input.Changed) -> None:
        """An option typed by hand that leaves the chosen preset makes the choice ``custom``."""
        if not self.game_cls.presets or not (event.input.id or "").startswith("option-"):
            return
        select = self.query_one("#preset", Select)
        preset = self.game_cls.presets.get(str(select.value))
        key = event.input.id.removeprefix("option-")
        if preset is not None and key in preset and event.value.replace(" ", "") != self.option_text(key, preset[key]):
            select.value = self.CUSTOM

    def describe(self, choice: str) -> str:
        if choice == HUMAN:
            return "keyboard and mouse"
        if choice == FILE:
            from bots.adapters import adapter_for

            return f"your {adapter_for(self.entry.id).signature}, run in a process of its own"
        return self.bots[choice].description

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset":
            self.query_one("#preset-about", WrappedLabel).update(self.preset_text(str(event.value)))
            for key, value in self.game_cls.presets.get(str(event.value), {}).items():
                self.query_one(f"#option-{key}", Input).value = self.option_text(key, value)
            return
        if not event.select.id.startswith("side-"):
            return
        side = event.select.id.removeprefix("side-")
        self.query_one(f"#about-{side}", WrappedLabel).update(clean(self.describe(str(event.value))))
        row = self.query_one(f"#file-row-{side}")
        row.display = event.value == FILE
        if event.value == FILE:
            self.query_one(f"#file-{side}", Input).focus()
        self.place_sandbox_row()

    def place_sandbox_row(self) -> None:
        """The sandbox row under the first bot from a file (Michigan's when Michigan is one),
        shown while one side is."""
        chosen = [self.query_one(f"#side-{i}", Select).value for i in range(2)]
        rows = list(self.query(".file-limits"))  # the sandbox, the time a move
        for row in rows:
            row.display = FILE in chosen
        if FILE in chosen:
            after = self.query_one(f"#file-row-{chosen.index(FILE)}")
            for row in rows:
                if row.parent is not None:
                    row.parent.move_child(row, after=after)
                    after = row

    def bounds_label(self, option) -> str:
        """What ``option`` accepts, beside its field: the choices' word for a list of presets
        (they are the values offered), else its range as the other fields now bound it."""
        if option.presets:
            return "one of these"
        values = {}
        for other in self.game_cls.options:
            try:
                values[other.key] = int(self.query_one(f"#option-{other.key}", Input).value)
            except Exception:  # noqa: BLE001 - not mounted yet, not an Input, or not a number
                values[other.key] = self.settings.get(other.key, other.default)
        return option.bounds_text(values)

    def on_input_changed(self, event: Input.Changed) -> None:
        """An option typed in: the ranges it bounds follow it; leaving the chosen preset makes the
        choice ``custom``."""
        key = (event.input.id or "").removeprefix("option-")
        for option in self.game_cls.options:
            if option.below and option.below == key:
                self.query_one(f"#bounds-{option.key}", Label).update(self.bounds_label(option))
        self.leave_preset(event)

    def on_mount(self) -> None:
        self.query_one("#side-0", Select).focus()
        self.place_sandbox_row()
        for option in self.game_cls.options:  # the ranges as the fields now bound them
            self.query_one(f"#bounds-{option.key}", Label).update(self.bounds_label(option))
        if self.notice:
            self.show_error(self.notice)

    def on_descendant_focus(self, event) -> None:
        """Mark the focused field's row (its label shows reversed, with a ▸): Textual's 5% tint
        alone is invisible in most themes."""
        focused = event.widget
        for row in self.query(".setup-row"):
            mine = focused in row.children or (focused.parent is not None and focused.parent in row.children)
            row.set_class(mine, "-focused")
            for label in row.query(".setup-label"):
                label.update(plain(("▸" if mine else " ") + str(label.content)[1:]))

    def read_settings(self) -> dict | None:
        """The options as typed, checked by the game; ``None`` (and a message) if any is wrong."""
        settings = {}
        for option in self.game_cls.options:
            field = self.query_one(f"#option-{option.key}")
            settings[option.key] = value = str(field.value)
            try:
                option.parse(value)
            except OptionError:  # named by its label, as on this screen (the CLI names the key)
                self.show_error(f"{option.label} must be {option.bounds_text() or option.kind}, not {value!r}")
                field.focus()
                return None
        try:
            game = self.game_cls(**settings)
        except OptionError as exc:
            self.show_error(str(exc))
            return None
        self.show_error("")
        return dict(game.settings)

    def show_error(self, text: str) -> None:
        error = self.query_one("#setup-error", Static)
        hint = "\n[dim]Fix it, then Start again (Ctrl+S) · PgUp/PgDn scroll this screen[/dim]"
        error.update(markup("[b]✗[/b] $text" + hint, text=text) if text else "")
        error.set_class(bool(text), "shown")
        if text:  # a long message (a load error, its reason and log) is brought into sight
            self.call_after_refresh(lambda: self.query_one("#setup").scroll_to_widget(error, animate=False))

    @property
    def files_allowed(self) -> bool:
        """Whether bots from files may play (not in ``arcade serve`` without ``--allow-file-bots``)."""
        return getattr(self.app, "allow_file_bots", True)

    def action_start(self) -> None:
        """Start with these players and options. File bots are admitted first (in a worker:
        ``bots.registry.admit`` loads each in its own process, in the sandbox chosen here, the
        one the game runs it in), so that a bot that cannot play is a message on this screen."""
        settings = self.read_settings()
        if settings is None:
            return
        players = tuple(
            str(self.query_one(f"#side-{i}", Select).value) for i in range(2)
        )
        files = {i: self.query_one(f"#file-{i}", Input).value.strip() for i in range(2) if players[i] == FILE}
        if files and not self.files_allowed:
            self.show_error("bots from files are off here (arcade serve --allow-file-bots turns them on)")
            return
        limits = Limits(sandbox=str(self.query_one("#sandbox", Select).value))
        if not files:
            self.open_game(players, settings, {}, limits)
            return
        for i, spec in files.items():
            if not spec:
                self.show_error(f"{self.game_cls.sides[i].name}: type the bot's file as path/to/bot.py:function")
                return
        seconds = self.read_file_time()
        if seconds is False:
            return
        limits = Limits(time=seconds, sandbox=limits.sandbox)
        try:
            contained = contain(files.values(), limits)
        except SandboxUnavailable as exc:
            self.show_error(str(exc))
            return
        if contained.warning:
            self.notify(contained.warning, title="Sandbox", severity="warning", timeout=10)
        held = memory_mode(contained.limits.sandbox)
        if not held.startswith("one budget"):  # the cap does not hold all of a bot's processes together
            self.notify(f"memory cap: {held}", title="Sandbox", timeout=10)
        players = tuple(files.get(i, players[i]) for i in range(2))
        self.query_one("#setup-error", Static).update("Loading the bot's file…")
        self.query_one("#setup-error", Static).add_class("shown")
        self.load_files(files, players, settings, contained.limits)

    def read_file_time(self) -> float | None | bool:
        """The file bots' time a move as typed: seconds, ``None`` (blank: the game's), or
        ``False`` (and a message) if it is no number of seconds more than 0."""
        field = self.query_one("#file-time", Input)
        text = field.value.strip()
        if not text:
            return None
        try:
            seconds = float(text)
            Limits(time=seconds)
        except ValueError:  # not a number, or one Limits refuses (0, negative, infinite)
            self.show_error(f"Time a move must be a number of seconds more than 0, not {text!r}")
            field.focus()
            return False
        return seconds

    @work(thread=True, exclusive=True, group="load-files")
    def load_files(self, files: dict[int, str], players: tuple[str, str], settings: dict, limits: Limits) -> None:
        """Admit the file bots of ``files`` (by side), each loaded in its own process (never in
        the app's), to report a problem now."""
        sides = list(files)
        try:
            admitted = admit(self.game_cls(**settings), [files[i] for i in sides], limits)
        except (UnknownBot, SandboxUnavailable) as exc:
            index = getattr(exc, "index", None)
            side = f"{self.game_cls.sides[sides[index]].name}: " if index is not None else ""
            self.post_message(self.FilesLoaded([f"{side}{exc}"], players, settings, {}, limits))
            return
        self.post_message(self.FilesLoaded([], players, settings, dict(zip(sides, admitted.entries)), limits))

    class FilesLoaded(Message):
        """The file bots were admitted (each loaded in its own process): the problem found, or
        their entries, and the limits they run under."""

        def __init__(self, problems: list[str], players: tuple[str, str], settings: dict,
                     entries: dict[int, BotEntry], limits: Limits) -> None:
            super().__init__()
            self.problems = problems
            self.players = players
            self.settings = settings
            self.entries = entries
            self.limits = limits

    def on_setup_screen_files_loaded(self, message: FilesLoaded) -> None:
        if message.problems or self.app.screen is not self:
            for entry in message.entries.values():
                entry.close()
            if message.problems:
                self.show_error("\n".join(message.problems))
            return
        self.show_error("")
        self.open_game(message.players, message.settings, message.entries, message.limits)

    def open_game(self, players: tuple[str, str], settings: dict, entries: dict[int, BotEntry],
                  limits: Limits) -> None:
        """The game screen over this one; leaving the game leaves this screen too (to the menu)."""
        from arcade import memory

        problem = memory.remember_setup(self.entry.id, tuple(self.lasting(p) for p in players), settings,
                                        {"time": limits.time, "sandbox": limits.sandbox} if entries else None)
        if problem:  # the game starts all the same; the next time, this setup is not offered
            self.notify(f"{problem}; this setup is not remembered", title="Settings", severity="warning")
        # the time is the file bots' own (their limits, given when admitted); the session's bots
        # keep their own levels or the game's time
        session_limits = replace(limits, time=None)
        self.app.push_screen(GameScreen(self.entry, players, settings, entries, session_limits),
                             callback=self.game_closed)

    def lasting(self, player: str) -> str:
        """``player`` as remembered: a bot's file by its absolute path, found again from any
        folder the arcade is started in."""
        from bots.external import BadSpec, is_file_spec, parse_spec

        if player == HUMAN or player in self.bots or not is_file_spec(player):
            return player
        try:
            path, function = parse_spec(player, self.entry.id)
        except BadSpec:
            return player
        return f"{path}:{function}"

    def game_closed(self, result: object) -> None:
        """The game was left: leave this screen too (not awaited: a callback may not await it);
        for another game's setup if the game asked for it (the palette's Switch game)."""
        if self.is_current:
            self.app.pop_screen()
            if isinstance(result, GameEntry):
                self.app.push_screen(SetupScreen(result))

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.entry.id))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()
