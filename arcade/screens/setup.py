"""The setup screen of one game: who plays each side, the game's options, Start."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from bots.base import BotEntry
from bots.registry import bots_for
from games import GameEntry
from games.base import Game, OptionError

HUMAN = "human"


class SetupScreen(Screen):
    """Choose Human or a bot for each side, set the options, press Start."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start"),
        Binding("question_mark", "help", "Rules"),
    ]

    def __init__(self, entry: GameEntry, choices: tuple[str, str] | None = None, settings: dict | None = None) -> None:
        super().__init__()
        self.entry = entry
        self.game_cls: type[Game] = entry.load()
        self.bots: dict[str, BotEntry] = bots_for(entry.id)
        first_bot = next(iter(self.bots))
        self.choices = choices or (HUMAN, first_bot)
        self.settings = settings or {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup"):
            yield Static(f"[b]{self.entry.title}[/b] · {self.entry.blurb}", id="setup-title")
            yield Static("Players", classes="setup-heading")
            choices = [("Human", HUMAN)] + [(f"bot: {name}", name) for name in self.bots]
            for side_index, side in enumerate(self.game_cls.sides):
                with Horizontal(classes="setup-row"):
                    yield Label(f"{side.name}", classes="setup-label")
                    yield Select(
                        choices,
                        value=self.choices[side_index],
                        allow_blank=False,
                        compact=True,
                        id=f"side-{side_index}",
                        classes="setup-field",
                    )
                    yield Label(self.describe(self.choices[side_index]), id=f"about-{side_index}", classes="bot-description")
            if self.game_cls.options:
                yield Static("Options", classes="setup-heading")
            for option in self.game_cls.options:
                with Horizontal(classes="setup-row"):
                    yield Label(option.label, classes="setup-label")
                    value = self.settings.get(option.key, option.default)
                    if isinstance(value, tuple):
                        value = ",".join(map(str, value))
                    yield Input(
                        str(value),
                        compact=True,
                        id=f"option-{option.key}",
                        classes="setup-field",
                        tooltip=option.help,
                    )
                    yield Label(option.bounds_text(), classes="setup-bounds")
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield Static("Tab next field · Enter open a choice · Ctrl+S or Start to play", id="setup-hint")
        yield Footer()

    def describe(self, choice: str) -> str:
        if choice == HUMAN:
            return "keyboard and mouse"
        return self.bots[choice].description

    def on_select_changed(self, event: Select.Changed) -> None:
        side = event.select.id.removeprefix("side-")
        self.query_one(f"#about-{side}", Label).update(self.describe(str(event.value)))

    def on_mount(self) -> None:
        self.query_one("#side-0", Select).focus()

    def read_settings(self) -> dict | None:
        """The options as typed, checked by the game; ``None`` (and a message) if any is wrong."""
        settings = {}
        for option in self.game_cls.options:
            settings[option.key] = self.query_one(f"#option-{option.key}", Input).value
        error = self.query_one("#setup-error", Static)
        try:
            game = self.game_cls(**settings)
        except OptionError as exc:
            error.update(f"[b]✗[/b] {exc}")
            error.add_class("shown")
            return None
        error.update("")
        error.remove_class("shown")
        return dict(game.settings)

    def action_start(self) -> None:
        from arcade.screens.game import GameScreen

        settings = self.read_settings()
        if settings is None:
            return
        players = tuple(
            str(self.query_one(f"#side-{i}", Select).value) for i in range(2)
        )
        self.app.push_screen(GameScreen(self.entry, players, settings))

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from arcade.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.entry.id))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()
